import CProtobufC

/// Owns the C memory a message's C structs point into while the message is packed: strings,
/// bytes, arrays and nested structs. Everything is freed together when the arena ends, so each
/// pointer has exactly one owner and is freed exactly once.
///
/// A bump allocator: the first allocations go into a caller-provided scratch buffer (on the
/// stack), larger or later ones into heap chunks.
///
/// Large bytes fields are not copied: the arena keeps the array alive and the C field points at
/// its storage (see `bytes`).
struct EncodingArena: ~Copyable {
    private var cursor: UnsafeMutableRawPointer
    private var end: UnsafeMutableRawPointer
    private var chunks: [UnsafeMutableRawPointer] = []
    /// Arrays whose storage C fields point into; held so that storage lives as long as the arena.
    private var borrowed: [[UInt8]] = []

    /// Heap chunks are at least this large, so a message with many fields allocates rarely.
    private static let chunkSize = 4096
    /// Bytes fields at least this long are borrowed rather than copied.
    static let borrowThreshold = 1024

    /// Runs `body` with an arena whose first bytes live on the stack.
    static func with<R>(_ body: (inout EncodingArena) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { scratch in
            var arena = EncodingArena(scratch: scratch)
            return try body(&arena)
        }
    }

    private init(scratch: UnsafeMutableRawBufferPointer) {
        cursor = scratch.baseAddress!
        end = cursor + scratch.count
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// Uninitialised memory valid until the arena ends.
    mutating func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let start = cursor.alignedUp(toMultipleOf: alignment)
        if start + byteCount <= end {
            cursor = start + byteCount
            return start
        }
        let size = max(byteCount + alignment, Self.chunkSize)
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        chunks.append(chunk)
        let aligned = chunk.alignedUp(toMultipleOf: alignment)
        cursor = aligned + byteCount
        end = chunk + size
        return aligned
    }

    /// Uninitialised memory for `count` values of `T`.
    mutating func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: MemoryLayout<T>.stride * count, alignment: MemoryLayout<T>.alignment)
            .bindMemory(to: T.self, capacity: count)
    }

    // MARK: Field values

    /// A NUL-terminated copy of `string`. Never NULL: protobuf-c omits a oneof string whose pointer is NULL.
    mutating func string(_ string: String) -> UnsafeMutablePointer<CChar> {
        var string = string
        return string.withUTF8 { utf8 in
            let out = allocate(CChar.self, count: utf8.count + 1)
            if let base = utf8.baseAddress {
                UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: utf8.count)
            }
            out[utf8.count] = 0
            return out
        }
    }

    /// `bytes` as protobuf-c's bytes field: a copy in the arena, or for `borrowThreshold` bytes and
    /// more the array's own storage, held until the arena ends.
    ///
    /// Borrowing relies on a native Swift array (every array on Linux) keeping its elements at one
    /// address while any copy of it is alive, and on copy-on-write: a later change to the caller's
    /// array moves that array to new storage and leaves the held one untouched.
    mutating func bytes(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        guard !bytes.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        if bytes.count >= Self.borrowThreshold {
            borrowed.append(bytes)
            let storage = bytes.withUnsafeBufferPointer { $0.baseAddress! }
            return ProtobufCBinaryData(len: bytes.count, data: UnsafeMutablePointer(mutating: storage))
        }
        let out = allocate(UInt8.self, count: bytes.count)
        bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
        return ProtobufCBinaryData(len: bytes.count, data: out)
    }

    /// An initialised C struct holding `message`'s fields.
    mutating func cStruct<M: CStructConvertible>(_ message: M) -> UnsafeMutablePointer<M.CStruct> {
        let c = allocate(M.CStruct.self, count: 1)
        M.cInit(c)
        message.fill(&c.pointee, &self)
        return c
    }

    /// A message field: its C struct, NULL when absent.
    mutating func message<M: CStructConvertible>(_ message: M?) -> UnsafeMutablePointer<M.CStruct>? {
        guard let message else { return nil }
        return cStruct(message)
    }

    /// A repeated message field: an array of pointers to C structs (NULL when empty).
    mutating func messages<M: CStructConvertible>(_ messages: [M]) -> UnsafeMutablePointer<UnsafeMutablePointer<M.CStruct>?>? {
        guard !messages.isEmpty else { return nil }
        let array = allocate(UnsafeMutablePointer<M.CStruct>?.self, count: messages.count)
        for (index, message) in messages.enumerated() {
            (array + index).initialize(to: cStruct(message))
        }
        return array
    }

    /// A repeated string field: an array of C strings (NULL when empty).
    mutating func strings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !strings.isEmpty else { return nil }
        let array = allocate(UnsafeMutablePointer<CChar>?.self, count: strings.count)
        for (index, string) in strings.enumerated() {
            (array + index).initialize(to: self.string(string))
        }
        return array
    }

    /// A repeated bytes field (NULL when empty).
    mutating func bytesList(_ list: [[UInt8]]) -> UnsafeMutablePointer<ProtobufCBinaryData>? {
        guard !list.isEmpty else { return nil }
        let array = allocate(ProtobufCBinaryData.self, count: list.count)
        for (index, bytes) in list.enumerated() {
            (array + index).initialize(to: self.bytes(bytes))
        }
        return array
    }

    /// A repeated scalar field (integers, floats, bools): a C array (NULL when empty).
    mutating func values<T: BitwiseCopyable>(_ values: [T]) -> UnsafeMutablePointer<T>? {
        guard !values.isEmpty else { return nil }
        let array = allocate(T.self, count: values.count)
        values.withUnsafeBufferPointer { array.initialize(from: $0.baseAddress!, count: $0.count) }
        return array
    }

    /// A repeated enum field, as the C enum's array.
    mutating func enumValues<E: ProtoEnum, C: RawRepresentable>(_ values: [E], as type: C.Type) -> UnsafeMutablePointer<C>?
    where C.RawValue: FixedWidthInteger {
        guard !values.isEmpty else { return nil }
        let array = allocate(C.self, count: values.count)
        for (index, value) in values.enumerated() {
            (array + index).initialize(to: value.cValue())
        }
        return array
    }
}
