import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

extension LaundryPeople {
    func setAcceptingRequests(_ request: SoukV1.SetAcceptingRequestsRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let caller = try LaundryStudents.callerRecord(call, store)
        let on = request.acceptingRequests
        let record = try await store.write { transaction in
            let current = try transaction.require(AccountTable.table, caller.id)
            guard current.value.account.dasherProfile != nil else {
                throw RPCError.souk(.failedPrecondition, .dasherProfileRequired, "the account has no Dasher profile: pass the Dasher quiz first")
            }
            // A switch: a maintained field, so the version a client edits with stays.
            return try transaction.updateMaintainedFields(AccountTable.table, caller.id) { $0.account.dasherProfile?.acceptingRequests = on }
        }
        return record.apiAccountWithoutSignIn
    }

    func listAcceptingDashers(
        _ request: SoukV1.ListAcceptingDashersRequest, _ call: SoukCall
    ) async throws -> SoukV1.ListAcceptingDashersResponse {
        let caller = try LaundryStudents.callerRecord(call, store)
        let (marketplaceID, _) = try call.requireMarketplace()
        let ownDorm = caller.value.account.laundryProfile?.dormID ?? ""
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
            AccountTable.table, AccountTable.acceptingDashers,
            .starting(with: [.string(marketplaceID.description), .string(dorm.id.description)]), page: page)
        let dashers = result.items.filter { $0.id != caller.id }.map { record in
            var account = record.value.account
            account.id = record.id.description
            return LaundryStudents.dasherSummary(of: account)
        }
        return SoukV1.ListAcceptingDashersResponse(
            dashers: dashers, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }
}
