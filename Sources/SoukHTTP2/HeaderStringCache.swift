#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Turns received header bytes into Strings, reusing the String made for the same bytes earlier on
/// the connection. HPACK makes requests on one connection repeat their fields (`:path`,
/// `content-type`, `user-agent`, ...), so most long fields cost a compare and a retain instead of an
/// allocation, a copy and a UTF-8 check. One per connection; touched only on its event loop.
struct HeaderStringCache {
    /// Strings up to this many UTF-8 bytes are stored inline in the String: making one is cheap.
    private static let smallStringLimit = 15
    private static let slotCount = 32

    /// Allocated with the first long field, so that a connection that never asks costs nothing.
    private var slots: [String?] = []

    /// The bytes as a String (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.smallStringLimit else { return String(decoding: bytes, as: UTF8.self) }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        let slot = Self.slot(for: bytes)
        if let cached = slots[slot], Self.equal(cached, bytes) {
            return cached
        }
        let string = String(decoding: bytes, as: UTF8.self)
        slots[slot] = string
        return string
    }

    /// A slot from the length and a few bytes: fields with the same bytes always meet in one slot.
    private static func slot(for bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var hash = UInt(truncatingIfNeeded: count) &* 31
        hash = (hash ^ UInt(bytes[0])) &* 31
        hash = (hash ^ UInt(bytes[count / 2])) &* 31
        hash = (hash ^ UInt(bytes[count - 1])) &* 31
        return Int(hash % UInt(slotCount))
    }

    private static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let utf8 = string.utf8
        guard utf8.count == bytes.count else { return false }
        return utf8.withContiguousStorageIfAvailable { stored in
            memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? utf8.elementsEqual(bytes)
    }
}
