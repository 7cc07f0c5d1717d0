import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// The people half of `souk.v1.Laundry`: dorms (here), the Dasher quiz (`DasherQuiz.swift`) and
/// the Dashers customers see (`Dashers.swift`).
struct LaundryPeople {
    let store: Store

    static let dormMaskPaths: Set<String> = ["name", "campus", "archived"]

    func createDorm(_ request: SoukV1.CreateDormRequest, _ call: SoukCall) async throws -> SoukV1.Dorm {
        let input = request.dorm ?? SoukV1.Dorm()
        var checks = FieldChecks()
        try checks.check { _ = try RequestFields.requestID(request.requestID) }
        Self.check(input, paths: Self.dormMaskPaths, into: &checks)
        try checks.finish()
        let dorm = SoukStoreV1.Dorm(campus: input.campus, name: input.name)
        return try await createOnce(
            DormTable.table, dorm, resource: .dorm, request: request, requestID: request.requestID, call, view: DormProjection.dorm)
    }

    /// Stores `value` once per idempotency key (the caller's `requestID`), with its creation in the
    /// audit log; a retry with the same request gets the first answer, which `view` makes.
    func createOnce<Subject, Response: ProtoMessage>(
        _ table: Table<MarketRecord<Subject>>, _ value: Subject, resource: SoukV1.ResourceType, request: some ProtoMessage,
        requestID: String, _ call: SoukCall, view: @escaping @Sendable (StoredRecord<MarketRecord<Subject>>) -> Response
    ) async throws -> Response {
        try await store.createOnce(
            table, value, resource: resource, state: "CREATED", request: request, requestID: try RequestFields.requestID(requestID),
            call: call, view: view)
    }

    func getDorm(_ request: SoukV1.GetDormRequest, _ call: SoukCall) async throws -> SoukV1.Dorm {
        let (marketplaceID, _) = try call.requireMarketplace()
        return DormProjection.dorm(try Self.dorm(request.dormID, field: "dorm_id", in: marketplaceID.description, store.get))
    }

    func listDorms(_ request: SoukV1.ListDormsRequest, _ call: SoukCall) async throws -> SoukV1.ListDormsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let live = !(request.showArchived && Self.isStaff(call))
        let filters = "live=\(live);campus=\(request.campus)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        var head: [KeyPart] = [.string(marketplaceID.description), .bool(live)]
        if !request.campus.isEmpty { head.append(.string(request.campus)) }
        let result = try store.list(DormTable.table, DormTable.byCampus, .starting(with: head), page: page)
        return SoukV1.ListDormsResponse(
            dorms: result.items.map(DormProjection.dorm), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func updateDorm(_ request: SoukV1.UpdateDormRequest, _ call: SoukCall) async throws -> SoukV1.Dorm {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.dorm ?? SoukV1.Dorm()
        var checks = FieldChecks()
        let dormID = try checks.run { try RequestFields.id(input.id, field: "dorm.id") }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.dormMaskPaths) }
        Self.check(input, paths: Set(maskPaths ?? []), into: &checks)
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (id, paths, expected) = (dormID!, maskPaths!, expectedVersion ?? nil)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        return try await store.write { transaction in
            let current = try Self.dorm(id.description, field: "dorm.id", in: market, transaction.get)
            if let expected, expected != current.version {
                throw RPCError.staleVersion("dorm", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(DormTable.table, id) { record in
                for path in paths {
                    switch path {
                    case "name": record.subject.name = input.name
                    case "campus": record.subject.campus = input.campus
                    default: record.subject.archived = input.archived
                    }
                }
            }
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .dorm, id: id.description), actor: actor,
                reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return DormProjection.dorm(updated)
        }
    }

    /// The dorm `text` names in the marketplace; NOT_FOUND for unknown ids and other
    /// marketplaces' dorms.
    static func dorm(
        _ text: String, field: String, in marketplaceID: String,
        _ get: (Table<DormRecord>, RecordID) throws -> StoredRecord<DormRecord>?
    ) throws -> StoredRecord<DormRecord> {
        let id = try RequestFields.id(text, field: field)
        guard let record = try get(DormTable.table, id), record.value.marketplaceID == marketplaceID else {
            throw RPCError.notFound("dorm", text)
        }
        return record
    }

    /// Records in `checks` what is wrong with the fields `paths` names of `dorm`.
    static func check(_ dorm: SoukV1.Dorm, paths: Set<String>, into checks: inout FieldChecks) {
        if paths.contains("name"), let problem = Self.problem(with: dorm.name) { checks.add("dorm.name", problem) }
        if paths.contains("campus"), let problem = Self.problem(with: dorm.campus) { checks.add("dorm.campus", problem) }
    }

    private static func problem(with text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "must not be empty" }
        if trimmed != text { return "must not start or end with spaces" }
        if text.count > 100 { return "must be at most 100 characters" }
        return nil
    }

    /// Admins and operators see archived records and answers.
    static func isStaff(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin)
    }
}

/// The dorm a laundry profile names: a live dorm of the marketplace, on the profile's campus.
enum Dorms {
    /// Throws INVALID_ARGUMENT naming the profile's field when the dorm is unknown, archived, of
    /// another marketplace or on another campus.
    static func check(_ profile: SoukV1.LaundryProfile, marketplaceID: String, _ transaction: Transaction) throws {
        guard let id = RecordID(profile.dormID), let dorm = try transaction.get(DormTable.table, id),
              dorm.value.marketplaceID == marketplaceID, !dorm.value.subject.archived
        else { throw RPCError.invalidField("laundry_profile.dorm_id", "must name a dorm of this marketplace (Laundry.ListDorms)") }
        guard profile.campus.isEmpty || profile.campus == dorm.value.subject.campus else {
            throw RPCError.invalidField("laundry_profile.campus", "must be the dorm's campus, \(dorm.value.subject.campus)")
        }
    }
}
