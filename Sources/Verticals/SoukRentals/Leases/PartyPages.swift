import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Pages of bookings or bills of one owner: the lessee (the caller when nobody is named), the
/// lessor, or the listing or booking they belong to; one index range under one status or any
/// (several statuses filter that range, `StatusPages`), newest (or latest due) first unless
/// `order_by` asks for the oldest first.
enum PartyPages {
    /// A request's owner field, its value, and the index that holds its records.
    struct Owner<Value> {
        let field: String
        let id: String
        let index: Index<Value>
    }

    /// The page `size`/`token` asks for of `owner`, or of the caller in `lessee` (the lessee's
    /// index) when the request names nobody; every field violation named at once.
    static func page<Value, Status: ProtoEnum & CaseIterable>(
        _ table: Table<Value>, owner named: Owner<Value>?, lessee: Index<Value>, statuses: [Status], status: @escaping (Value) -> Status,
        orderBy: String = "", size: Int32, token: String, call: SoukCall, store: Store
    ) throws -> (items: [StoredRecord<Value>], nextPageToken: String) {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        if let named { checks.require(!named.id.isEmpty, named.field, "must not be empty when set") }
        let filter = try checks.run { try StatusPages(statuses, field: "statuses") }
        let direction = try checks.run { try CreateTimeOrder.direction(orderBy) }
        let owner = try named ?? Owner(field: "lessee_account_id", id: call.requireCaller().accountID.description, index: lessee)
        let filters = [owner.field, owner.id, filter?.stamp ?? "", direction == .ascending ? "asc" : "desc"].joined(separator: "|")
        let page = try checks.run { try RequestFields.page(size: size, token: token, filters: filters) }
        try checks.finish()
        let range = IndexRange.starting(with: [.string(marketplaceID.description), .string(owner.id), filter!.keyPart])
        let result = try filter!.page(table, owner.index, range, direction: direction!, page: page!, store: store, status: status)
        return (result.items, RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }
}
