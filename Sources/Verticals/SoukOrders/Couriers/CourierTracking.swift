import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The live position of the courier of an order, built on the event log: each position a
/// courier reports while a delivery of theirs is under way is the next event of their stream,
/// and a delivery that ends appends an event naming it without a position, which ends its
/// watchers. A food driver has one open delivery; water staff may carry several orders at once,
/// and every customer of theirs watches the same positions.
package struct CourierTracking {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// Average speed of a courier in town, for the arrival estimate (25 km/h).
    static let metersPerSecond = 25_000.0 / 3_600

    /// The states of a delivery whose courier its order's parties watch.
    static let watched: Set<SoukV1.DeliveryStatus> = [.inProgress, .delayed]

    /// The event stream of a courier's positions.
    static func stream(_ courierID: RecordID) -> String { "courier-location/\(courierID)" }

    package static func append(_ courierID: RecordID, _ event: SoukV1.CourierLocationEvent, transaction: Transaction) throws {
        try transaction.appendEvent(to: stream(courierID), event.encoded())
    }

    /// Ends the watchers of `delivery` (completed or cancelled).
    package static func end(_ delivery: StoredRecord<DeliveryRecord>, transaction: Transaction) throws {
        guard let courierID = delivery.value.subject.courierAccountID.recordID else { return }
        try append(courierID, SoukV1.CourierLocationEvent(deliveryID: delivery.id.description, courierAccountID: courierID.description),
                   transaction: transaction)
    }

    /// Whether the courier's positions are watched now. A food driver's one open delivery is on
    /// their status (an offer past its time is not open any more); water staff have any delivery under way (the index of their deliveries by
    /// status tells).
    static func isUnderWay(_ courier: StoredRecord<CourierRecord>, vertical: SoukV1.Vertical, transaction: Transaction) throws -> Bool {
        if try Couriers.openDelivery(of: courier, transaction: transaction) != nil { return true }
        guard vertical == .waterServices else { return false }
        let prefix: [KeyPart] = [.string(courier.value.marketplaceID), .string(courier.id.description)]
        for status in watched {
            let found = try transaction.list(DeliveryTable.table, DeliveryTable.byCourierStatus, .starting(with: prefix + [.enumCase(status)]), limit: 1)
            if !found.isEmpty { return true }
        }
        return false
    }

    /// The latest position newer than `resume_after_sequence` (the current one when it is 0),
    /// then each new one, until the delivery ends.
    func watch(_ request: SoukV1.WatchCourierLocationRequest, _ writer: RPCWriter<SoukV1.CourierLocationEvent>, _ call: SoukCall) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let orderID = try checks.run { try RequestFields.id(request.orderID, field: "order_id") }
        checks.require(request.resumeAfterSequence >= 0, "resume_after_sequence", "must not be negative")
        try checks.finish()
        let order = try store.require(OrderTable.table, orderID!, in: marketplaceID, "order").value.subject
        let noDelivery = RPCError.souk(
            .failedPrecondition, .noDeliveryInProgress, "order \(order.orderNumber) has no delivery on the way",
            metadata: ["resource_type": "order", "resource_id": orderID!.description])
        guard let deliveryID = order.deliveryID.recordID, let courierID = order.courierAccountID.recordID else { throw noDelivery }
        let stream = Self.stream(courierID)
        let last = try store.lastSequence(of: stream)
        // Read after the stream's end: if the delivery is still under way here, the event
        // ending it comes after `last`.
        let delivery = try store.require(DeliveryTable.table, deliveryID, in: marketplaceID, "delivery").value.subject
        guard Self.watched.contains(delivery.status), delivery.courierAccountID == courierID.description else { throw noDelivery }
        let dropoff = order.address?.location.map(GeoPosition.init)
        let mine = deliveryID.description
        if request.resumeAfterSequence == 0 || last > UInt64(request.resumeAfterSequence), let courier = try store.get(CourierTable.table, courierID)?.value.status,
           let location = courier.location
        {
            try await writer.write(Self.event(
                SoukV1.CourierLocationEvent(deliveryID: mine, courierAccountID: courierID.description, location: location,
                                            locationTime: courier.locationTime),
                sequence: last, dropoff: dropoff))
        }
        for try await stored in store.follow(stream, after: max(last, UInt64(request.resumeAfterSequence))) {
            var event = try SoukV1.CourierLocationEvent(decoding: stored.payload)
            guard event.location != nil else {
                if event.deliveryID == mine { return }
                continue
            }
            // A food driver's positions name their delivery; water staff's name none (all of
            // their deliveries under way are watched).
            guard event.deliveryID.isEmpty || event.deliveryID == mine else { continue }
            event.deliveryID = mine
            try await writer.write(Self.event(event, sequence: stored.sequence, dropoff: dropoff))
        }
    }

    /// `event` with its sequence, and the distance and time left to `dropoff` when known.
    private static func event(_ event: SoukV1.CourierLocationEvent, sequence: UInt64, dropoff: GeoPosition?) -> SoukV1.CourierLocationEvent {
        var event = event
        event.sequence = Int64(sequence)
        if let dropoff, let location = event.location {
            let meters = GeoDistance.meters(GeoPosition(location), dropoff)
            event.remainingDistanceMeters = Int32(min(meters.rounded(), Double(Int32.max)))
            let from = event.locationTime.map(StoreTime.init) ?? StoreTime.now()
            event.estimatedArrivalTime = Timestamp(from.adding(.milliseconds(Int64(meters / metersPerSecond * 1_000))))
        }
        return event
    }
}
