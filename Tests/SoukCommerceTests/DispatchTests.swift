import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukIdentity
@testable import SoukPayments

/// DineSwift's drivers: availability and positions, ranking, offers and their answers and
/// expiry, the races between them, completion with cash, tracking and privacy.
@Suite struct DispatchTests {
    @Test func availabilityAndPositionsNeverConflictAndOlderPositionsAreDropped() async throws {
        let f = try await DispatchFixture(drivers: 1)
        let driver = f.drivers[0]
        let market = f.marketplace.id
        let offline = await f.error(
            "UpdateCourierLocation", SoukV1.UpdateCourierLocationRequest(marketplaceID: market, location: DispatchFixture.north(10)),
            token: driver.token, as: SoukV1.ReportLocationResponse.self)
        #expect(offline?.soukReason == .courierOffline)
        let noPoint = await f.error(
            "SetCourierAvailability", SoukV1.SetCourierAvailabilityRequest(marketplaceID: market, online: true), token: driver.token,
            as: SoukV1.CourierStatus.self)
        #expect(noPoint?.code == .invalidArgument && noPoint?.fieldViolations.first?.field == "location")
        let badLatitude = await f.error(
            "SetCourierAvailability",
            SoukV1.SetCourierAvailabilityRequest(marketplaceID: market, online: true, location: .init(latitude: 91, longitude: 0)),
            token: driver.token, as: SoukV1.CourierStatus.self)
        #expect(badLatitude?.fieldViolations.first?.field == "location.latitude")
        try await f.online(driver, at: DispatchFixture.north(100))
        let badLongitude = await f.error(
            "UpdateCourierLocation", SoukV1.UpdateCourierLocationRequest(marketplaceID: market, location: .init(latitude: 3, longitude: 181)),
            token: driver.token, as: SoukV1.ReportLocationResponse.self)
        #expect(badLongitude?.fieldViolations.first?.field == "location.longitude")

        // Switches and reports at once: none fails, whatever the other did to the record.
        let now = f.harness.clock.now
        let outcomes = await withTaskGroup(of: RPCError?.self) { group in
            for index in 0..<24 {
                group.addTask {
                    if index % 4 == 0 {
                        return await f.error(
                            "SetCourierAvailability",
                            SoukV1.SetCourierAvailabilityRequest(marketplaceID: market, online: true, location: DispatchFixture.north(200)),
                            token: driver.token, as: SoukV1.CourierStatus.self)
                    }
                    return await f.error(
                        "UpdateCourierLocation",
                        SoukV1.UpdateCourierLocationRequest(
                            marketplaceID: market, location: DispatchFixture.north(Double(300 + index)),
                            locationTime: Timestamp(now.adding(.milliseconds(Int64(index))))),
                        token: driver.token, as: SoukV1.ReportLocationResponse.self)
                }
            }
            var all: [RPCError?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.allSatisfy { $0 == nil })

        // A later fix is kept, an older one dropped and counted.
        f.harness.clock.advance(.seconds(10))
        let later = f.harness.clock.now
        let streamed = try await f.report([
            .init(marketplaceID: market, location: DispatchFixture.north(500), locationTime: Timestamp(later)),
            .init(marketplaceID: market, location: DispatchFixture.north(900), locationTime: Timestamp(later.adding(.seconds(-5)))),
            .init(marketplaceID: market, location: DispatchFixture.north(600), locationTime: Timestamp(later)),
        ], as: driver)
        #expect(streamed.acceptedCount == 2 && streamed.droppedCount == 1)
        let status: SoukV1.CourierStatus = try await f.call(
            "GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: market), token: driver.token)
        #expect(status.online && status.location == DispatchFixture.north(600) && status.locationTime == Timestamp(later))
        let older = try await f.call(
            "UpdateCourierLocation",
            SoukV1.UpdateCourierLocationRequest(marketplaceID: market, location: DispatchFixture.north(700), locationTime: Timestamp(later.adding(.seconds(-1)))),
            token: driver.token, as: SoukV1.ReportLocationResponse.self)
        #expect(older.acceptedCount == 0 && older.droppedCount == 1)
        let byAdmin: SoukV1.CourierStatus = try await f.call(
            "GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: market, courierAccountID: driver.id), token: f.admin)
        #expect(byAdmin.location == DispatchFixture.north(600))
        let byCustomer = await f.error(
            "GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: market, courierAccountID: driver.id), token: f.customer.token,
            as: SoukV1.CourierStatus.self)
        #expect(byCustomer?.code == .permissionDenied)
    }

    @Test func restaurantsSeeAvailableDriversNearestFirstWithDistancesButNotPositions() async throws {
        let f = try await DispatchFixture(drivers: 4)
        let order = try await f.order(number: "DS-1")
        try await f.online(f.drivers[0], at: DispatchFixture.north(3000))
        try await f.online(f.drivers[1], at: DispatchFixture.north(1000))
        try await f.online(f.drivers[2], at: DispatchFixture.north(2000))
        try await f.online(f.drivers[3], at: DispatchFixture.north(20_000))
        let ranked = try await f.ranked(order: order, token: f.restaurants[0].token)
        #expect(ranked.couriers.map(\.courier?.accountID) == [f.drivers[1].id, f.drivers[2].id, f.drivers[0].id])
        #expect(ranked.couriers.map(\.distanceMeters) == [1000, 2000, 3000])
        #expect(ranked.couriers.first?.courier?.displayName == "Test")
        // Pages, and a wider radius around the order's restaurant.
        let first = try await f.ranked(order: order, token: f.admin, pageSize: 2)
        let second = try await f.ranked(order: order, token: f.admin, pageSize: 2, pageToken: first.nextPageToken)
        #expect(first.couriers.count == 2 && second.couriers.map(\.courier?.accountID) == [f.drivers[0].id] && second.nextPageToken.isEmpty)
        let wide: SoukV1.ListAvailableCouriersResponse = try await f.call(
            "ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: f.marketplace.id, orderID: order.id, radiusMeters: 50_000),
            token: f.admin)
        #expect(wide.couriers.count == 4)
        // Another restaurant's order, a driver, bad arguments.
        let foreign = await f.error(
            "ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: f.marketplace.id, orderID: order.id), token: f.restaurants[1].token,
            as: SoukV1.ListAvailableCouriersResponse.self)
        #expect(foreign?.code == .permissionDenied)
        let byDriver = await f.error(
            "ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: f.marketplace.id, orderID: order.id),
            token: f.drivers[0].token, as: SoukV1.ListAvailableCouriersResponse.self)
        #expect(byDriver?.code == .permissionDenied)
        let neither = await f.error(
            "ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: f.marketplace.id), token: f.admin,
            as: SoukV1.ListAvailableCouriersResponse.self)
        #expect(neither?.fieldViolations.first?.field == "order_id")
        let far = await f.error(
            "ListAvailableCouriers",
            SoukV1.ListAvailableCouriersRequest(marketplaceID: f.marketplace.id, orderID: "nope", radiusMeters: 50_001),
            token: f.admin, as: SoukV1.ListAvailableCouriersResponse.self)
        #expect(far?.fieldViolations.map(\.field) == ["order_id", "radius_meters"])
        // Offline, busy and stale drivers are not listed.
        let _: SoukV1.CourierStatus = try await f.call(
            "SetCourierAvailability", SoukV1.SetCourierAvailabilityRequest(marketplaceID: f.marketplace.id, online: false), token: f.drivers[0].token)
        _ = try await f.offer(order, to: f.drivers[1])
        #expect(try await f.ranked(order: order, token: f.admin).couriers.map(\.courier?.accountID) == [f.drivers[2].id])
        f.harness.clock.advance(.seconds(61))
        #expect(try await f.ranked(order: order, token: f.admin).couriers.isEmpty)
        let _: SoukV1.ReportLocationResponse = try await f.call(
            "UpdateCourierLocation", SoukV1.UpdateCourierLocationRequest(marketplaceID: f.marketplace.id, location: DispatchFixture.north(1500)),
            token: f.drivers[2].token)
        #expect(try await f.ranked(order: order, token: f.admin).couriers.map(\.distanceMeters) == [1500])
    }

    @Test func rejectedOfferGoesToTheNextDriverWhoDeliversAndCollectsTheCash() async throws {
        let f = try await DispatchFixture(drivers: 2)
        let market = f.marketplace.id
        let order = try await f.order(number: "DS-2")
        try await f.online(f.drivers[0], at: DispatchFixture.north(500))
        try await f.online(f.drivers[1], at: DispatchFixture.north(1500))
        let first = try await f.offer(order)
        #expect(first.status == .offered && first.courierAccountID == f.drivers[0].id && first.offeredToNearest)
        #expect(first.offerDistanceMeters == 500 && first.deliveryFee == .init(amountMinor: 299, currencyCode: "USD"))
        // The offered driver sees the customer's name and address, not yet the phone.
        let offered = try await f.get(first.id, token: f.drivers[0].token)
        #expect(offered.customer?.displayName == "Test" && offered.dropoffAddress?.line1 == "Jalan Ampang 1" && offered.dropoffAddress?.phone == "")
        #expect(await f.error("GetDelivery", SoukV1.GetDeliveryRequest(marketplaceID: market, deliveryID: first.id), token: f.drivers[1].token,
                              as: SoukV1.Delivery.self)?.code == .permissionDenied)
        let again = await f.error("OfferDelivery", f.offerRequest(order, to: f.drivers[1]), token: f.restaurants[0].token, as: SoukV1.Delivery.self)
        #expect(again?.code == .failedPrecondition)
        let otherRestaurant = await f.error("OfferDelivery", f.offerRequest(order, to: nil), token: f.restaurants[1].token, as: SoukV1.Delivery.self)
        #expect(otherRestaurant?.code == .permissionDenied)

        let rejected: SoukV1.Delivery = try await f.call(
            "RejectDelivery", SoukV1.RejectDeliveryRequest(marketplaceID: market, deliveryID: first.id, reason: "Too far"), token: f.drivers[0].token)
        #expect(rejected.status == .rejected)
        let told: SoukV1.ListNotificationsResponse = try await f.harness.call(
            "souk.v1.Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: market), token: f.restaurants[0].token)
        #expect(told.notifications.contains { $0.title == "Driver declined order DS-2" })
        // Never offered to that driver again for this order.
        let toRejecter = await f.error("OfferDelivery", f.offerRequest(order, to: f.drivers[0]), token: f.restaurants[0].token, as: SoukV1.Delivery.self)
        #expect(toRejecter?.soukReason == .courierDeclinedOrder)
        let second = try await f.offer(order)
        #expect(second.courierAccountID == f.drivers[1].id && second.offerDistanceMeters == 1500)

        let accepted: SoukV1.Delivery = try await f.call(
            "AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: second.id), token: f.drivers[1].token)
        #expect(accepted.status == .inProgress && accepted.dispatchTime != nil && accepted.dropoffAddress?.phone == "+60123456789")
        let out = try f.order(order.id)
        #expect(out.status == .outForDelivery && out.courierAccountID == f.drivers[1].id && out.deliveryID == second.id)
        let busy = await f.error(
            "SetCourierAvailability", SoukV1.SetCourierAvailabilityRequest(marketplaceID: market, online: false), token: f.drivers[1].token,
            as: SoukV1.CourierStatus.self)
        #expect(busy?.code == .failedPrecondition)
        // The first driver never sees this order, nor the second's delivery.
        let orderByFirst = await f.harness.error(
            "souk.v1.Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: market, orderID: order.id), token: f.drivers[0].token, as: SoukV1.Order.self)
        #expect(orderByFirst?.code == .permissionDenied)

        let done: SoukV1.Delivery = try await f.call(
            "CompleteDelivery", SoukV1.CompleteDeliveryRequest(marketplaceID: market, deliveryID: second.id), token: f.drivers[1].token)
        #expect(done.status == .completed && done.completionTime != nil && done.deliveryFee?.amountMinor == 299)
        // Afterwards the driver sees neither the customer nor the address.
        #expect(done.customer == nil && done.dropoffAddress == nil)
        #expect(try await f.get(second.id, token: f.customer.token).dropoffAddress?.phone == "+60123456789")
        let delivered = try f.order(order.id)
        #expect(delivered.status == .delivered && delivered.paymentStatus == .collected)
        let payment = try #require(try f.harness.store.get(PaymentTable.table, RecordID(delivered.paymentID)!))
        #expect(payment.value.subject.status == .collected && payment.value.subject.collectedByAccountID == f.drivers[1].id)
        let free: SoukV1.CourierStatus = try await f.call(
            "GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: market), token: f.drivers[1].token)
        #expect(free.activeDeliveryID.isEmpty && free.online)

        // Lists: a driver their own; a restaurant its order's; not another restaurant's.
        let mine: SoukV1.ListDeliveriesResponse = try await f.call(
            "ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market), token: f.drivers[0].token)
        #expect(mine.deliveries.map(\.id) == [first.id] && mine.deliveries[0].dropoffAddress == nil)
        let ours: SoukV1.ListDeliveriesResponse = try await f.call(
            "ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market, orderID: order.id), token: f.restaurants[0].token)
        #expect(ours.deliveries.map(\.id) == [second.id, first.id])
        #expect(await f.error("ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market, orderID: order.id), token: f.restaurants[1].token,
                              as: SoukV1.ListDeliveriesResponse.self)?.code == .permissionDenied)
        let everything = await f.error("ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market), token: f.restaurants[1].token,
                                       as: SoukV1.ListDeliveriesResponse.self)
        #expect(everything?.fieldViolations.first?.field == "order_id")
        let othersOrder = await f.error(
            "ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market, orderID: order.id), token: f.drivers[0].token,
            as: SoukV1.ListDeliveriesResponse.self)
        #expect(othersOrder?.code == .permissionDenied)
    }

    @Test func unansweredOffersLapseAndTheNearestGoesToTheNextNearest() async throws {
        let f = try await DispatchFixture(drivers: 3)
        let market = f.marketplace.id
        let order = try await f.order(number: "DS-3")
        try await f.online(f.drivers[0], at: DispatchFixture.north(400))
        try await f.online(f.drivers[1], at: DispatchFixture.north(800))
        try await f.online(f.drivers[2], at: DispatchFixture.north(1200))
        let first = try await f.offer(order)
        #expect(first.courierAccountID == f.drivers[0].id)
        try await f.lapse(.seconds(89))
        #expect(try await f.harness.fireDueTimers(f.food) == 0)
        #expect(try await f.get(first.id, token: f.admin).status == .offered)
        // Due: calls see it expired and refuse an answer, and none of them writes it.
        f.harness.clock.advance(.seconds(1))
        #expect(try await f.get(first.id, token: f.admin).status == .expired)
        let late = await f.error("AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: first.id), token: f.drivers[0].token,
                                 as: SoukV1.Delivery.self)
        #expect(late?.soukReason == .offerExpired)
        let driverStatus: SoukV1.CourierStatus = try await f.call(
            "GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: market), token: f.drivers[0].token)
        #expect(driverStatus.activeDeliveryID.isEmpty)
        #expect(try f.harness.store.get(DeliveryTable.table, RecordID(first.id)!)?.value.subject.status == .offered)
        #expect(try f.order(order.id).deliveryID == first.id)
        // The offer-lapse timer expires it and offers the order to the next nearest.
        #expect(try await f.harness.fireDueTimers(f.food) == 1)
        #expect(try f.harness.store.get(DeliveryTable.table, RecordID(first.id)!)?.value.subject.status == .expired)
        let second = try await f.get(try f.order(order.id).deliveryID, token: f.admin)
        #expect(second.courierAccountID == f.drivers[1].id && second.status == .offered && second.offeredToNearest)
        // By the offer-lapse timer: the third driver, though the first is nearer now (they let
        // it lapse, so are not picked).
        try await f.online(f.drivers[0], at: DispatchFixture.north(100))
        try await f.lapse(.seconds(90))
        #expect(try await f.harness.fireDueTimers(f.food) == 1)
        let third = try await f.get(try f.order(order.id).deliveryID, token: f.admin)
        #expect(third.courierAccountID == f.drivers[2].id)
        // Nobody left: the order waits for the restaurant.
        try await f.lapse(.seconds(90))
        #expect(try await f.harness.fireDueTimers(f.food) == 1)
        #expect(try f.order(order.id).deliveryID.isEmpty && f.order(order.id).status == .preparing)
        let none = await f.error("OfferDelivery", f.offerRequest(order, to: nil), token: f.restaurants[0].token, as: SoukV1.Delivery.self)
        #expect(none?.soukReason == .noCourierAvailable)
        // An offer to one driver lapses without going on.
        let direct = try await f.offer(order, to: f.drivers[0])
        try await f.lapse(.seconds(91))
        #expect(try await f.harness.fireDueTimers(f.food) == 1)
        #expect(try f.order(order.id).deliveryID.isEmpty)
        #expect(try await f.get(direct.id, token: f.admin).status == .expired)
    }

    @Test func aNewOfferSupersedesADueOneWhichItsTimerThenOnlyExpires() async throws {
        let f = try await DispatchFixture(drivers: 3)
        let market = f.marketplace.id
        let order = try await f.order(number: "DS-S")
        try await f.online(f.drivers[0], at: DispatchFixture.north(400))
        try await f.online(f.drivers[1], at: DispatchFixture.north(800))
        try await f.online(f.drivers[2], at: DispatchFixture.north(1200))
        let first = try await f.offer(order)
        #expect(first.courierAccountID == f.drivers[0].id)
        try await f.lapse(.seconds(90))
        // Due, not yet expired: it holds neither the order nor its driver. The restaurant offers
        // again (to the next nearest: the first let it lapse); the first driver may go offline.
        let again = try await f.offer(order)
        #expect(again.courierAccountID == f.drivers[1].id)
        let offline: SoukV1.CourierStatus = try await f.call(
            "SetCourierAvailability", SoukV1.SetCourierAvailabilityRequest(marketplaceID: market, online: false), token: f.drivers[0].token)
        #expect(!offline.online && offline.activeDeliveryID.isEmpty)
        let cancel = await f.error(
            "CancelDelivery", SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: first.id, reason: "Too late"), token: f.admin,
            as: SoukV1.Delivery.self)
        #expect(cancel?.code == .failedPrecondition)
        // The timer expires the superseded offer and passes nothing on.
        #expect(try await f.harness.fireDueTimers(f.food) == 1)
        #expect(try f.harness.store.get(DeliveryTable.table, RecordID(first.id)!)?.value.subject.status == .expired)
        #expect(try f.order(order.id).deliveryID == again.id)
        let all: SoukV1.ListDeliveriesResponse = try await f.call(
            "ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: market, orderID: order.id), token: f.admin)
        #expect(all.deliveries.map(\.id).sorted() == [first.id, again.id].sorted())
        #expect(try f.harness.store.get(CourierTable.table, RecordID(f.drivers[1].id)!)?.value.status.activeDeliveryID == again.id)
    }

    @Test func blockingADriverTakesThemOfflineAndPassesTheirOfferOnInTheSameTransaction() async throws {
        let f = try await DispatchFixture(drivers: 2)
        let market = f.marketplace.id
        let order = try await f.order(number: "DS-B")
        try await f.online(f.drivers[0], at: DispatchFixture.north(400))
        try await f.online(f.drivers[1], at: DispatchFixture.north(900))
        let first = try await f.offer(order)
        #expect(first.courierAccountID == f.drivers[0].id)
        let _: SoukV1.Account = try await f.harness.accounts(
            "BlockAccount", SoukV1.BlockAccountRequest(marketplaceID: market, accountID: f.drivers[0].id, reason: "Fraud"), token: f.admin)
        let status = try #require(try f.harness.store.get(CourierTable.table, RecordID(f.drivers[0].id)!)?.value.status)
        #expect(!status.online && status.activeDeliveryID.isEmpty)
        #expect(try await f.get(first.id, token: f.admin).status == .cancelled)
        let next = try await f.get(try f.order(order.id).deliveryID, token: f.admin)
        #expect(next.courierAccountID == f.drivers[1].id && next.status == .offered && next.offeredToNearest)
        // Named again, the blocked driver is refused for what they are.
        let _: SoukV1.Delivery = try await f.call(
            "CancelDelivery", SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: next.id, reason: "Not this one"), token: f.admin)
        let refused = await f.error("OfferDelivery", f.offerRequest(order, to: f.drivers[0]), token: f.restaurants[0].token, as: SoukV1.Delivery.self)
        #expect(refused?.soukReason == .courierBlocked)
    }

    @Test func cancellingAnAcceptedDeliveryTakesTheOrderBackToPreparing() async throws {
        let f = try await DispatchFixture(drivers: 1)
        let market = f.marketplace.id
        let order = try await f.order(number: "DS-4")
        try await f.online(f.drivers[0], at: DispatchFixture.north(300))
        let offer = try await f.offer(order, to: f.drivers[0])
        let _: SoukV1.Delivery = try await f.call(
            "AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: f.drivers[0].token)
        let noReason = await f.error("CancelDelivery", SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: f.drivers[0].token,
                                     as: SoukV1.Delivery.self)
        #expect(noReason?.fieldViolations.first?.field == "reason")
        let cancelled: SoukV1.Delivery = try await f.call(
            "CancelDelivery", SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: offer.id, reason: "Flat tyre"), token: f.drivers[0].token)
        #expect(cancelled.status == .cancelled)
        let back = try f.order(order.id)
        #expect(back.status == .preparing && back.courierAccountID.isEmpty && back.deliveryID.isEmpty)
        #expect(try await f.ranked(order: order, token: f.admin).couriers.count == 1)
        let again = try await f.offer(order, to: f.drivers[0])
        let taken: SoukV1.Delivery = try await f.call(
            "CancelDelivery", SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: again.id, reason: "Changed our mind"), token: f.restaurants[0].token)
        #expect(try taken.status == .cancelled && f.order(order.id).status == .preparing)
    }

    // MARK: Races

    @Test func twoRestaurantsOfferingToOneDriverAtOnceOneWins() async throws {
        let f = try await DispatchFixture(drivers: 1)
        try await f.online(f.drivers[0], at: DispatchFixture.north(300))
        for round in 0..<5 {
            let orders = [try await f.order(restaurant: 0, number: "A-\(round)"), try await f.order(restaurant: 1, number: "B-\(round)")]
            let outcomes = await withTaskGroup(of: RPCError?.self) { group in
                for (index, order) in orders.enumerated() {
                    let request = f.offerRequest(order, to: f.drivers[0])
                    let token = f.restaurants[index].token
                    group.addTask { await f.error("OfferDelivery", request, token: token, as: SoukV1.Delivery.self) }
                }
                var all: [RPCError?] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.compactMap { $0 }.allSatisfy { $0.soukReason == .courierBusy })
            let open: SoukV1.ListDeliveriesResponse = try await f.call(
                "ListDeliveries", SoukV1.ListDeliveriesRequest(marketplaceID: f.marketplace.id, statuses: [.offered]), token: f.drivers[0].token)
            #expect(open.deliveries.count == 1)
            let _: SoukV1.Delivery = try await f.call(
                "RejectDelivery", SoukV1.RejectDeliveryRequest(marketplaceID: f.marketplace.id, deliveryID: open.deliveries[0].id), token: f.drivers[0].token)
        }
    }

    @Test func nearestOffersForDifferentOrdersAtOnceNeverPickTheSameDriver() async throws {
        let f = try await DispatchFixture(drivers: 3)
        for (index, driver) in f.drivers.enumerated() { try await f.online(driver, at: DispatchFixture.north(Double(200 * (index + 1)))) }
        var orders: [SoukV1.Order] = []
        for index in 0..<5 { orders.append(try await f.order(restaurant: index % 2, number: "N-\(index)")) }
        let outcomes = await withTaskGroup(of: Result<SoukV1.Delivery, RPCError>.self) { group in
            for (index, order) in orders.enumerated() {
                let request = f.offerRequest(order, to: nil)
                let token = f.restaurants[index % 2].token
                group.addTask {
                    do { return .success(try await f.call("OfferDelivery", request, token: token)) } catch let error as RPCError { return .failure(error) } catch {
                        return .failure(RPCError(.unknown, "\(error)"))
                    }
                }
            }
            var all: [Result<SoukV1.Delivery, RPCError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let offered = outcomes.compactMap { try? $0.get() }
        #expect(offered.count == 3 && Set(offered.map(\.courierAccountID)).count == 3)
        let refused: [RPCError] = outcomes.compactMap { outcome -> RPCError? in
            if case .failure(let error) = outcome { return error }
            return nil
        }
        #expect(refused.count == 2 && refused.allSatisfy { $0.soukReason == .noCourierAvailable })
    }

    @Test func aDriverAcceptingAtOnceWinsOnceAndAcceptanceRacesCancellation() async throws {
        let f = try await DispatchFixture(drivers: 1)
        let market = f.marketplace.id
        try await f.online(f.drivers[0], at: DispatchFixture.north(300))
        let order = try await f.order(number: "R-1")
        let offer = try await f.offer(order, to: f.drivers[0])
        let accepts = await withTaskGroup(of: RPCError?.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    await f.error("AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: f.drivers[0].token,
                                  as: SoukV1.Delivery.self)
                }
            }
            var all: [RPCError?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(accepts.filter { $0 == nil }.count == 1 && accepts.compactMap { $0 }.allSatisfy { $0.code == .failedPrecondition })
        #expect(try f.order(order.id).status == .outForDelivery)

        let other = try await f.order(number: "R-2")
        let _: SoukV1.Delivery = try await f.call(
            "CompleteDelivery", SoukV1.CompleteDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: f.drivers[0].token)
        let second = try await f.offer(other, to: f.drivers[0])
        let race = await withTaskGroup(of: (String, RPCError?).self) { group in
            group.addTask {
                ("accept", await f.error(
                    "AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: second.id, expectedVersion: second.version),
                    token: f.drivers[0].token, as: SoukV1.Delivery.self))
            }
            group.addTask {
                ("cancel", await f.error(
                    "CancelDelivery",
                    SoukV1.CancelDeliveryRequest(marketplaceID: market, deliveryID: second.id, reason: "Picked up ourselves", expectedVersion: second.version),
                    token: f.restaurants[0].token, as: SoukV1.Delivery.self))
            }
            var all: [(String, RPCError?)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(race.filter { $0.1 == nil }.count == 1)
        let winner = try #require(race.first { $0.1 == nil }?.0)
        #expect(try f.order(other.id).status == (winner == "accept" ? .outForDelivery : .preparing))
    }

    // MARK: Tracking and isolation

    @Test func theCustomerWatchesTheDriverUntilTheDeliveryEnds() async throws {
        let f = try await DispatchFixture(drivers: 1)
        let market = f.marketplace.id
        let driver = f.drivers[0]
        try await f.online(driver, at: DispatchFixture.north(300))
        let order = try await f.order(number: "W-1")
        let offer = try await f.offer(order, to: driver)
        var notYet: RPCError?
        do { try await f.watch(order.id, token: f.customer.token) { _ in } } catch let error as RPCError { notYet = error }
        #expect(notYet?.code == .failedPrecondition)
        let _: SoukV1.Delivery = try await f.call(
            "AcceptDelivery", SoukV1.AcceptDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: driver.token)
        let (events, sink) = AsyncStream<SoukV1.CourierLocationEvent>.makeStream()
        let watcher = Task { try await f.watch(order.id, token: f.customer.token) { sink.yield($0) } }
        var iterator = events.makeAsyncIterator()
        let current = try #require(await iterator.next())
        #expect(current.location == DispatchFixture.north(300) && current.deliveryID == offer.id)
        f.harness.clock.advance(.seconds(5))
        _ = try await f.report([.init(marketplaceID: market, location: DispatchFixture.north(1000), locationTime: Timestamp(f.harness.clock.now))], as: driver)
        let moved = try #require(await iterator.next())
        #expect(moved.location == DispatchFixture.north(1000) && moved.sequence > current.sequence)
        #expect(abs(Int(moved.remainingDistanceMeters) - 1001) <= 2 && moved.estimatedArrivalTime != nil)
        let _: SoukV1.Delivery = try await f.call(
            "CompleteDelivery", SoukV1.CompleteDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: driver.token)
        try await watcher.value
        sink.finish()
        // Another customer, a driver: not theirs to watch.
        let stranger = try await f.harness.token(.customer, in: f.marketplace, email: "stranger@dineswift.example")
        #expect(await f.harness.error(
            "souk.v1.Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: market, orderID: order.id), token: stranger, as: SoukV1.Order.self)?.code
            == .permissionDenied)
        var denied: RPCError?
        do { try await f.watch(order.id, token: stranger) { _ in } } catch let error as RPCError { denied = error }
        #expect(denied?.code == .permissionDenied)
        var ended: RPCError?
        do { try await f.watch(order.id, token: f.customer.token) { _ in } } catch let error as RPCError { ended = error }
        #expect(ended?.code == .failedPrecondition)
    }

    @Test func anotherMarketplacesTokensSeeNothing() async throws {
        let f = try await DispatchFixture(drivers: 1)
        let market = f.marketplace.id
        try await f.online(f.drivers[0], at: DispatchFixture.north(300))
        let order = try await f.order(number: "I-1")
        let offer = try await f.offer(order, to: f.drivers[0])
        let other = try await f.harness.marketplace(slug: "other-food", vertical: .foodDelivery, currency: "USD")
        let outsider = try await f.harness.token(.provider, in: other, email: "owner@other-food.example")
        let outsiderAdmin = try await f.harness.adminToken(other, email: "admin@other-food.example")
        for token in [outsider, outsiderAdmin] {
            #expect(await f.error("GetDelivery", SoukV1.GetDeliveryRequest(marketplaceID: market, deliveryID: offer.id), token: token,
                                  as: SoukV1.Delivery.self)?.code == .permissionDenied)
            #expect(await f.error("ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: market, orderID: order.id),
                                  token: token, as: SoukV1.ListAvailableCouriersResponse.self)?.code == .permissionDenied)
        }
        // Their own marketplace does not know these ids or drivers.
        #expect(await f.error("GetDelivery", SoukV1.GetDeliveryRequest(marketplaceID: other.id, deliveryID: offer.id), token: outsiderAdmin,
                              as: SoukV1.Delivery.self)?.code == .notFound)
        #expect(await f.error("ListAvailableCouriers", SoukV1.ListAvailableCouriersRequest(marketplaceID: other.id, orderID: order.id),
                              token: outsiderAdmin, as: SoukV1.ListAvailableCouriersResponse.self)?.code == .notFound)
        #expect(await f.error("GetCourierStatus", SoukV1.GetCourierStatusRequest(marketplaceID: other.id, courierAccountID: f.drivers[0].id),
                              token: outsiderAdmin, as: SoukV1.CourierStatus.self)?.code == .notFound)
    }
}
