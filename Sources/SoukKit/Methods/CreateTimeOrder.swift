import SoukGRPC
import SoukStore

/// AIP-132 `order_by` of the lists kept in creation order (ids are version 7 UUIDs, so an index
/// range is in creation order): `create_time desc`, newest first, or `create_time`, oldest first.
public enum CreateTimeOrder {
    /// The scan direction `orderBy` asks for; `default` when it is empty. INVALID_ARGUMENT naming
    /// `field` for any other text.
    public static func direction(_ orderBy: String, default fallback: ScanDirection = .descending, field: String = "order_by") throws
        -> ScanDirection
    {
        let words = orderBy.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        switch words {
        case []: return fallback
        case ["create_time"]: return .ascending
        case ["create_time", "desc"]: return .descending
        default: throw RPCError.invalidField(field, "must be create_time or create_time desc")
        }
    }
}
