extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place when it stores them contiguously (a
    /// native String), else a copy's (a bridged or sliced one). Requests' paths and content types
    /// are read this way, with no String made from them.
    @inlinable
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
