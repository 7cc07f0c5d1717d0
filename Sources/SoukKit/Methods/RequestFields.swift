import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// Checks of request fields every service shares (identifiers, request ids, versions, pages,
/// field masks), each failing with INVALID_ARGUMENT naming the field.
public enum RequestFields {
    /// A UUID field, for example `account_id`.
    public static func id(_ text: String, field: String) throws -> RecordID {
        guard !text.isEmpty else { throw RPCError.invalidField(field, "is required") }
        guard let id = RecordID(text) else { throw RPCError.invalidField(field, "must be a UUID") }
        return id
    }

    /// An optional UUID field: nil when empty.
    public static func optionalID(_ text: String, field: String) throws -> RecordID? {
        text.isEmpty ? nil : try id(text, field: field)
    }

    /// The idempotency key of a create: required, at most 64 printable ASCII characters.
    public static func requestID(_ text: String, field: String = "request_id") throws -> String {
        guard !text.isEmpty else { throw RPCError.invalidField(field, "is required (an idempotency key, a UUID is recommended)") }
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw RPCError.invalidField(field, "must be at most 64 printable ASCII characters")
        }
        return text
    }

    /// `expected_version`: nil when 0 (no check), the version otherwise.
    public static func expectedVersion(_ value: Int64, field: String = "expected_version") throws -> UInt64? {
        guard value >= 0 else { throw RPCError.invalidField(field, "must not be negative") }
        return value == 0 ? nil : UInt64(value)
    }

    /// The page of a List: size 0 means 20, above 100 means 100, negative is refused. The
    /// token must come from a previous page of the same list with the same `filters` (any
    /// text that names them), otherwise INVALID_ARGUMENT.
    public static func page(size: Int32, token: String, filters: String) throws -> PageRequest {
        var checks = FieldChecks()
        checks.require(size >= 0, "page_size", "must not be negative")
        var storeToken: String?
        if !token.isEmpty {
            if let dot = token.lastIndex(of: "."), token[token.index(after: dot)...] == filterStamp(filters) {
                storeToken = String(token[..<dot])
            } else {
                checks.add("page_token", "is not a token from a previous page of this list with the same filters")
            }
        }
        try checks.finish()
        return PageRequest(size: Int(size), token: storeToken)
    }

    /// The `next_page_token` to send: the store's token bound to the filters ("" on the last page).
    public static func nextPageToken(_ storeToken: String?, filters: String) -> String {
        guard let storeToken else { return "" }
        return "\(storeToken).\(filterStamp(filters))"
    }

    /// A short stamp of the filters (64-bit FNV-1a, hex).
    private static func filterStamp(_ filters: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in filters.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The paths of an update mask, each checked against `allowed`; an empty mask is refused.
    /// Every path that is not allowed is named (one violation each).
    public static func maskPaths(_ mask: GoogleProtobuf.FieldMask?, allowed: Set<String>, field: String = "update_mask") throws -> [String] {
        let paths = mask?.paths ?? []
        guard !paths.isEmpty else { throw RPCError.invalidField(field, "must name the fields to change") }
        var checks = FieldChecks()
        for path in paths where !allowed.contains(path) {
            checks.add(field, "\"\(path)\" cannot be updated here; allowed: \(allowed.sorted().joined(separator: ", "))")
        }
        try checks.finish()
        return paths
    }
}

extension Timestamp {
    /// The instant a store time names.
    public init(_ time: StoreTime) {
        let split = time.microsecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(seconds: split.quotient, nanos: Int32(split.remainder * 1_000))
    }
}

extension StoreTime {
    /// The store time of a timestamp (rounded down to the microsecond). Seconds outside
    /// google.protobuf.Timestamp's range (years 1 to 9999) are clamped to it, so that a hostile
    /// value cannot overflow; such instants then fail the callers' range checks.
    public init(_ timestamp: Timestamp) {
        let seconds = min(max(timestamp.seconds, -62_135_596_800), 253_402_300_799)
        self.init(microsecondsSinceEpoch: seconds * 1_000_000 + Int64(timestamp.nanos / 1_000))
    }
}

extension IndexRange {
    /// The entries whose leading fields equal `parts`.
    public static func starting(with parts: [KeyPart]) -> IndexRange {
        IndexRange(prefix: parts, lower: nil, upper: nil)
    }
}
