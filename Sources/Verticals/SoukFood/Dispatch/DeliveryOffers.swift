import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// Offers of food orders to drivers. Creating an offer locks the driver's status record and
/// checks availability again under that lock, so of two offers racing for one driver exactly
/// one wins, and a driver holds at most one open delivery. An offer past its time holds neither
/// its order nor its driver any more (`OfferExpiry.swift`), though its timer may not have fired.
struct DeliveryOffers {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// Whom an offer goes to.
    enum Target: Sendable {
        case courier(RecordID)
        case nearest
    }

    /// How far the server looks for the nearest driver (the contract's largest radius).
    static let nearestRadiusMeters = 50_000.0

    func offer(_ request: SoukV1.OfferDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let orderID = try checks.run { try RequestFields.id(request.orderID, field: "order_id") }
        let target = try checks.run { () throws -> Target in
            switch request.courier {
            case .courierAccountID(let text)?: return .courier(try RequestFields.id(text, field: "courier_account_id"))
            case .nearestAvailable(true)?: return .nearest
            default: throw RPCError.invalidField("courier", "set courier_account_id or nearest_available")
            }
        }
        try checks.finish()
        let actor = AuditActor(call, requestID: requestID!)
        let store = self.store
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID!),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Delivery>()
        ) { transaction in
            let order = try Orders.require(orderID!, in: marketplaceID, transaction)
            guard order.value.subject.status == .preparing else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition,
                    "order \(order.value.subject.orderNumber) is \(order.value.subject.status.protoName); only PREPARING orders are offered")
            }
            if let current = order.value.subject.deliveryID.recordID, let delivery = try Deliveries.get(current, transaction),
               Couriers.isOpen(delivery.value.subject, at: transaction.now)
            {
                throw RPCError.souk(
                    .failedPrecondition, .deliveryOpen, "order \(order.value.subject.orderNumber) already has an open delivery \(current)",
                    metadata: ["resource_type": "delivery", "resource_id": current.description])
            }
            let created = try Self.create(for: order, to: target!, marketplace: marketplace, actor: actor, transaction: transaction)
            // A retry reads the delivery by this id (below).
            return created.stamped(SoukV1.Delivery())
        }
        return try FoodDeliveryViews.view(result.value.id, call, store: store)
    }

    /// Offers `order` to `target` in `transaction`: the driver's record is read and locked, its
    /// availability checked again, and it keeps the offer as its open delivery.
    static func create(
        for order: StoredRecord<OrderRecord>, to target: Target, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction
    ) throws -> StoredRecord<DeliveryRecord> {
        let subject = order.value.subject
        let market = order.value.marketplaceID
        let pickup = try Self.pickup(subject)
        let rules = DispatchRules(marketplace)
        let freshSince = rules.freshSince(transaction.now)
        // Drivers who said no to this order, or let its offer lapse, are not picked again.
        let answered = try Deliveries.of(order: order.id, marketplaceID: market, limit: PageRequest.maximumSize, transaction)
        let ended = answered.map { (settled($0.value.subject, at: transaction.now).status, $0.value.subject.courierAccountID) }
        let rejected = Set(ended.filter { $0.0 == .rejected }.map(\.1))
        let lapsed = Set(ended.filter { $0.0 == .expired }.map(\.1))

        /// The driver's record when they may be offered work now, nil otherwise.
        func lockIfAvailable(_ id: RecordID) throws -> StoredRecord<CourierRecord>? {
            guard let record = try Couriers.get(id, in: transaction), record.value.marketplaceID == market,
                  try Couriers.isFree(record, transaction: transaction),
                  let time = record.value.status.locationTime, StoreTime(time).microsecondsSinceEpoch >= freshSince
            else { return nil }
            return record
        }

        let courier: StoredRecord<CourierRecord>
        switch target {
        case .courier(let id):
            try CourierAccounts.require(id, marketplaceID: market, transaction: transaction)
            guard !rejected.contains(id.description) else {
                throw RPCError.souk(.failedPrecondition, .courierDeclinedOrder, "driver \(id) rejected order \(subject.orderNumber)")
            }
            guard let locked = try lockIfAvailable(id) else {
                if let record = try Couriers.get(id, in: transaction), let active = try Couriers.openDelivery(of: record, transaction: transaction) {
                    throw RPCError.souk(.failedPrecondition, .courierBusy, "driver \(id) has delivery \(active) offered or in progress")
                }
                throw RPCError.souk(.failedPrecondition, .courierOffline, "driver \(id) is offline or has sent no recent position")
            }
            courier = locked
        case .nearest:
            guard let found = try nearest(
                to: pickup, in: market, freshSince: freshSince, excluding: rejected.union(lapsed), transaction: transaction, lock: lockIfAvailable)
            else {
                throw RPCError.souk(.failedPrecondition, .noCourierAvailable, "no available driver near order \(subject.orderNumber)")
            }
            courier = found
        }
        let position = courier.value.status.location.map(GeoPosition.init) ?? pickup
        var delivery = SoukStoreV1.Delivery()
        delivery.orderID = order.id.description
        delivery.courierAccountID = courier.id.description
        delivery.status = .offered
        delivery.dropoffAddress = subject.address
        delivery.pickupAddress = subject.pickupAddress
        delivery.deliveryFee = rules.deliveryFee
        delivery.offerDistanceMeters = ShownDistance.meters(GeoDistance.meters(pickup, position))
        delivery.offerExpireTime = Timestamp(transaction.now.adding(rules.offerTimeout))
        delivery.assignedByAccountID = actor.accountID
        if case .nearest = target { delivery.offeredToNearest = true }
        let created = try DeliveryLifecycles.foodDelivery.create(
            DeliveryRecord(marketplaceID: market, delivery), by: actor, transaction: transaction)
        try Couriers.setActiveDelivery(created.id.description, of: courier.id, in: transaction)
        let updated = try Orders.update(order.id, transaction) { $0.subject.deliveryID = created.id.description }
        try OrderLifecycles.foodDelivery.recordChange(updated, by: actor, reason: "delivery offered", transaction: transaction)
        try Notifier.send(
            [Notifier.Note(
                to: courier.id.description, kind: .delivery,
                .deliveryOffer(number: subject.orderNumber, restaurant: subject.restaurantName, meters: Int64(delivery.offerDistanceMeters)),
                subject: SoukV1.ResourceRef(type: .delivery, id: created.id.description),
                // The driver's app shows how long the offer has.
                expires: transaction.now.adding(rules.offerTimeout))],
            marketplaceID: market, transaction: transaction)
        return created
    }

    /// Where a food order is picked up: its restaurant's position, which every restaurant has
    /// (catalog requires it), so a missing one is a fault of the server's data.
    static func pickup(_ order: SoukStoreV1.Order) throws -> GeoPosition {
        guard let point = order.pickupAddress?.location else {
            throw RPCError(.internalError, "order \(order.orderNumber) has no pickup location")
        }
        return GeoPosition(point)
    }

    /// The nearest available driver not in `excluded`, locked by `lock` (which checks again that
    /// the driver is free: another offer may have taken them since the index was read). The
    /// index holds the drivers whose stored record is free: one whose offer is past its time
    /// but not yet expired is found once the offer-lapse timer freed them.
    private static func nearest(
        to center: GeoPosition, in market: String, freshSince: Int64, excluding excluded: Set<String>, transaction: Transaction,
        lock: (RecordID) throws -> StoredRecord<CourierRecord>?
    ) throws -> StoredRecord<CourierRecord>? {
        var token: String?
        repeat {
            let page = try Couriers.nearest(
                GeoQuery(scope: Couriers.scope(market), center: center, radiusMeters: nearestRadiusMeters, minimumStamp: freshSince,
                         limit: PageRequest.defaultSize, pageToken: token), in: transaction)
            for hit in page.hits where !excluded.contains(hit.record.id.description) {
                if let locked = try lock(hit.record.id) { return locked }
            }
            token = page.nextPageToken
        } while token != nil
        return nil
    }
}
