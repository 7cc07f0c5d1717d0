import SoukGRPC
import SoukAccess
import SoukKit
import SoukMessages
import SoukStore

/// The writes and reads the three kinds share, each given the kind's `ContentSpec` and how to
/// answer (its projection).
struct ContentItems: Sendable {
    let store: Store

    typealias View<Response> = @Sendable (StoredRecord<ContentRecord>, StoreTime) -> Response

    var now: StoreTime { store.configuration.clock() }

    // MARK: Writes

    /// Stores a new item once per request id; an advertisement's image is attached as uploads are.
    func create<Response: ProtoMessage>(
        _ spec: ContentSpec, _ input: SoukStoreV1.ContentItem?, requestID text: String, request: some ProtoMessage, call: SoukCall,
        view: @escaping View<Response>
    ) async throws -> Response {
        let input = input ?? SoukStoreV1.ContentItem()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(text) }
        spec.check(input, paths: spec.maskPaths, into: &checks)
        try checks.check { try spec.checkWindow(input) }
        try checks.finish()
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var item = SoukStoreV1.ContentItem(kind: spec.kind)
        spec.apply(input, paths: spec.maskPaths, to: &item)
        item.authorAccountID = caller.accountID.description
        let state = ContentStates.state(item, at: now)
        let store = self.store
        let imageID = item.imageMediaID
        let created = item
        return try await store.createOnce(
            ContentTable.table, created, resource: spec.resource, state: state.protoName, request: request, requestID: requestID!, call: call,
            inserted: { record, transaction in
                guard spec.kind == .advertisement, !imageID.isEmpty else { return }
                try MediaReferences.attach(
                    imageID, field: spec.field("image_media_id"), to: Self.imageReferrer(record.id), visibility: .marketplace,
                    marketplaceID: marketplaceID, uploader: nil, imagesOnly: true, in: transaction)
            },
            view: { record in view(record, store.configuration.clock()) })
    }

    /// Changes the fields the mask names, at `expected_version` when given.
    func update<Response: ProtoMessage>(
        _ spec: ContentSpec, id text: String, _ input: SoukStoreV1.ContentItem?, mask: GoogleProtobuf.FieldMask?, expectedVersion: Int64,
        call: SoukCall, view: @escaping View<Response>
    ) async throws -> Response {
        let input = input ?? SoukStoreV1.ContentItem()
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.id(text, field: spec.field("id")) }
        let checkedPaths = try checks.run { try RequestFields.maskPaths(mask, allowed: spec.maskPaths) }
        spec.check(input, paths: Set(checkedPaths ?? []), into: &checks)
        let expected = try checks.run { try RequestFields.expectedVersion(expectedVersion) } ?? nil
        try checks.finish()
        let (id, paths) = (checkedID!, checkedPaths!)
        let (marketplaceID, _) = try call.requireMarketplace()
        let actor = AuditActor(call)
        let pathSet = Set(paths)
        let record = try await store.write { transaction in
            let current = try Self.require(spec, id, in: marketplaceID, expectedVersion: expected, transaction)
            var item = current.value.subject
            spec.apply(input, paths: pathSet, to: &item)
            try spec.checkWindow(item)
            // A changed window is swept again by the expiry sweep if it has passed.
            if pathSet.contains(spec.publishPath) || pathSet.contains(spec.expirePath) { item.expirySwept = false }
            let updated = try transaction.update(ContentTable.table, id) { $0.subject = item }
            if spec.kind == .advertisement, pathSet.contains("image_media_id") {
                try MediaReferences.replace(
                    current.value.subject.imageMediaID, with: item.imageMediaID, field: spec.field("image_media_id"),
                    referrer: Self.imageReferrer(id), visibility: .marketplace, marketplaceID: marketplaceID, uploader: nil, imagesOnly: true,
                    in: transaction)
            }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: spec.resource, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
        return view(record, now)
    }

    /// Archives (withdraws) or restores an item: FAILED_PRECONDITION when it already is.
    func setArchived<Response: ProtoMessage>(
        _ archived: Bool, _ spec: ContentSpec, id text: String, field: String, expectedVersion: Int64, call: SoukCall,
        view: @escaping View<Response>
    ) async throws -> Response {
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.id(text, field: field) }
        let expected = try checks.run { try RequestFields.expectedVersion(expectedVersion) } ?? nil
        try checks.finish()
        let id = checkedID!
        let (marketplaceID, _) = try call.requireMarketplace()
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try Self.require(spec, id, in: marketplaceID, expectedVersion: expected, transaction)
            guard current.value.subject.archived != archived else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, archived ? "the \(spec.noun) is already archived" : "the \(spec.noun) is not archived",
                    metadata: ["state": ContentStates.state(current.value.subject, at: transaction.now).protoName])
            }
            let before = ContentStates.state(current.value.subject, at: transaction.now)
            let updated = try transaction.update(ContentTable.table, id) { record in
                record.subject.archived = archived
                record.subject.archiveTime = archived ? Timestamp(transaction.now) : nil
                // Restored: back in the live index until the sweep sees it expired again.
                if !archived { record.subject.expirySwept = false }
            }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: spec.resource, id: id.description),
                actor: actor, from: before.protoName, to: ContentStates.state(updated.value.subject, at: transaction.now).protoName,
                resourceVersion: updated.version)
            return updated
        }
        return view(record, now)
    }

    /// The item `id` of `spec`'s kind in the marketplace, read and locked, at `expectedVersion`
    /// when given.
    static func require(
        _ spec: ContentSpec, _ id: RecordID, in marketplaceID: RecordID, expectedVersion: UInt64?, _ transaction: Transaction
    ) throws -> StoredRecord<ContentRecord> {
        let current = try transaction.require(ContentTable.table, id, in: marketplaceID, spec.noun)
        guard current.value.subject.kind == spec.kind else { throw RPCError.notFound(spec.noun, id.description) }
        if let expectedVersion, expectedVersion != current.version {
            throw RPCError.staleVersion(spec.noun, id.description, expected: expectedVersion, actual: current.version)
        }
        return current
    }

    static func imageReferrer(_ id: RecordID) -> MediaReferrer {
        MediaReferrer(type: .advertisement, id: id.description, field: "image_media_id")
    }

    // MARK: Reads

    /// One item: admins any of the marketplace, others only one published now for them.
    func get<Response>(_ spec: ContentSpec, id text: String, field: String, call: SoukCall, view: View<Response>) throws -> Response {
        let id = try RequestFields.id(text, field: field)
        let (marketplaceID, _) = try call.requireMarketplace()
        let record = try store.require(ContentTable.table, id, in: marketplaceID, spec.noun)
        let now = self.now
        guard record.value.subject.kind == spec.kind,
              ContentAccess.isAdmin(call) || ContentStates.isVisible(record.value.subject, to: ContentAccess.audience(call), at: now)
        else { throw RPCError.notFound(spec.noun, id.description) }
        return view(record, now)
    }

    /// A list request's common fields.
    struct ListQuery: Sendable {
        var pageSize: Int32
        var pageToken: String
        var states: [SoukV1.ContentState]
        var role: SoukV1.Role
        /// The policy kind or placement asked for ("" for any), as the index files it.
        var narrowing: String
        /// The narrowing's own filter text, for the page token.
        var narrowingFilter: String
    }

    /// A page of a list: what is published now for the caller, or (with states, admins only)
    /// every item in those states.
    func list<Response>(_ spec: ContentSpec, _ query: ListQuery, call: SoukCall, checks: FieldChecks, view: View<Response>) throws
        -> (items: [Response], nextPageToken: String)
    {
        var checks = checks
        let callerRoles = call.caller?.activeRoles ?? []
        for (index, state) in query.states.enumerated() {
            switch state {
            case .unspecified, .unrecognized: checks.add("states[\(index)]", "must be a content state")
            default: break
            }
        }
        switch query.role {
        case .unspecified: break
        case .customer, .provider, .courier, .admin:
            if !query.states.isEmpty {
                checks.add("role", "cannot be combined with states")
            } else if !callerRoles.contains(query.role) {
                checks.add("role", "must be one of the caller's active roles")
            }
        default: checks.add("role", "must be ROLE_CUSTOMER, ROLE_PROVIDER, ROLE_COURIER or ROLE_ADMIN")
        }
        let states = Set(query.states)
        let filters = "kind=\(spec.kind.rawValue);\(query.narrowingFilter);states=\(states.map(\.rawValue).sorted());role=\(query.role.rawValue)"
        let page = try checks.run { try RequestFields.page(size: query.pageSize, token: query.pageToken, filters: filters) }
        try checks.finish()
        let (marketplaceID, _) = try call.requireMarketplace()
        let now = self.now
        if states.isEmpty {
            var audience = ContentAccess.audience(call)
            if query.role != .unspecified { audience = [.unspecified, query.role] }
            let (records, next) = try published(spec, marketplaceID: marketplaceID, narrowing: query.narrowing, audience: audience, page: page!, now: now)
            return (records.map { view($0, now) }, RequestFields.nextPageToken(next, filters: filters))
        }
        guard ContentAccess.isAdmin(call) else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only the marketplace's admins list \(spec.noun)s by state")
        }
        let (records, next) = try byState(spec, marketplaceID: marketplaceID, states: states, narrowing: query.narrowing, page: page!, now: now)
        return (records.map { view($0, now) }, RequestFields.nextPageToken(next, filters: filters))
    }

    /// What is published at `now` for `audience`, newest publish time first: one range read of
    /// the live index per audience key (everyone, then each role), merged. The page token is
    /// the (publish time, id) of the last item returned; each range resumes below it.
    func published(
        _ spec: ContentSpec, marketplaceID: RecordID, narrowing: String, audience: Set<SoukV1.Role>, page: PageRequest, now: StoreTime
    ) throws -> ([StoredRecord<ContentRecord>], String?) {
        let cursor = try page.token.map(PublishedCursor.init(token:))
        let upper = min(now, cursor?.time ?? now)
        var candidates: [RecordID: StoredRecord<ContentRecord>] = [:]
        let wanted = page.size + 1
        for role in audience.sorted(by: { $0.rawValue < $1.rawValue }) {
            let range = IndexRange(
                prefix: [.string(marketplaceID.description), .enumCase(spec.kind), .string(narrowing), .enumCase(role)],
                upper: RangeBound([.time(upper)], inclusive: true))
            var token: String?
            var found = 0
            repeat {
                let part = try store.list(
                    ContentTable.table, ContentTable.live, range, direction: .descending, page: PageRequest(size: min(100, wanted - found + 4), token: token))
                for record in part.items {
                    // An item whose expire time passed stays in the index until the sweep.
                    guard ContentStates.state(record.value.subject, at: now) == .published else { continue }
                    if let cursor, !cursor.isAfter(record) { continue }
                    candidates[record.id] = record
                    found += 1
                }
                token = part.nextPageToken
            } while found < wanted && token != nil
        }
        let sorted = candidates.values.sorted { first, second in
            let (a, b) = (PublishedCursor(of: first), PublishedCursor(of: second))
            return (a.time, a.id) > (b.time, b.id)
        }
        let items = Array(sorted.prefix(page.size))
        let next = sorted.count > page.size ? items.last.map { PublishedCursor(of: $0).token } : nil
        return (items, next)
    }

    /// Every item in one of `states`, newest first: from the lane of the states when they share
    /// one (drafts, archived, or dated), else from all items of the kind; the states and the
    /// narrowing are checked on the page read, so a page may hold fewer than page_size with a
    /// next_page_token.
    func byState(
        _ spec: ContentSpec, marketplaceID: RecordID, states: Set<SoukV1.ContentState>, narrowing: String, page: PageRequest, now: StoreTime
    ) throws -> ([StoredRecord<ContentRecord>], String?) {
        let market = KeyPart.string(marketplaceID.description)
        let kind = KeyPart.enumCase(spec.kind)
        let dated: Set<SoukV1.ContentState> = [.scheduled, .published, .expired]
        let (index, range): (Index<ContentRecord>, IndexRange)
        if states == [.draft] {
            (index, range) = (ContentTable.byLane, .starting(with: [market, kind, .int(ContentTable.Lane.draft.rawValue)]))
        } else if states == [.archived] {
            (index, range) = (ContentTable.byLane, .starting(with: [market, kind, .int(ContentTable.Lane.archived.rawValue)]))
        } else if states == [.scheduled] {
            (index, range) = (
                ContentTable.byLane,
                IndexRange(prefix: [market, kind, .int(ContentTable.Lane.dated.rawValue)], lower: RangeBound([.time(now)], inclusive: false))
            )
        } else if states.isSubset(of: [.published, .expired]) {
            (index, range) = (
                ContentTable.byLane,
                IndexRange(prefix: [market, kind, .int(ContentTable.Lane.dated.rawValue)], upper: RangeBound([.time(now)], inclusive: true))
            )
        } else if states.isSubset(of: dated) {
            (index, range) = (ContentTable.byLane, .starting(with: [market, kind, .int(ContentTable.Lane.dated.rawValue)]))
        } else {
            (index, range) = (ContentTable.byKind, .starting(with: [market, kind]))
        }
        let result = try store.list(ContentTable.table, index, range, direction: .descending, page: page)
        let matching = result.items.filter { record in
            states.contains(ContentStates.state(record.value.subject, at: now))
                && (narrowing.isEmpty || ContentTable.narrowing(record.value.subject) == narrowing)
        }
        return (matching, result.nextPageToken)
    }
}

/// Where a list of published items stopped: the publish time and id of the last item returned
/// (items are listed by publish time, then id, both descending).
struct PublishedCursor: Sendable {
    var time: StoreTime
    var id: RecordID

    init(of record: StoredRecord<ContentRecord>) {
        time = record.value.subject.publishTime.map(StoreTime.init) ?? StoreTime(microsecondsSinceEpoch: 0)
        id = record.id
    }

    init(token: String) throws {
        let parts = token.split(separator: "~")
        guard parts.count == 2, let micros = Int64(parts[0]), let id = RecordID(String(parts[1])) else {
            throw RPCError.invalidField("page_token", "is not a token from a previous page of this list with the same filters")
        }
        time = StoreTime(microsecondsSinceEpoch: micros)
        self.id = id
    }

    var token: String { "\(time.microsecondsSinceEpoch)~\(id)" }

    /// Whether `other` comes after this cursor in the list's order.
    func isAfter(_ other: PublishedCursor) -> Bool {
        (other.time, other.id) < (time, id)
    }

    func isAfter(_ record: StoredRecord<ContentRecord>) -> Bool { isAfter(PublishedCursor(of: record)) }
}
