import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// Who may see and act on an order, and how it is shown to them: declared once for every RPC
/// that reads or moves orders, the shops' and food delivery's included (their API for it).
package enum OrderParties {
    /// In retail and water services the marketplace itself sells, so each of its active providers
    /// (the shop's staff) is a seller of every order; a food order's seller is its restaurant's
    /// owner.
    static func isSeller(_ order: SoukStoreV1.Order, _ caller: Caller) -> Bool {
        order.restaurantID.isEmpty || order.sellerAccountID == caller.accountID.description
    }

    /// Whether `caller`, acting in one of `roles`, owns `order`: its customer, its seller, its
    /// courier.
    static func owns(_ order: SoukStoreV1.Order, _ caller: Caller, roles: Set<SoukV1.Role>) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && order.customerAccountID == me
            || roles.contains(.provider) && isSeller(order, caller)
            || roles.contains(.courier) && !order.courierAccountID.isEmpty && order.courierAccountID == me
    }

    /// The ownership rule of RPCs naming an order by `orderID`: NOT_FOUND for an order of no
    /// marketplace of the call.
    package static func ownership<Request>(_ orderID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            let id = try RequestFields.id(orderID(request), field: "order_id")
            let (marketplaceID, _) = try call.requireMarketplace()
            let order = try store.require(OrderTable.table, id, in: marketplaceID, "order")
            return owns(order.value.subject, caller, roles: roles)
        }
    }

    /// Whether the order still moves (its parties see the address's phone only then).
    package static func isActive(_ status: SoukV1.OrderStatus) -> Bool {
        ![.cancelled, .completed, .received].contains(status)
    }

    /// The order as `call`'s caller sees it: its projection for the caller (`OrderProjection`),
    /// the parties as summaries (OTHER PARTIES) and what the caller may do to it in `lifecycle`
    /// (nothing without one).
    package static func view(
        _ record: StoredRecord<OrderRecord>, _ call: SoukCall, lifecycle: OrderLifecycle?, store: Store
    ) throws -> SoukV1.Order {
        let order = record.value.subject
        let vertical = call.marketplace?.vertical ?? .unspecified
        let transitions = lifecycle?.available(on: order, for: call, parties: [
            .customer: .account(order.customerAccountID), .courier: .account(order.courierAccountID),
            .provider: order.restaurantID.isEmpty ? .anyHolder : .account(order.sellerAccountID),
        ]) ?? []
        let viewer: Parties.AddressViewer
        if let caller = call.caller, caller.isOperator || caller.activeRoles.contains(.admin)
            || caller.accountID.description == order.customerAccountID
        {
            viewer = .customerOrAdmin
        } else if let caller = call.caller,
                  caller.accountID.description == order.courierAccountID
                  || caller.activeRoles.contains(.provider) && isSeller(order, caller)
        {
            viewer = .providerOrCourier
        } else {
            viewer = .other
        }
        var shown = OrderProjection.order(record, for: viewer)
        shown.availableTransitions = transitions
        if !shown.customerAccountID.isEmpty {
            shown.customer = try summary(order.customerAccountID, vertical: vertical, store: store)
        }
        shown.courier = try summary(order.courierAccountID, vertical: vertical, store: store)
        return shown
    }

    /// The summary of an account; nil for none.
    package static func summary(_ accountID: String, vertical: SoukV1.Vertical, store: Store) throws -> SoukV1.PersonSummary? {
        guard let id = RecordID(accountID), var shown = try IdentityRecords.account(id, store) else { return nil }
        try CommerceAccountPart.project(&shown, store)
        return Parties.summary(of: shown, vertical: vertical)
    }
}

/// The notes of an order's changes. (Changes that are not transitions, a reschedule or a
/// delivery assigned, are recorded by the lifecycle: `StateMachine.recordChange`.)
package enum OrderChanges {
    /// The notes of an order change to its customer and its courier (sellers follow their lists).
    package static func notes(_ order: SoukStoreV1.Order, id: RecordID, _ text: NotificationText) -> [Notifier.Note] {
        let subject = SoukV1.ResourceRef(type: .order, id: id.description)
        return [order.customerAccountID, order.courierAccountID].map {
            Notifier.Note(to: $0, kind: .order, text, subject: subject)
        }
    }
}
