import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// Admins' decision on a restaurant account: one transaction moves the restaurant and its
/// owner's pending provider role together (catalog.proto, APPROVAL), so no account is approved
/// without the restaurant it described, and no restaurant outlives a rejected owner unseen.
struct RestaurantApproval {
    let commerce: Commerce
    var store: Store { commerce.store }

    func approve(_ request: SoukV1.ApproveRestaurantRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        try await decide(request.restaurantID, request.expectedVersion, reason: nil, call)
    }

    func reject(_ request: SoukV1.RejectRestaurantRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw RPCError.invalidField("reason", "is required") }
        guard reason.count <= 500 else { throw RPCError.invalidField("reason", "must be at most 500 characters") }
        return try await decide(request.restaurantID, request.expectedVersion, reason: reason, call)
    }

    /// Approves (`reason` nil) or rejects the pending restaurant and its owner's pending provider
    /// role.
    private func decide(_ restaurantID: String, _ expectedVersion: Int64, reason: String?, _ call: SoukCall) async throws
        -> SoukV1.Restaurant
    {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(restaurantID, field: "restaurant_id")
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let actor = AuditActor(call)
        let decider = call.caller?.accountID.description ?? ""
        let approving = reason == nil
        let to: SoukV1.RestaurantApprovalState = approving ? .approved : .rejected
        let record = try await store.write { transaction in
            let current = try transaction.require(RestaurantTable.table, id, in: marketplaceID, "restaurant")
            let restaurant = current.value.subject
            if let expected, expected != current.version {
                throw RPCError.staleVersion("restaurant", id.description, expected: expected, actual: current.version)
            }
            guard restaurant.approvalState == .pending else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, "the restaurant is not awaiting approval",
                    metadata: ["state": restaurant.approvalState.protoName])
            }
            let now = Timestamp(transaction.now)
            try Self.decideOwnerRole(
                of: restaurant, approving: approving, reason: reason ?? "", decider: decider, now: now, actor: actor,
                marketplace: marketplace, transaction: transaction)
            let updated = try transaction.update(RestaurantTable.table, id) { record in
                record.subject.approvalState = to
                record.subject.rejectionReason = reason ?? ""
                record.subject.decidedByAccountID = decider
                record.subject.decideTime = now
            }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .restaurant, id: id.description),
                actor: actor, from: SoukV1.RestaurantApprovalState.pending.protoName, to: to.protoName, reason: reason ?? "",
                resourceVersion: updated.version)
            try Notifier.send(
                [Notifier.Note(
                    to: restaurant.ownerAccountID, kind: .account,
                    approving ? .restaurantApproved(restaurant: restaurant.name, marketplace: marketplace.displayName)
                        : .restaurantRejected(restaurant: restaurant.name, reason: reason ?? ""),
                    subject: SoukV1.ResourceRef(type: .restaurant, id: id.description))],
                marketplaceID: marketplaceID.description, transaction: transaction)
            return updated
        }
        return RestaurantProjection.restaurant(record)
    }

    /// Moves the owner's provider role with the restaurant: a pending role becomes active or
    /// rejected; an active one stays (the restaurant alone is decided). Approval refuses an owner
    /// whose role was rejected or revoked, or who is blocked.
    private static func decideOwnerRole(
        of restaurant: SoukStoreV1.Restaurant, approving: Bool, reason: String, decider: String, now: Timestamp, actor: AuditActor,
        marketplace: SoukV1.Marketplace, transaction: Transaction
    ) throws {
        guard let ownerID = RecordID(restaurant.ownerAccountID), let account = try IdentityRecords.account(ownerID, transaction) else {
            throw RPCError.souk(.failedPrecondition, .ownerNotEligible, "the restaurant's owner account no longer exists")
        }
        let index = account.roles.firstIndex { $0.role == .provider }
        let status = index.map { account.roles[$0].status } ?? .unspecified
        if approving {
            guard account.state == .active else {
                throw RPCError.souk(
                    .failedPrecondition, .ownerNotEligible, "the owner account is \(account.state == .blocked ? "blocked" : "deleted")",
                    metadata: ["state": account.state.protoName])
            }
            guard status == .pending || status == .active else {
                throw RPCError.souk(
                    .failedPrecondition, .ownerNotEligible, "the owner's provider role is \(status.protoName), not pending or active",
                    metadata: ["role_status": status.protoName])
            }
        }
        guard index != nil, status == .pending else { return }
        // The role is identity's: decided through its API, in this transaction.
        try AccountRoles.set(
            .provider, of: ownerID, to: approving ? .active : .rejected, reason: reason, decidedBy: decider, actor: actor,
            auditReason: approving ? "provider role approved with restaurant \(restaurant.name)" : reason,
            notice: (
                subject: approving ? "Your restaurant account at \(marketplace.displayName) was approved"
                    : "Your restaurant account at \(marketplace.displayName) was not approved",
                body: approving ? "An admin approved \(restaurant.name) and your restaurant account."
                    : "An admin did not approve \(restaurant.name): \(reason)"),
            transaction: transaction)
    }

    /// Refuses `Accounts.ApproveRole` / `RejectRole` of the provider role while the account has
    /// a restaurant awaiting approval: the two are decided together here.
    static func register(in hooks: RoleDecisionHooks) {
        hooks.addCheck("restaurant awaiting approval") { subject, transaction in
            guard subject.role == .provider,
                  let restaurant = try transaction.get(
                      RestaurantTable.table, unique: RestaurantTable.byOwner,
                      [.string(subject.marketplaceID.description), .string(subject.accountID.description)]),
                  restaurant.value.subject.approvalState == .pending
            else { return nil }
            let rpc = subject.approving ? "Catalog.ApproveRestaurant" : "Catalog.RejectRestaurant"
            return "the account's restaurant \(restaurant.value.subject.name) (\(restaurant.id)) awaits approval: "
                + "decide the account and the restaurant together with \(rpc)"
        }
    }
}
