import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The account a restaurant or an admin names to carry an order: one refusal per cause, so the
/// app can say what to do (choose another courier, approve the pending role first).
package enum CourierAccounts {
    /// Returns when `id` is an active account of the marketplace holding the active courier
    /// role; NOT_FOUND when it is no account there, FAILED_PRECONDITION otherwise
    /// (COURIER_BLOCKED, COURIER_ROLE_PENDING, NOT_A_COURIER).
    package static func require(_ id: RecordID, marketplaceID: String, transaction: Transaction) throws {
        guard let account = try IdentityRecords.account(id, marketplaceID: marketplaceID, transaction), account.state != .deleted
        else { throw RPCError.notFound("courier", id.description) }
        guard account.state == .active else {
            throw RPCError.souk(
                .failedPrecondition, .courierBlocked, "account \(id) is blocked", metadata: ["state": account.state.protoName])
        }
        let grant = account.roles.first { $0.role == .courier }
        switch grant?.status {
        case .active?:
            return
        case .pending?:
            throw RPCError.souk(.failedPrecondition, .courierRolePending, "the courier role of account \(id) awaits approval")
        default:
            throw RPCError.souk(
                .failedPrecondition, .notACourier, "account \(id) holds no courier role",
                metadata: grant.map { ["role_status": $0.status.protoName] } ?? [:])
        }
    }
}

/// A blocked courier goes offline in `Accounts.BlockAccount`'s own transaction, so out of every
/// ranking; food delivery then withdraws an offer still waiting for their answer (its own hook,
/// registered after this one).
enum BlockedCouriers {
    static func register(in hooks: AccountBlockHooks) {
        hooks.add("courier goes offline") { subject, transaction in
            guard let courier = try transaction.get(CourierTable.table, subject.accountID), courier.value.status.online else { return }
            try transaction.updateMaintainedFields(CourierTable.table, subject.accountID) { $0.status.online = false }
        }
    }
}
