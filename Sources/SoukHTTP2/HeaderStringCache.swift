#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Turns received header bytes into Strings, reusing the String made for the same bytes earlier on
/// the connection. HPACK makes requests on one connection repeat their fields (`:path`,
/// `content-type`, `user-agent`, ...), so most long fields cost a compare and a retain instead of an
/// allocation, a copy and a UTF-8 check. Short fields are the `wellKnown` literals when they are
/// among them, and new inline Strings otherwise. One per connection; touched only on its event loop.
struct HeaderStringCache {
    /// Strings up to this many UTF-8 bytes are stored inline in the String: making one is cheap.
    private static let smallStringLimit = 15
    private static let slotCount = 32

    /// Allocated with the first long field, so that a connection that never asks costs nothing.
    private var slots: [String?] = []

    /// The bytes as a String (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.smallStringLimit else {
            return Self.wellKnown.string(bytes) ?? String(decoding: bytes, as: UTF8.self)
        }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        let slot = Self.slot(for: bytes)
        if let cached = slots[slot], Self.equal(cached, bytes) {
            return cached
        }
        let string = String(decoding: bytes, as: UTF8.self)
        slots[slot] = string
        return string
    }

    /// Short names and values that nearly every request carries.
    private static let wellKnown = WellKnownStrings([
        ":method", ":scheme", ":path", ":authority", "content-type", "content-length", "te", "user-agent",
        "grpc-timeout", "grpc-encoding", "authorization", "accept-encoding", "POST", "GET", "http", "https", "trailers",
    ])

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

/// A fixed set of short strings (at most 15 UTF-8 bytes), found by their bytes. A match returns the
/// set's own String: comparing two machine words costs less than making a String from the bytes
/// (validating and packing them), and the String then equals the same literal elsewhere (`name ==
/// ":path"`) on the first, bitwise check.
///
/// The entries live in memory of its own rather than in arrays, so that a lookup retains nothing.
/// Never changed after `init`, so it may be shared between threads.
struct WellKnownStrings: ~Copyable, @unchecked Sendable {
    private struct Entry {
        var key: (UInt64, UInt64)
        var string: String
    }
    private static let lengths = 16
    /// The entries, sorted by UTF-8 length.
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// Where the entries of each length start; `starts[length + 1]` is where they end.
    private let starts: UnsafeMutableBufferPointer<Int>

    init(_ strings: [String]) {
        var sorted: [Entry] = []
        for string in strings {
            let bytes = Array(string.utf8)
            precondition(bytes.count < Self.lengths, "well-known string \(string) is too long")
            sorted.append(Entry(key: bytes.withUnsafeBufferPointer { Self.key($0) }, string: string))
        }
        sorted.sort { $0.string.utf8.count < $1.string.utf8.count }
        entries = .allocate(capacity: sorted.count)
        _ = entries.initialize(from: sorted)
        starts = .allocate(capacity: Self.lengths + 1)
        for length in 0 ... Self.lengths {
            starts[length] = sorted.firstIndex { $0.string.utf8.count >= length } ?? sorted.count
        }
    }

    deinit {
        entries.deinitialize().deallocate()
        starts.deallocate()
    }

    /// The set's String with exactly these bytes, or nil.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let length = bytes.count
        guard length < Self.lengths else { return nil }
        let key = Self.key(bytes)
        for index in starts[length] ..< starts[length + 1] where entries[index].key == key {
            return entries[index].string
        }
        return nil
    }

    /// Up to 16 bytes as two words: with the length known, the first and the last (overlapping)
    /// bytes of each size determine them all.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        switch count {
        case 8...:
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        case 4...:
            return (UInt64(raw.loadUnaligned(as: UInt32.self)), UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
        case 2...:
            return (UInt64(raw.loadUnaligned(as: UInt16.self)), UInt64(raw.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)))
        case 1:
            return (UInt64(raw[0]), 0)
        default:
            return (0, 0)
        }
    }
}
