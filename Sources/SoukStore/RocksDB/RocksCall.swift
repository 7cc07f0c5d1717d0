import CRocksDB

/// Helpers shared by the RocksDB wrappers: error slots, and handing Swift bytes to C.
enum Rocks {
    typealias ErrorSlot = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    /// Runs a C call that reports failure through an error slot, and turns a failure into a
    /// `StoreError` carrying RocksDB's own message.
    @inline(__always)
    static func call<R>(_ operation: String, _ body: (ErrorSlot) -> R) throws -> R {
        var error: UnsafeMutablePointer<CChar>? = nil
        let result = body(&error)
        if let error {
            let message = String(cString: error)
            rocksdb_free(error)
            throw classify(operation, message)
        }
        return result
    }

    /// The C API reports only a message; its fixed prefix (from `rocksdb::Status::ToString`) says
    /// which kind of status it was. Busy (deadlock, write conflict), TimedOut (lock wait) and
    /// TryAgain are collisions with concurrent transactions: a fresh attempt may succeed.
    static func classify(_ operation: String, _ message: String) -> StoreError {
        if message.hasPrefix("Resource busy") || message.hasPrefix("Operation timed out")
            || message.hasPrefix("Operation failed. Try again") {
            return .conflict("\(operation): \(message)")
        }
        return .rocksDB(operation: operation, message: message)
    }

    /// Calls `body` with the bytes as a C `char` pointer and a length (a valid pointer even when empty).
    @inline(__always)
    static func withChars<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>, Int) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress {
                return try body(base.assumingMemoryBound(to: CChar.self), raw.count)
            }
            return try withUnsafePointer(to: 0 as CChar) { try body($0, 0) }
        }
    }

    /// A view of `length` bytes at a C pointer (empty when the pointer is null).
    @inline(__always)
    static func buffer(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer {
        guard let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: length)
    }
}

/// Bytes copied into C-allocated memory, for options that keep a pointer to them (iterator bounds).
final class OwnedBytes {
    let pointer: UnsafeMutablePointer<CChar>
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        pointer = .allocate(capacity: max(1, bytes.count))
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: raw.count) }
        }
    }

    deinit { pointer.deallocate() }
}
