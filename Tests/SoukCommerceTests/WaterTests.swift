import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukIdentity
@testable import SoukPayments
@testable import SoukNotifications

/// Aqua Hub's journey: windows and their capacity, placing, rescheduling, approving, rejecting,
/// staff deliveries, cash, feedback and reminders.
@Suite struct WaterTests {
    let harness: DomainHarness
    let commerce: Commerce

    init() throws {
        var made: Commerce?
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in
            let payables = PayableTargets()
            let commerce = Commerce(store: identity.store, payables: payables)
            made = commerce
            return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(commerce)
        })
        commerce = made!
    }

    /// An Aqua Hub in UTC with five daily windows of `capacity` orders, its staff and catalog.
    struct Shop {
        var marketplace: SoukV1.Marketplace
        var admin: String
        var courier: String
        var courierID: String
        var water: SoukV1.Service
        var cleaning: SoukV1.Service
    }

    func shop(capacity: Int32 = 3) async throws -> Shop {
        let windows = [(480, 600), (600, 720), (720, 840), (960, 1080), (1080, 1200)].map { SoukV1.DailyWindow(startMinute: Int32($0.0), endMinute: Int32($0.1)) }
        let marketplace = try await harness.marketplace(
            slug: "aqua-hub", vertical: .waterServices, currency: "SAR",
            settings: .init(commerce: .init(acceptedPaymentMethods: [.applePay, .cash], serviceWindows: windows, windowCapacity: capacity)))
        let admin = try await harness.adminToken(marketplace, email: "admin@aquahub.example")
        let courier = try await harness.token(.courier, in: marketplace)
        let me: SoukV1.Account = try await harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: courier)
        var water = SoukV1.Service()
        water.name = "Safi Water"
        water.type = .delivery
        water.available = true
        water.basePrice = .init(amountMinor: 300, currencyCode: "SAR")
        water.options = [.init(name: "1 bottle", price: .init(amountMinor: 300, currencyCode: "SAR"), available: true),
                         .init(name: "12-pack", price: .init(amountMinor: 2500, currencyCode: "SAR"), available: true,
                               translations: [.init(languageCode: "ar", name: "كرتون")])]
        water.translations = [.init(languageCode: "ar", name: "مياه صافي", description: "مياه")]
        var cleaning = SoukV1.Service()
        cleaning.name = "Tank Cleaning"
        cleaning.type = .cleaning
        cleaning.available = true
        cleaning.basePrice = .init(amountMinor: 5000, currencyCode: "SAR")
        let createdWater: SoukV1.Service = try await harness.call(
            "souk.v1.Catalog", "CreateService", SoukV1.CreateServiceRequest(marketplaceID: marketplace.id, requestID: "s1", service: water), token: admin)
        let createdCleaning: SoukV1.Service = try await harness.call(
            "souk.v1.Catalog", "CreateService", SoukV1.CreateServiceRequest(marketplaceID: marketplace.id, requestID: "s2", service: cleaning), token: admin)
        return Shop(marketplace: marketplace, admin: admin, courier: courier, courierID: me.id, water: createdWater, cleaning: createdCleaning)
    }

    /// Tomorrow's window starting at `minute` (UTC marketplace).
    func window(_ minute: Int, _ length: Int = 120, days: Int = 1) -> SoukV1.TimeWindow {
        let today = harness.clock.now.civilDate
        let clock = MarketplaceClock(timeZone: "UTC")
        let date = CivilDate(daysSinceEpoch: today.daysSinceEpoch + days)
        return .init(startTime: Timestamp(clock.instant(date, minute: minute)), endTime: Timestamp(clock.instant(date, minute: minute + length)))
    }

    func place(_ shop: Shop, _ token: String, service: SoukV1.Service? = nil, window: SoukV1.TimeWindow, requestID: String,
               payment: SoukV1.PaymentMethodInput.Method = .cash(.init())) async throws -> SoukV1.Order {
        let service = service ?? shop.water
        return try await harness.call("souk.v1.Orders", "PlaceServiceOrder", request(shop, service: service, window: window, requestID: requestID, payment: payment), token: token)
    }

    func request(_ shop: Shop, service: SoukV1.Service, window: SoukV1.TimeWindow, requestID: String,
                 payment: SoukV1.PaymentMethodInput.Method = .cash(.init())) -> SoukV1.PlaceServiceOrderRequest {
        SoukV1.PlaceServiceOrderRequest(
            marketplaceID: shop.marketplace.id, requestID: requestID, serviceID: service.id, option: service.options.last.map { .optionID($0.id) }, quantity: 2,
            scheduledWindow: window, address: .init(choice: .address(.init(line1: "King Fahd Road 12", city: "Arar", countryCode: "SA"))),
            payment: .init(method: payment))
    }

    func windows(_ shop: Shop, days: Int = 1, token: String) async throws -> [SoukV1.ServiceWindow] {
        let date = CivilDate(daysSinceEpoch: harness.clock.now.civilDate.daysSinceEpoch + days)
        let response: SoukV1.ListServiceWindowsResponse = try await harness.call(
            "souk.v1.Orders", "ListServiceWindows",
            SoukV1.ListServiceWindowsRequest(marketplaceID: shop.marketplace.id, date: .init(year: Int32(date.year), month: Int32(date.month), day: Int32(date.day))),
            token: token)
        return response.windows
    }

    @Test func windowsTakeTheirCapacityAndPricesAreComputed() async throws {
        let shop = try await shop(capacity: 2)
        let customer = try await harness.token(.customer, in: shop.marketplace)
        // The clock stands at 08:00 UTC: today's first window has started.
        #expect(try await windows(shop, days: 0, token: customer).count == 4)
        #expect(try await windows(shop, token: customer).map(\.booked) == [0, 0, 0, 0, 0])
        let first = try await place(shop, customer, window: window(480), requestID: "o1")
        #expect(first.status == .approved && first.price?.total == .init(amountMinor: 5000, currencyCode: "SAR"))
        #expect(first.lines.first?.optionName == "12-pack" && first.paymentStatus == .pending && first.orderNumber == "TAH-10001")
        let again = try await place(shop, customer, window: window(480), requestID: "o1")
        #expect(again.id == first.id)
        _ = try await place(shop, customer, window: window(480), requestID: "o2")
        let full = await harness.error("souk.v1.Orders", "PlaceServiceOrder", request(shop, service: shop.water, window: window(480), requestID: "o3"),
                                       token: customer, as: SoukV1.Order.self)
        #expect(full?.code == .failedPrecondition && full?.soukReason == .windowFull)
        let listed = try await windows(shop, token: customer)
        #expect(listed.first?.booked == 2 && listed.first?.available == false && listed[1].available)
        let offGrid = await harness.error("souk.v1.Orders", "PlaceServiceOrder", request(shop, service: shop.water, window: window(490), requestID: "o4"),
                                          token: customer, as: SoukV1.Order.self)
        #expect(offGrid?.code == .invalidArgument)
        var noQuantity = request(shop, service: shop.water, window: window(600), requestID: "o5")
        noQuantity.quantity = 0
        #expect(await harness.error("souk.v1.Orders", "PlaceServiceOrder", noQuantity, token: customer, as: SoukV1.Order.self)?.code == .invalidArgument)
        let declined = await harness.error(
            "souk.v1.Orders", "PlaceServiceOrder", request(shop, service: shop.water, window: window(600), requestID: "o6", payment: .applePayToken("applepay_decline_1234")),
            token: customer, as: SoukV1.Order.self)
        #expect(declined?.soukReason == .paymentDeclined)
        #expect(try await windows(shop, token: customer)[1].booked == 0)
    }

    @Test func timesBeyondTheTimestampRangeAreRefusedNotOverflowed() async throws {
        let shop = try await shop()
        let customer = try await harness.token(.customer, in: shop.marketplace)
        for seconds in [Int64.max, Int64.min, 9_000_000_000_000_000] {
            let far = SoukV1.TimeWindow(startTime: Timestamp(seconds: seconds, nanos: 0), endTime: Timestamp(seconds: seconds, nanos: 999_999_999))
            let refused = await harness.error(
                "souk.v1.Orders", "PlaceServiceOrder", request(shop, service: shop.water, window: far, requestID: "far-\(seconds)"),
                token: customer, as: SoukV1.Order.self)
            #expect(refused?.code == .invalidArgument && refused?.fieldViolations.first?.field == "scheduled_window")
            let history = await harness.error(
                "souk.v1.Orders", "ListOrders",
                SoukV1.ListOrdersRequest(marketplaceID: shop.marketplace.id, deliveredAfter: Timestamp(seconds: seconds, nanos: 0)),
                token: customer, as: SoukV1.ListOrdersResponse.self)
            #expect(history == nil)
        }
    }

    @Test func concurrentCustomersRaceForTheLastPlaceAndOneWins() async throws {
        let shop = try await shop(capacity: 3)
        var tokens: [String] = []
        for index in 0..<10 { tokens.append(try await harness.token(.customer, in: shop.marketplace, email: "c\(index)@aquahub.example")) }
        _ = try await place(shop, tokens[0], window: window(600), requestID: "a")
        _ = try await place(shop, tokens[1], window: window(600), requestID: "b")
        let harness = self.harness
        let outcomes = await withTaskGroup(of: RPCError?.self) { group in
            for index in 2..<10 {
                let request = self.request(shop, service: shop.water, window: window(600), requestID: "race-\(index)")
                let token = tokens[index]
                group.addTask { await harness.error("souk.v1.Orders", "PlaceServiceOrder", request, token: token, as: SoukV1.Order.self) }
            }
            var all: [RPCError?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0 }.allSatisfy { $0.soukReason == .windowFull })
        #expect(try await windows(shop, token: shop.admin)[1].booked == 3)
    }

    @Test func rescheduleMovesThePlaceAndRejectRefunds() async throws {
        let shop = try await shop(capacity: 1)
        let customer = try await harness.token(.customer, in: shop.marketplace)
        let order = try await place(shop, customer, service: shop.cleaning, window: window(480), requestID: "c1", payment: .applePayToken("applepay_ok_12345678"))
        #expect(order.status == .pending && order.paymentStatus == .successful)
        let moved: SoukV1.Order = try await harness.call(
            "souk.v1.Orders", "RescheduleOrder",
            SoukV1.RescheduleOrderRequest(marketplaceID: shop.marketplace.id, orderID: order.id, scheduledWindow: window(720), expectedVersion: order.version),
            token: customer)
        #expect(moved.scheduledWindow == window(720))
        #expect(try await windows(shop, token: customer).map(\.booked) == [0, 0, 1, 0, 0])
        let emptyReason = await harness.error(
            "souk.v1.Orders", "RejectOrder", SoukV1.RejectOrderRequest(marketplaceID: shop.marketplace.id, orderID: order.id), token: shop.admin,
            as: SoukV1.Order.self)
        #expect(emptyReason?.code == .invalidArgument)
        let rejected: SoukV1.Order = try await harness.call(
            "souk.v1.Orders", "RejectOrder",
            SoukV1.RejectOrderRequest(marketplaceID: shop.marketplace.id, orderID: order.id, reason: "No crew that day"), token: shop.admin)
        #expect(rejected.status == .cancelled && rejected.cancellation?.rejected == true && rejected.cancellation?.reason == "No crew that day")
        #expect(rejected.paymentStatus == .refunded)
        #expect(try await windows(shop, token: customer).map(\.booked) == [0, 0, 0, 0, 0])
        let payment = try #require(try harness.store.get(PaymentTable.table, RecordID(order.paymentID)!))
        #expect(payment.value.subject.refundedAmount?.amountMinor == 10000)
    }

    @Test func completingTheDeliveryCompletesTheOrderAndCollectsCashThenFeedbackAverages() async throws {
        let shop = try await shop()
        let customer = try await harness.token(.customer, in: shop.marketplace)
        let cleaning = try await place(shop, customer, service: shop.cleaning, window: window(600), requestID: "c1")
        let notApproved = await harness.error(
            "souk.v1.Deliveries", "AssignDelivery",
            SoukV1.AssignDeliveryRequest(marketplaceID: shop.marketplace.id, requestID: "d0", orderID: cleaning.id, courierAccountID: shop.courierID),
            token: shop.admin, as: SoukV1.Delivery.self)
        #expect(notApproved?.code == .failedPrecondition)
        let _: SoukV1.Order = try await harness.call(
            "souk.v1.Orders", "ApproveOrder", SoukV1.ApproveOrderRequest(marketplaceID: shop.marketplace.id, orderID: cleaning.id), token: shop.admin)
        var ratings: [Int32] = []
        for (index, order) in [cleaning, try await place(shop, customer, window: window(720), requestID: "w1")].enumerated() {
            let delivery: SoukV1.Delivery = try await harness.call(
                "souk.v1.Deliveries", "AssignDelivery",
                SoukV1.AssignDeliveryRequest(marketplaceID: shop.marketplace.id, requestID: "d\(index)", orderID: order.id, courierAccountID: shop.courierID),
                token: shop.admin)
            #expect(delivery.status == .assigned)
            let early = await harness.error(
                "souk.v1.Feedback", "CreateFeedback",
                SoukV1.CreateFeedbackRequest(marketplaceID: shop.marketplace.id, requestID: "early\(index)", subject: .orderID(order.id), stars: 5),
                token: customer, as: SoukV1.FeedbackEntry.self)
            #expect(early?.soukReason == .notRatable)
            let started: SoukV1.Delivery = try await harness.call(
                "souk.v1.Deliveries", "StartDelivery", SoukV1.StartDeliveryRequest(marketplaceID: shop.marketplace.id, deliveryID: delivery.id), token: shop.courier)
            #expect(started.status == .inProgress && started.dispatchTime != nil)
            let done: SoukV1.Delivery = try await harness.call(
                "souk.v1.Deliveries", "CompleteDelivery", SoukV1.CompleteDeliveryRequest(marketplaceID: shop.marketplace.id, deliveryID: delivery.id),
                token: shop.courier)
            #expect(done.status == .completed && done.completionTime != nil)
            let stored = try #require(try harness.store.get(OrderTable.table, RecordID(order.id)!)).value.subject
            #expect(stored.status == .completed && stored.paymentStatus == .collected)
            let payment = try #require(try harness.store.get(PaymentTable.table, RecordID(order.paymentID)!)).value.subject
            #expect(payment.status == .collected && payment.collectedByAccountID == shop.courierID)
            let stars: Int32 = index == 0 ? 5 : 4
            let entry: SoukV1.FeedbackEntry = try await harness.call(
                "souk.v1.Feedback", "CreateFeedback",
                SoukV1.CreateFeedbackRequest(marketplaceID: shop.marketplace.id, requestID: "f\(index)", subject: .orderID(order.id), stars: stars, comment: "Great"),
                token: customer)
            #expect(entry.ratedAccountID == shop.courierID)
            let twice = await harness.error(
                "souk.v1.Feedback", "CreateFeedback",
                SoukV1.CreateFeedbackRequest(marketplaceID: shop.marketplace.id, requestID: "g\(index)", subject: .orderID(order.id), stars: 1),
                token: customer, as: SoukV1.FeedbackEntry.self)
            #expect(twice?.code == .alreadyExists && twice?.soukReason == .alreadyRated)
            ratings.append(stars)
        }
        let summary: SoukV1.RatingSummary = try await harness.call(
            "souk.v1.Feedback", "GetRatingSummary", SoukV1.GetRatingSummaryRequest(marketplaceID: shop.marketplace.id, subject: .accountID(shop.courierID)))
        #expect(summary == .init(count: 2, averageHundredths: 450))
        let inbox: SoukV1.ListFeedbackResponse = try await harness.call(
            "souk.v1.Feedback", "ListFeedback", SoukV1.ListFeedbackRequest(marketplaceID: shop.marketplace.id, filter: .unansweredOnly(true)), token: shop.admin)
        #expect(inbox.feedback.count == 2)
        let answered: SoukV1.FeedbackEntry = try await harness.call(
            "souk.v1.Feedback", "AnswerFeedback",
            SoukV1.AnswerFeedbackRequest(marketplaceID: shop.marketplace.id, feedbackID: inbox.feedback[0].id, text: "Thank you!"), token: shop.admin)
        #expect(answered.answer?.text == "Thank you!")
        let service = try #require(try harness.store.get(ServiceTable.table, RecordID(shop.water.id)!)).value.subject
        #expect(service.rating == .init(count: 1, averageHundredths: 400))
    }

    @Test func cancellingAnAssignedOrderFreesItsPlaceAndCancelsTheDelivery() async throws {
        let shop = try await shop(capacity: 1)
        let customer = try await harness.token(.customer, in: shop.marketplace)
        let order = try await place(shop, customer, window: window(600), requestID: "x1")
        let delivery: SoukV1.Delivery = try await harness.call(
            "souk.v1.Deliveries", "AssignDelivery",
            SoukV1.AssignDeliveryRequest(marketplaceID: shop.marketplace.id, requestID: "dx", orderID: order.id, courierAccountID: shop.courierID),
            token: shop.admin)
        let cancelled: SoukV1.Order = try await harness.call(
            "souk.v1.Orders", "CancelOrder", SoukV1.CancelOrderRequest(marketplaceID: shop.marketplace.id, orderID: order.id), token: customer)
        #expect(cancelled.status == .cancelled && cancelled.paymentStatus == .failed)
        #expect(try await windows(shop, token: customer)[1].booked == 0)
        let stored = try #require(try harness.store.get(DeliveryTable.table, RecordID(delivery.id)!)).value.subject
        #expect(stored.status == .cancelled)
    }

    @Test func remindersAreWrittenOnceTheDayBefore() async throws {
        let shop = try await shop()
        let customer = try await harness.token(.customer, in: shop.marketplace)
        let order = try await place(shop, customer, window: window(600), requestID: "r1")
        // 08:00 now; the window starts tomorrow at 10:00, 26 hours away.
        #expect(try await Shops(commerce: commerce).sendDueReminders() == 0)
        harness.clock.advance(.seconds(3 * 3600))
        #expect(try await Shops(commerce: commerce).sendDueReminders() == 1)
        #expect(try await Shops(commerce: commerce).sendDueReminders() == 0)
        let notes = try harness.store.list(
            NotificationTable.table, NotificationTable.byAccount, .starting(with: [.string(shop.marketplace.id), .string(order.customerAccountID)]))
        #expect(notes.items.filter { $0.value.subject.title.hasPrefix("Reminder") }.count == 1)
    }

    @Test func catalogAnswersInTheCallersLanguageAndFilters() async throws {
        let shop = try await shop()
        let english: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id))
        #expect(english.services.map(\.name) == ["Safi Water", "Tank Cleaning"])
        #expect(english.services.last?.requiresApproval == true)
        let searched: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, query: "صافي"))
        #expect(searched.services.map(\.id) == [shop.water.id])
        let prefix: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, query: "TANK cl"))
        #expect(prefix.services.map(\.id) == [shop.cleaning.id])
        let byPrice: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, orderBy: "price desc"))
        #expect(byPrice.services.map(\.id) == [shop.cleaning.id, shop.water.id])
        let cheap: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices",
            SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, maxPrice: .init(amountMinor: 1000, currencyCode: "SAR"), orderBy: "price"))
        #expect(cheap.services.map(\.id) == [shop.water.id])
        let archived: SoukV1.Service = try await harness.call(
            "souk.v1.Catalog", "ArchiveService", SoukV1.ArchiveServiceRequest(marketplaceID: shop.marketplace.id, serviceID: shop.cleaning.id), token: shop.admin)
        #expect(archived.archived)
        let guest: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, showArchived: true))
        #expect(guest.services.map(\.id) == [shop.water.id])
        let staff: SoukV1.ListServicesResponse = try await harness.call(
            "souk.v1.Catalog", "ListServices", SoukV1.ListServicesRequest(marketplaceID: shop.marketplace.id, showArchived: true), token: shop.admin)
        #expect(staff.services.count == 2)
        var change = shop.water
        change.options.append(.init(name: "6-pack", price: .init(amountMinor: 1500, currencyCode: "SAR"), available: true))
        let updated: SoukV1.Service = try await harness.call(
            "souk.v1.Catalog", "UpdateService",
            SoukV1.UpdateServiceRequest(marketplaceID: shop.marketplace.id, service: change, updateMask: .init(paths: ["options"]), expectedVersion: shop.water.version),
            token: shop.admin)
        #expect(updated.options.count == 3 && updated.options.allSatisfy { !$0.id.isEmpty } && updated.options[0].id == shop.water.options[0].id)
        let stale = await harness.error(
            "souk.v1.Catalog", "UpdateService",
            SoukV1.UpdateServiceRequest(marketplaceID: shop.marketplace.id, service: change, updateMask: .init(paths: ["options"]), expectedVersion: shop.water.version),
            token: shop.admin, as: SoukV1.Service.self)
        #expect(stale?.code == .aborted)
    }
}
