import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// One `ListTickets` request as one index range (decision 7): the author's tickets, everyone's
/// by author role, topic and status, or the overdue ones; ordered by `order_by`. A filter on
/// several statuses or topics reads the range of "any" and keeps the records asked for,
/// reading at most `readsPerPage` batches for a page (a page may then hold fewer than
/// page_size tickets; its next_page_token says whether more follow).
struct TicketQuery {
    enum Sort: String {
        case updateTime = "update_time"
        case createTime = "create_time"
        case waitingSince = "waiting_since"
    }

    static let readsPerPage = 8

    let index: Index<TicketRecord>
    let range: IndexRange
    let direction: ScanDirection
    /// Kept from the "any" range when several are asked for.
    let statuses: Set<SoukV1.TicketStatus>
    let topics: Set<SoukV1.TicketTopic>
    /// The filters, which a page token is bound to.
    let stamp: String
    let page: PageRequest

    /// INVALID_ARGUMENT naming every wrong field: unknown statuses, topics or role, a filter
    /// combination the indexes do not serve, an order_by other than those listed.
    init(_ request: SoukV1.ListTicketsRequest, marketplaceID: String, caller: String, staff: Bool, target: Duration, now: StoreTime) throws {
        var checks = FieldChecks()
        for (index, status) in request.statuses.enumerated() where status == .unspecified || !SoukV1.TicketStatus.allCases.contains(status) {
            checks.add("statuses[\(index)]", "must be a known status")
        }
        for (index, topic) in request.topics.enumerated() where topic == .unspecified || !SoukV1.TicketTopic.allCases.contains(topic) {
            checks.add("topics[\(index)]", "must be a known topic")
        }
        let role = request.authorRole
        checks.require(role == .unspecified || SupportService.authorRoles.contains(role), "author_role", "must be customer, provider, courier or admin")
        var author = request.authorAccountID
        if !staff {
            author = caller
        } else if !author.isEmpty {
            try checks.check { _ = try RequestFields.id(author, field: "author_account_id") }
        }
        statuses = Set(request.statuses)
        topics = Set(request.topics)
        let after = request.createdAfter.map(StoreTime.init)
        let before = request.createdBefore.map(StoreTime.init)
        let hasAge = after != nil || before != nil

        // AIP-132: one field, optionally followed by " desc".
        let words = request.orderBy.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var sort: Sort?
        var descending = false
        switch words.count {
        case 0: break
        case 1, 2 where words.count == 1 || words[1] == "desc":
            sort = Sort(rawValue: words[0])
            descending = words.count == 2
            if sort == nil { checks.add("order_by", "must be update_time, create_time or waiting_since, each optionally followed by \" desc\"") }
        default:
            checks.add("order_by", "must be one field optionally followed by \" desc\"")
        }

        let market = KeyPart.string(marketplaceID)
        func slot<E: ProtoEnum>(_ values: Set<E>) -> KeyPart { .enumCase(values.count == 1 ? values.first!.rawValue : 0) }
        var chosenIndex = TicketTable.activity
        var range = IndexRange.starting(with: [market])
        if request.overdue {
            checks.require(staff, "overdue", "only admins list the overdue tickets")
            checks.require(
                request.statuses.isEmpty && request.topics.isEmpty && role == .unspecified && request.authorAccountID.isEmpty && !hasAge,
                "overdue", "takes no other filter")
            if sort != nil && sort != .waitingSince { checks.add("order_by", "must be waiting_since or waiting_since desc with overdue") }
            descending = sort == nil ? false : descending
            chosenIndex = TicketTable.waiting
            // Waiting longer than the target: since before now − target.
            range = .prefix([market], before: [.time(now.adding(.zero - target))])
        } else {
            let order = sort ?? (hasAge ? .createTime : .updateTime)
            if sort == nil { descending = true }
            if order == .waitingSince { checks.add("order_by", "waiting_since orders the overdue list only") }
            if hasAge && order != .createTime {
                checks.add("order_by", "must be create_time or create_time desc with created_after or created_before")
            }
            if !author.isEmpty {
                checks.require(request.topics.isEmpty, "topics", "does not combine with author_account_id (nor for non-admins, whose list is their own)")
                checks.require(role == .unspecified, "author_role", "does not combine with author_account_id (nor for non-admins, whose list is their own)")
                chosenIndex = order == .createTime ? TicketTable.authorCreated : TicketTable.authorActivity
                range = IndexRange(prefix: [market, .string(author), slot(statuses)])
            } else {
                chosenIndex = order == .createTime ? TicketTable.created : TicketTable.activity
                range = IndexRange(prefix: [market, .enumCase(role), slot(topics), slot(statuses)])
            }
            if hasAge {
                range.lower = after.map { RangeBound([.time($0)], inclusive: true) }
                range.upper = before.map { RangeBound([.time($0)], inclusive: false) }
            }
        }
        index = chosenIndex
        self.range = range
        direction = descending ? .descending : .ascending
        let stamp = [
            "a=\(author)", "s=\(statuses.map(\.rawValue).sorted())", "t=\(topics.map(\.rawValue).sorted())", "r=\(role.rawValue)",
            "from=\(after?.microsecondsSinceEpoch ?? -1)", "to=\(before?.microsecondsSinceEpoch ?? -1)", "o=\(chosenIndex.name)",
            "d=\(descending)", "overdue=\(request.overdue)",
        ].joined(separator: "|")
        self.stamp = stamp
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp) }
        try checks.finish()
        self.page = page!
    }

    private func keeps(_ ticket: SoukStoreV1.Ticket) -> Bool {
        (statuses.count <= 1 || statuses.contains(ticket.status)) && (topics.count <= 1 || topics.contains(ticket.topic))
    }

    /// One page, and the store's token for the next.
    func page(_ store: Store) throws -> (items: [StoredRecord<TicketRecord>], nextPageToken: String?) {
        guard statuses.count > 1 || topics.count > 1 else {
            let result = try store.list(TicketTable.table, index, range, direction: direction, page: page)
            return (result.items, result.nextPageToken)
        }
        var found: [StoredRecord<TicketRecord>] = []
        var token = page.token
        var reads = 0
        repeat {
            let batch = try store.list(TicketTable.table, index, range, direction: direction, page: PageRequest(size: page.size - found.count, token: token))
            found += batch.items.filter { keeps($0.value.subject) }
            token = batch.nextPageToken
            reads += 1
        } while token != nil && found.count < page.size && reads < Self.readsPerPage
        return (found, token)
    }
}
