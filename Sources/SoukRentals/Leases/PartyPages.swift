import SoukGRPC
import SoukKit
import SoukStore

/// Pages of bookings or bills of one owner: the lessee (the caller when nobody is named), the
/// lessor, or the listing or booking they belong to; one index range under a status
/// (UNSPECIFIED: any), newest (or latest due) first.
enum PartyPages {
    /// A request's owner field, its value, and the index that holds its records.
    struct Owner<Value> {
        let field: String
        let id: String
        let index: Index<Value>
    }

    /// The page `size`/`token` asks for; `owners` starts with the lessee's field.
    static func page<Value>(
        _ table: Table<Value>, owners: [Owner<Value>], status: KeyPart, statusName: String, size: Int32, token: String, call: SoukCall,
        store: Store
    ) throws -> (items: [StoredRecord<Value>], nextPageToken: String) {
        let (marketplaceID, _) = try call.requireMarketplace()
        let named = owners.filter { !$0.id.isEmpty }
        guard named.count <= 1 else {
            throw RPCError.invalidField(owners[0].field, "set at most one of \(owners.map(\.field).joined(separator: ", "))")
        }
        let owner = try named.first ?? Owner(field: owners[0].field, id: call.requireCaller().accountID.description, index: owners[0].index)
        let filters = [owner.field, owner.id, statusName].joined(separator: "|")
        let page = try RequestFields.page(size: size, token: token, filters: filters)
        let range = IndexRange.starting(with: [.string(marketplaceID.description), .string(owner.id), status])
        let result = try store.list(table, owner.index, range, direction: .descending, page: page)
        return (result.items, RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }
}
