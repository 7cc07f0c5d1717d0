import ExtrasBase64
/// Which entries of an index a list reads: those starting with `prefix`, optionally narrowed by
/// bounds on the fields that follow it.
///
///     // pending jobs in a dorm, oldest first:
///     IndexRange(prefix: [.string(marketplace), .string(dorm), .enumCase(JobStatus.pending)])
///     // orders of a marketplace created in [t0, t1), on an index (marketplace, created):
///     IndexRange.prefix([.string(m)], from: [.time(t0)], before: [.time(t1)])
public struct IndexRange: Sendable, Equatable {
    /// Leading fields the entries must equal.
    public var prefix: [KeyPart]
    /// Lower bound on the fields after the prefix.
    public var lower: RangeBound?
    /// Upper bound on the fields after the prefix.
    public var upper: RangeBound?

    public init(prefix: [KeyPart] = [], lower: RangeBound? = nil, upper: RangeBound? = nil) {
        self.prefix = prefix
        self.lower = lower
        self.upper = upper
    }

    /// Entries starting with `prefix` whose next fields are ≥ `from` (when given) and < `before` (when given).
    public static func prefix(_ prefix: [KeyPart], from: [KeyPart]? = nil, before: [KeyPart]? = nil) -> IndexRange {
        IndexRange(prefix: prefix,
                   lower: from.map { RangeBound($0, inclusive: true) },
                   upper: before.map { RangeBound($0, inclusive: false) })
    }

    /// The `[lower, upper)` byte range within the index `keyPrefix`.
    func bounds(indexPrefix: [UInt8]) -> (base: [UInt8], lower: [UInt8], upper: [UInt8]?) {
        var base = indexPrefix
        prefix.encoded(into: &base)
        var lowerKey = base
        if let lower {
            var key = base
            lower.parts.encoded(into: &key)
            // Exclusive: skip every entry whose following fields start with the bound.
            lowerKey = lower.inclusive ? key : (KeySpace.upperBound(ofPrefix: key) ?? key)
        }
        var upperKey = KeySpace.upperBound(ofPrefix: base)
        if let upper {
            var key = base
            upper.parts.encoded(into: &key)
            // Inclusive: take every entry whose following fields start with the bound.
            upperKey = upper.inclusive ? KeySpace.upperBound(ofPrefix: key) : key
        }
        return (base, lowerKey, upperKey)
    }
}

/// One end of a range: a tuple of fields and whether entries starting with it are included.
public struct RangeBound: Sendable, Equatable {
    public var parts: [KeyPart]
    public var inclusive: Bool

    public init(_ parts: [KeyPart], inclusive: Bool) {
        self.parts = parts
        self.inclusive = inclusive
    }
}

/// The order a list walks an index in.
public enum ScanDirection: Sendable, Equatable {
    case ascending
    case descending
}

/// Which page to read: its size (default 20, at most 100) and the token from the previous page.
public struct PageRequest: Sendable, Equatable {
    public static let defaultSize = 20
    public static let maximumSize = 100

    public var size: Int
    public var token: String?

    /// A size of 0 or less means the default; sizes above 100 are capped at 100.
    public init(size: Int = PageRequest.defaultSize, token: String? = nil) {
        self.size = size <= 0 ? PageRequest.defaultSize : min(size, PageRequest.maximumSize)
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// One page of records and the token for the next page (nil on the last page).
public struct Page<Value> {
    public var items: [StoredRecord<Value>]
    public var nextPageToken: String?
}

extension Page: Sendable where Value: Sendable {}

/// The opaque page token: it carries the last index key returned, never an offset, so a page
/// continues right after that key however many records were added or removed meanwhile.
///
/// Bytes (base64url without padding): format(1) = 1, direction(1), CRC-32C of the index name(4),
/// the last key with the index prefix removed.
enum PageToken {
    static func make(indexName: String, indexPrefix: [UInt8], direction: ScanDirection, lastKey: [UInt8]) -> String {
        var bytes: [UInt8] = [1, direction == .ascending ? 0 : 1]
        let crc = nameChecksum(indexName)
        bytes.append(contentsOf: [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        bytes.append(contentsOf: lastKey[indexPrefix.count...])
        return Base64URL.encode(bytes)
    }

    /// The last key a token carries, checked against the query it is used with.
    static func lastKey(_ token: String, indexName: String, indexPrefix: [UInt8], base: [UInt8],
                        direction: ScanDirection) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(token), bytes.count > 6, bytes[0] == 1,
              bytes[1] == (direction == .ascending ? 0 : 1)
        else { throw StoreError.invalidPageToken }
        let crc = UInt32(bytes[2]) << 24 | UInt32(bytes[3]) << 16 | UInt32(bytes[4]) << 8 | UInt32(bytes[5])
        guard crc == nameChecksum(indexName) else { throw StoreError.invalidPageToken }
        let key = indexPrefix + bytes[6...]
        // The key must lie within the query's prefix: a token from another query is refused.
        guard key.count > base.count, key.starts(with: base) else { throw StoreError.invalidPageToken }
        return key
    }

    private static func nameChecksum(_ name: String) -> UInt32 {
        Array(name.utf8).withUnsafeBytes { CRC32C.checksum($0) }
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), for page tokens.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    static func decode(_ text: String) -> [UInt8]? {
        try? Base64.decode(string: text, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}
