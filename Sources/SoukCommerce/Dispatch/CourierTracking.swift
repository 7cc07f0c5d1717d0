import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The live position of the driver of an order, built on the event log: each position a driver
/// with an open delivery reports is the next event of their stream, and a delivery that ends
/// appends an event without a position, which ends its watchers.
struct CourierTracking {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// Average speed of a driver in town, for the arrival estimate (25 km/h).
    static let metersPerSecond = 25_000.0 / 3_600

    /// The event stream of a driver's positions.
    static func stream(_ courierID: RecordID) -> String { "courier-location/\(courierID)" }

    static func append(_ courierID: RecordID, _ event: SoukV1.CourierLocationEvent, transaction: Transaction) throws {
        try transaction.appendEvent(to: stream(courierID), event.encoded())
    }

    /// The latest position newer than `resume_after_sequence` (the current one when it is 0),
    /// then each new one, until the delivery ends.
    func watch(_ request: SoukV1.WatchCourierLocationRequest, _ writer: RPCWriter<SoukV1.CourierLocationEvent>, _ call: SoukCall) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        let orderID = try RequestFields.id(request.orderID, field: "order_id")
        guard request.resumeAfterSequence >= 0 else { throw RPCError.invalidField("resume_after_sequence", "must not be negative") }
        let order = try store.require(OrderTable.table, orderID, in: marketplaceID, "order").value.subject
        guard let deliveryID = order.deliveryID.recordID, let courierID = order.courierAccountID.recordID else {
            throw RPCError.souk(.failedPrecondition, .invalidTransition, "order \(order.orderNumber) has no delivery in progress")
        }
        let stream = Self.stream(courierID)
        let last = try store.lastSequence(of: stream)
        // Read after the stream's end: if the delivery is still in progress here, the event
        // ending it comes after `last`.
        let delivery = try store.require(DeliveryTable.table, deliveryID, in: marketplaceID, "delivery").value.subject
        guard delivery.status == .inProgress else {
            throw RPCError.souk(.failedPrecondition, .invalidTransition, "order \(order.orderNumber) has no delivery in progress")
        }
        let dropoff = order.address?.location.map(GeoPosition.init)
        if request.resumeAfterSequence == 0 || last > UInt64(request.resumeAfterSequence), let courier = try store.get(CourierTable.table, courierID)?.value.status,
           let location = courier.location
        {
            try await writer.write(Self.event(
                SoukV1.CourierLocationEvent(deliveryID: deliveryID.description, courierAccountID: courierID.description, location: location,
                                            locationTime: courier.locationTime),
                sequence: last, dropoff: dropoff))
        }
        for try await stored in store.follow(stream, after: max(last, UInt64(request.resumeAfterSequence))) {
            let event = try SoukV1.CourierLocationEvent(decoding: stored.payload)
            guard event.deliveryID == deliveryID.description else { continue }
            guard event.location != nil else { return }
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
