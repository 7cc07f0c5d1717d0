import SoukGRPC
import SoukMessages
import SoukStore

/// Pages of a list filtered on any of several statuses (a repeated status filter), read from an
/// owner index that holds each record twice: under UNSPECIFIED ("any status") and under its own
/// status (the indexes of jobs, bookings and bills). No status or one status is one exact range;
/// several read the "any" range and keep the records in one of them, reading at most
/// `readsPerPage` batches for a page, so a page may hold fewer than page_size records (its
/// next_page_token says whether more follow).
public struct StatusPages<Status: ProtoEnum & CaseIterable> {
    /// Most index batches one page reads when several statuses are asked for.
    public static var readsPerPage: Int { 8 }

    /// The statuses asked for, without repeats; empty means any.
    public let statuses: Set<Status>
    /// The field the statuses came from, for the error of a bad one.
    public let field: String

    /// `statuses` of request field `field`; INVALID_ARGUMENT naming it when one is UNSPECIFIED or
    /// not a known value.
    public init(_ statuses: [Status], field: String) throws {
        let unknown = statuses.filter { $0.rawValue == 0 || !Status.allCases.contains($0) }
        guard unknown.isEmpty else { throw RPCError.invalidField(field, "must name known statuses, not \(unknown.map(\.rawValue))") }
        self.statuses = Set(statuses)
        self.field = field
    }

    /// The last key part of the range read: the one status asked for, else UNSPECIFIED (any).
    public var keyPart: KeyPart { .enumCase(statuses.count == 1 ? statuses.first!.rawValue : 0) }

    /// The statuses as a page token's filter stamp part.
    public var stamp: String { statuses.map(\.rawValue).sorted().map(String.init).joined(separator: ",") }

    /// One page of `index` in `range` (which ends with `keyPart`), keeping the records whose
    /// status is asked for.
    public func page<Value>(
        _ table: Table<Value>, _ index: Index<Value>, _ range: IndexRange, direction: ScanDirection, page: PageRequest, store: Store,
        status: (Value) -> Status
    ) throws -> (items: [StoredRecord<Value>], nextPageToken: String?) {
        guard statuses.count > 1 else {
            let result = try store.list(table, index, range, direction: direction, page: page)
            return (result.items, result.nextPageToken)
        }
        var found: [StoredRecord<Value>] = []
        var token = page.token
        var reads = 0
        repeat {
            let batch = try store.list(table, index, range, direction: direction, page: PageRequest(size: page.size - found.count, token: token))
            found += batch.items.filter { statuses.contains(status($0.value)) }
            token = batch.nextPageToken
            reads += 1
        } while token != nil && found.count < page.size && reads < Self.readsPerPage
        return (found, token)
    }
}
