import Glibc

/// A byte key as a dictionary or set key: hashed in one pass over its bytes and compared with
/// `memcmp`. `[UInt8]`'s own `Hashable` feeds the hasher one byte at a time, which cost about a
/// tenth of a node's CPU on etcd, where every read, condition and copied version goes through one.
public struct ByteKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (left: ByteKey, right: ByteKey) -> Bool {
        left.bytes.count == right.bytes.count && ByteOrder.compare(left.bytes, right.bytes) == 0
    }
}

/// The engines' order of byte keys (unsigned, shorter first on a common prefix), with `memcmp`.
enum ByteOrder {
    /// Negative, zero or positive as `left` sorts before, equal to or after `right`.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                let common = min(l.count, r.count)
                if common > 0 {
                    let order = memcmp(l.baseAddress!, r.baseAddress!, common)
                    if order != 0 { return Int(order) }
                }
                return l.count - r.count
            }
        }
    }

    /// Whether `left` sorts before `right`: `lexicographicallyPrecedes`, without the generic loop.
    static func precedes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        compare(left, right) < 0
    }
}
