/// The media type of a `content-type` value, matched without building a String: every request
/// passes here (plain gRPC too), so lower-casing and splitting the value would cost allocations
/// on each call.
enum MediaType {
    /// The index in `candidates` (lower-case media types) of the one `contentType` names, before
    /// any `;` parameters, with spaces and tabs around it ignored and ASCII letters in any case.
    static func index(of contentType: String, in candidates: [StaticString]) -> Int? {
        contentType.withUTF8Bytes { index(of: $0, in: candidates) }
    }

    private static func index(of value: UnsafeBufferPointer<UInt8>, in candidates: [StaticString]) -> Int? {
        var end = value.firstIndex(of: UInt8(ascii: ";")) ?? value.count
        var start = 0
        while start < end, value[start] == 0x20 || value[start] == 0x09 { start += 1 }
        while end > start, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
        let length = end - start
        return candidates.firstIndex { candidate in
            guard candidate.utf8CodeUnitCount == length else { return false }
            let expected = candidate.utf8Start
            for i in 0..<length {
                var byte = value[start + i]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
                if byte != expected[i] { return false }
            }
            return true
        }
    }
}
