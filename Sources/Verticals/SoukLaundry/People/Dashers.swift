import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

extension LaundryProfiles {
    /// A blocked Dasher is offered no more work (they switch on again after an unblock); a
    /// deleted account's laundry profile is erased with its other personal data.
    static func registerHooks(blockHooks: AccountBlockHooks, deletionHooks: AccountDeletionHooks) {
        blockHooks.add("Dasher stops accepting requests") { subject, transaction in
            guard let person = try transaction.get(LaundryPersonTable.table, subject.accountID), person.value.dasher?.acceptingRequests == true
            else { return }
            try transaction.updateMaintainedFields(LaundryPersonTable.table, subject.accountID) { $0.dasher?.acceptingRequests = false }
        }
        deletionHooks.addCleanup("laundry profile erased") { subject, transaction in
            guard try transaction.get(LaundryPersonTable.table, subject.accountID) != nil else { return }
            try transaction.updateMaintainedFields(LaundryPersonTable.table, subject.accountID) { record in
                record.profile = nil
                record.dasher?.acceptingRequests = false
            }
        }
    }
}

extension LaundryPeople {
    func setAcceptingRequests(_ request: SoukV1.SetAcceptingRequestsRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let caller = try LaundryStudents.caller(call, store)
        guard let id = RecordID(caller.id) else { throw RPCError.notFound("account", caller.id) }
        let on = request.acceptingRequests
        return try await store.write { transaction in
            guard let person = try transaction.get(LaundryPersonTable.table, id), person.value.dasher != nil else {
                throw RPCError.souk(.failedPrecondition, .dasherProfileRequired, "the account has no Dasher profile: pass the Dasher quiz first")
            }
            // A switch: a maintained field, so the version a client edits with stays.
            try transaction.updateMaintainedFields(LaundryPersonTable.table, id) { $0.dasher?.acceptingRequests = on }
            guard let account = try LaundryStudents.account(caller.id, transaction) else { throw RPCError.notFound("account", caller.id) }
            return account
        }
    }

    func listAcceptingDashers(
        _ request: SoukV1.ListAcceptingDashersRequest, _ call: SoukCall
    ) async throws -> SoukV1.ListAcceptingDashersResponse {
        let caller = try LaundryStudents.caller(call, store)
        let (marketplaceID, _) = try call.requireMarketplace()
        let ownDorm = LaundryStudents.dorm(caller)
        let dormID = request.dormID.isEmpty ? ownDorm : request.dormID
        var checks = FieldChecks()
        let dormField = dormID.isEmpty ? nil : try checks.run { try RequestFields.id(dormID, field: "dorm_id") }
        let filters = "dorm=\(dormField?.description ?? dormID)"
        let pageField = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        if dormID.isEmpty {
            throw RPCError.souk(.failedPrecondition, .laundryProfileRequired, "account \(caller.id) has no laundry profile with a dorm: name dorm_id")
        }
        let page = pageField!
        let dorm = try Self.dorm(dormID, field: "dorm_id", in: marketplaceID.description, store.get)
        // Only one's own dorm: a customer of another dorm sees this dorm as unknown.
        guard dorm.id.description == ownDorm else { throw RPCError.notFound("dorm", request.dormID) }
        let result = try store.list(
            LaundryPersonTable.table, LaundryPersonTable.acceptingDashers,
            .starting(with: [.string(marketplaceID.description), .string(dorm.id.description)]), page: page)
        // Only active accounts holding the active courier role (a blocked or revoked Dasher is
        // left out, which may shorten the page).
        let dashers = try result.items.filter { $0.id.description != caller.id }.compactMap { record in
            try LaundryStudents.account(record.id, marketplaceID: marketplaceID.description, store)
        }.filter { $0.state == .active && LaundryStudents.isActiveDasher($0) }.map(LaundryStudents.dasherSummary(of:))
        return SoukV1.ListAcceptingDashersResponse(
            dashers: dashers, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }
}
