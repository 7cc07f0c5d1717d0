import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The account a restaurant or an admin names to carry an order: one refusal per cause, so the
/// app can say what to do (choose another courier, approve the pending role first).
enum CourierAccounts {
    /// Returns when `id` is an active account of the marketplace holding the active courier
    /// role; NOT_FOUND when it is no account there, FAILED_PRECONDITION otherwise
    /// (COURIER_BLOCKED, COURIER_ROLE_PENDING, NOT_A_COURIER).
    static func require(_ id: RecordID, marketplaceID: String, transaction: Transaction) throws {
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

/// A blocked courier leaves dispatch in `Accounts.BlockAccount`'s own transaction: offline, so
/// out of every ranking, and an offer still waiting for their answer is cancelled (one made to
/// the nearest goes on to the next nearest, as when it lapses). An offer past its time is left
/// to its timer, which expires it. A delivery they accepted stays for an admin to complete or
/// cancel: the food is with them.
enum BlockedCouriers {
    static func register(in hooks: AccountBlockHooks, store: Store) {
        hooks.add("courier goes offline") { subject, transaction in
            try Self.withdraw(subject, store: store, transaction: transaction)
        }
    }

    static func withdraw(_ subject: AccountBlockSubject, store: Store, transaction: Transaction) throws {
        guard let courier = try transaction.get(CourierTable.table, subject.accountID) else { return }
        if courier.value.status.online {
            try transaction.updateMaintainedFields(CourierTable.table, subject.accountID) { $0.status.online = false }
        }
        guard let deliveryID = courier.value.status.activeDeliveryID.recordID, let open = try transaction.get(DeliveryTable.table, deliveryID),
              DeliveryOffers.settled(open.value.subject, at: transaction.now).status == .offered
        else { return }
        let market = open.value.marketplaceID
        let reason = "the driver's account was blocked"
        let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .cancel, on: deliveryID, in: DeliveryTable.table, marketplaceID: market, by: subject.actor, reason: reason,
            transaction: transaction
        ) { $0.subject.note = reason }
        guard let order = try DeliveryOffers.release(delivery, actor: subject.actor, reason: reason, transaction: transaction) else { return }
        let number = order.value.subject.orderNumber
        let body = switch try DeliveryOffers.offerNextNearest(after: delivery, order: order, actor: subject.actor, transaction: transaction) {
        case true?: "The driver can no longer take order \(number); it was offered to the next nearest driver."
        case false?: "The driver can no longer take order \(number) and no other driver is available; offer it again."
        case nil: "The driver can no longer take order \(number); offer it again."
        }
        try Notifier.send(
            [Notifier.Note(to: order.value.subject.sellerAccountID, kind: .order, title: "Offer of order \(number) withdrawn", body: body,
                           subject: SoukV1.ResourceRef(type: .order, id: order.id.description))],
            marketplaceID: market, transaction: transaction)
    }
}
