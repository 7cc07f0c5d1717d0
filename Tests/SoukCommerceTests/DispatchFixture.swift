import Foundation
import NIOCore
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukIdentity
@testable import SoukPayments

/// A DineSwift marketplace with two restaurant owners, drivers and a customer, PREPARING food
/// orders written straight to the store (the food checkout places them in production), and the
/// Deliveries calls the dispatch tests make.
struct DispatchFixture {
    let harness: DomainHarness
    let commerce: Commerce
    /// Food delivery, whose offer-lapse timer the tests fire.
    let food: Food
    let marketplace: SoukV1.Marketplace
    let admin: String
    let restaurants: [Person]
    let drivers: [Person]
    let customer: Person

    /// A signed-in account.
    struct Person {
        var token: String
        var id: String
    }

    /// Where the restaurants are (Kuala Lumpur), and the customer's door about 2 km away.
    static let restaurantPoint = SoukV1.GeoPoint(latitude: 3.1390, longitude: 101.6869)
    static let doorPoint = SoukV1.GeoPoint(latitude: 3.1570, longitude: 101.6869)

    init(drivers count: Int = 3, slug: String = "dineswift") async throws {
        var made: [any SoukDomain] = []
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self] + CommerceDomains.types, makeDomains: { identity in
            let payables = PayableTargets()
            made = CommerceDomains.mounting(Commerce(store: identity.store, identity: identity, payables: payables), identity: identity)
            return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + made
        })
        (commerce, food) = (made[0] as! Commerce, made[2] as! Food)
        marketplace = try await harness.marketplace(
            slug: slug, vertical: .foodDelivery, currency: "USD",
            settings: .init(
                commerce: .init(deliveryFee: .init(amountMinor: 299, currencyCode: "USD"), acceptedPaymentMethods: [.cash]),
                delivery: .init(locationReportInterval: .seconds(5), locationStaleAfter: .seconds(60), offerTimeout: .seconds(90))))
        admin = try await harness.adminToken(marketplace, email: "admin@\(slug).example")
        let harness = harness, marketplace = marketplace
        func person(_ role: SoukV1.Role, _ email: String) async throws -> Person {
            let token = try await harness.token(role, in: marketplace, email: email)
            let me: SoukV1.Account = try await harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: token)
            return Person(token: token, id: me.id)
        }
        let owners = [try await person(.provider, "pasta@\(slug).example"), try await person(.provider, "grill@\(slug).example")]
        restaurants = owners
        var drivers: [Person] = []
        for index in 0..<count { drivers.append(try await person(.courier, "driver\(index)@\(slug).example")) }
        self.drivers = drivers
        customer = try await person(.customer, "eater@\(slug).example")
    }

    /// A PREPARING cash order of restaurant `restaurant` (index into `restaurants`), as the food
    /// checkout stores it: its owner as seller, the pickup address with its position.
    func order(restaurant: Int = 0, number: String) async throws -> SoukV1.Order {
        let market = marketplace.id
        let owner = restaurants[restaurant].id
        let customer = customer.id
        let record = try await harness.store.write { transaction -> StoredRecord<OrderRecord> in
            var order = SoukStoreV1.Order()
            order.orderNumber = number
            order.customerAccountID = customer
            order.status = .preparing
            order.restaurantID = "restaurant-\(restaurant)"
            order.restaurantName = restaurant == 0 ? "Pasta Place" : "Grill House"
            order.sellerAccountID = owner
            order.address = SoukV1.Address(
                recipientName: "Eater", phone: "+60123456789", line1: "Jalan Ampang 1", city: "Kuala Lumpur", countryCode: "MY",
                location: Self.doorPoint)
            order.pickupAddress = SoukV1.Address(line1: "Jalan Bukit Bintang 2", city: "Kuala Lumpur", countryCode: "MY", location: Self.restaurantPoint)
            order.paymentMethod = .cash
            order.paymentStatus = .pending
            order.price = SoukV1.PriceBreakdown(total: .init(amountMinor: 2500, currencyCode: "USD"))
            let inserted = try transaction.insert(OrderTable.table, OrderRecord(marketplaceID: market, order))
            var payment = SoukStoreV1.Payment()
            payment.method = .cash
            payment.status = .pending
            payment.amount = .init(amountMinor: 2500, currencyCode: "USD")
            payment.target = SoukV1.ResourceRef(type: .order, id: inserted.id.description)
            payment.payerAccountID = customer
            let paid = try transaction.insert(PaymentTable.table, PaymentRecord(marketplaceID: market, payment))
            return try transaction.update(OrderTable.table, inserted.id) { $0.subject.paymentID = paid.id.description }
        }
        return OrderProjection.order(record, for: .customerOrAdmin)
    }

    /// A point `meters` north of the restaurant.
    static func north(_ meters: Double) -> SoukV1.GeoPoint {
        SoukV1.GeoPoint(latitude: restaurantPoint.latitude + meters / 111_195, longitude: restaurantPoint.longitude)
    }

    func call<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String, as: Response.Type = Response.self) async throws
        -> Response
    {
        try await harness.call("souk.v1.Deliveries", method, request, token: token)
    }

    func error<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String, as: Response.Type) async -> RPCError? {
        await harness.error("souk.v1.Deliveries", method, request, token: token, as: Response.self)
    }

    @discardableResult
    func online(_ driver: Person, at point: SoukV1.GeoPoint) async throws -> SoukV1.CourierStatus {
        try await call("SetCourierAvailability", SoukV1.SetCourierAvailabilityRequest(marketplaceID: marketplace.id, online: true, location: point), token: driver.token)
    }

    func offer(_ order: SoukV1.Order, to driver: Person? = nil, by token: String? = nil, requestID: String = UUID().uuidString) async throws
        -> SoukV1.Delivery
    {
        try await call("OfferDelivery", offerRequest(order, to: driver, requestID: requestID), token: token ?? restaurants[0].token)
    }

    func offerRequest(_ order: SoukV1.Order, to driver: Person?, requestID: String = UUID().uuidString) -> SoukV1.OfferDeliveryRequest {
        SoukV1.OfferDeliveryRequest(
            marketplaceID: marketplace.id, requestID: requestID, orderID: order.id,
            courier: driver.map { .courierAccountID($0.id) } ?? .nearestAvailable(true))
    }

    /// Moves the clock by `duration`, every online driver reporting where they are on the way
    /// (positions go stale sooner than offers lapse).
    func lapse(_ duration: Duration) async throws {
        harness.clock.advance(duration - .seconds(1))
        for driver in drivers {
            guard let status = try harness.store.get(CourierTable.table, RecordID(driver.id)!)?.value.status, status.online else { continue }
            let _: SoukV1.ReportLocationResponse = try await call(
                "UpdateCourierLocation", SoukV1.UpdateCourierLocationRequest(marketplaceID: marketplace.id, location: status.location), token: driver.token)
        }
        harness.clock.advance(.seconds(1))
    }

    func get(_ deliveryID: String, token: String) async throws -> SoukV1.Delivery {
        try await call("GetDelivery", SoukV1.GetDeliveryRequest(marketplaceID: marketplace.id, deliveryID: deliveryID), token: token)
    }

    /// The order `id` as stored.
    func order(_ id: String) throws -> SoukStoreV1.Order {
        guard let record = try harness.store.get(OrderTable.table, RecordID(id)!) else { throw RPCError.notFound("order", id) }
        return record.value.subject
    }

    func ranked(order: SoukV1.Order? = nil, token: String, pageSize: Int32 = 0, pageToken: String = "")
        async throws -> SoukV1.ListAvailableCouriersResponse
    {
        try await call(
            "ListAvailableCouriers",
            SoukV1.ListAvailableCouriersRequest(marketplaceID: marketplace.id, pageSize: pageSize, pageToken: pageToken, orderID: order?.id ?? ""),
            token: token)
    }

    /// Streams `requests` to ReportLocation as `driver`.
    func report(_ requests: [SoukV1.ReportLocationRequest], as driver: Person) async throws -> SoukV1.ReportLocationResponse {
        guard case .clientStreaming(let handler)? = harness.method("souk.v1.Deliveries", "ReportLocation")?.handler else {
            throw RPCError(.unimplemented, "ReportLocation")
        }
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        for request in requests { continuation.yield(ByteBuffer(bytes: request.encoded())) }
        continuation.finish()
        let reply = try await handler(RPCReader(stream), try harness.context("souk.v1.Deliveries", "ReportLocation", token: driver.token))
        return try SoukV1.ReportLocationResponse(decoding: Array(reply.readableBytesView))
    }

    /// WatchCourierLocation's events, each handed to `received` as it is written.
    func watch(_ orderID: String, token: String, resumeAfter: Int64 = 0, received: @escaping @Sendable (SoukV1.CourierLocationEvent) -> Void)
        async throws
    {
        guard case .serverStreaming(let handler)? = harness.method("souk.v1.Deliveries", "WatchCourierLocation")?.handler else {
            throw RPCError(.unimplemented, "WatchCourierLocation")
        }
        let writer = RPCWriter<ByteBuffer> { bytes, _ in received(try SoukV1.CourierLocationEvent(decoding: Array(bytes.readableBytesView))) }
        let request = SoukV1.WatchCourierLocationRequest(marketplaceID: marketplace.id, orderID: orderID, resumeAfterSequence: resumeAfter)
        try await handler(ByteBuffer(bytes: request.encoded()), writer, try harness.context("souk.v1.Deliveries", "WatchCourierLocation", token: token))
    }
}
