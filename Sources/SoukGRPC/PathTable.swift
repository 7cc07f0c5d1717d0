#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A fixed map from request paths (`/service/method`) to values, built once.
///
/// A `Dictionary` hashes the whole path with SipHash on every call. Here the slot comes from the
/// path's length and its first and last eight bytes, where services and their methods differ, and
/// one `memcmp` confirms the match. Only the table's own paths occupy slots, so no request can
/// lengthen a lookup.
struct PathTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var path: [UInt8]
        var value: Value
    }

    /// Open addressing with linear probing; at most half the slots are used.
    private let slots: [Entry?]

    init(_ entries: [String: Value]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        var slots = [Entry?](repeating: nil, count: capacity)
        for (path, value) in entries {
            let bytes = Array(path.utf8)
            var slot = bytes.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while slots[slot] != nil { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Entry(path: bytes, value: value)
        }
        self.slots = slots
    }

    /// Every value, in no particular order.
    var values: [Value] { slots.compactMap { $0?.value } }

    /// The value registered for exactly this path, or nil.
    subscript(path: String) -> Value? {
        path.utf8.withContiguousStorageIfAvailable { find($0) } ?? nil
    }

    private func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        while let entry = slots[slot] {
            if entry.path.count == bytes.count, bytes.isEmpty
                || entry.path.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.value
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Mixes the length with the first and last (up to) eight bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if raw.count >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
        } else {
            for byte in raw { head = head << 8 | UInt64(byte) }
        }
        let mixed = ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ UInt64(raw.count)) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 29)
    }
}
