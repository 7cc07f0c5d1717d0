import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import Testing

import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukPayments

/// The restaurant's side of a food order (accept, reject, complete with the cash), its ratings,
/// and the report totals kept with it, over orders stored the way food checkout stores them.
@Suite struct FoodOrderTests: CommerceCalls {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
    }

    /// A party of the test: token and account id.
    struct Party {
        let token: String
        let id: String
    }

    func party(_ role: SoukV1.Role, _ market: SoukV1.Marketplace, _ email: String) async throws -> Party {
        let token = try await harness.token(role, in: market, email: email)
        let me: SoukV1.Account = try await harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: market.id), token: token)
        return Party(token: token, id: me.id)
    }

    /// A PLACED cash order of 2 × 12.50 at `restaurant`, commission 15 %, counted as placed.
    func placedOrder(_ market: SoukV1.Marketplace, customer: Party, seller: Party, restaurant: String) async throws -> RecordID {
        let marketplaceID = try #require(RecordID(market.id))
        let customerID = try #require(RecordID(customer.id))
        let number = try await OrderNumbers(store: harness.store).next(marketplaceID: marketplaceID, marketplace: market)
        return try await harness.store.write { transaction in
            let orderID = RecordID.generate()
            let usd = { (minor: Int64) in SoukV1.Money(amountMinor: minor, currencyCode: "USD") }
            let payment = try PaymentLedger.charge(
                .init(method: .cash(SoukV1.CashOnDelivery())), field: "payment",
                .init(marketplaceID: marketplaceID, marketplace: market, target: .init(type: .order, id: orderID.description),
                      payer: customerID, payee: seller.id, amount: usd(2800)),
                actor: .system("test"), attempt: .simulated(harness.store, marketplaceID: marketplaceID, payer: customerID), transaction: transaction)
            var order = SoukStoreV1.Order()
            order.orderNumber = number
            order.customerAccountID = customer.id
            order.sellerAccountID = seller.id
            order.restaurantID = restaurant
            order.restaurantName = "Pizzeria Roma"
            order.status = .placed
            order.lines = [.init(itemID: RecordID.generate().description, itemType: .menuItem, name: "Margherita", unitPrice: usd(1250), quantity: 2, lineTotal: usd(2500))]
            order.price = .init(subtotal: usd(2500), total: usd(2800))
            order.commissionBps = 1500
            order.commission = usd(375)
            order.address = .init(recipientName: "Rami", phone: "+9611234567", line1: "Rue Hamra 12", city: "Beirut", countryCode: "LB")
            order.paymentID = payment.id.description
            order.paymentMethod = .cash
            order.paymentStatus = .pending
            let stored = try OrderLifecycles.foodDelivery.create(
                OrderRecord(marketplaceID: market.id, order), in: OrderTable.table, id: orderID, by: .system("test"), transaction: transaction)
            try FoodTotalsLedger.placed(order, marketplace: market, marketplaceID: market.id, transaction: transaction)
            return stored.id
        }
    }

    /// What the driver's delivery does: the order DELIVERED by `courier`, the cash collected.
    func delivered(_ orderID: RecordID, by courier: Party, _ market: SoukV1.Marketplace) async throws {
        try await harness.store.write { transaction in
            let order = try transaction.update(OrderTable.table, orderID) {
                $0.subject.status = .delivered
                $0.subject.courierAccountID = courier.id
            }.value.subject
            let paymentID = try #require(RecordID(order.paymentID))
            let paid = try transaction.update(PaymentTable.table, paymentID) {
                $0.subject.status = .collected
                $0.subject.collectedByAccountID = courier.id
                $0.subject.collectTime = Timestamp(transaction.now)
            }
            try transaction.updateMaintainedFields(OrderTable.table, orderID) { $0.subject.paymentStatus = paid.value.subject.status }
            try FoodTotalsLedger.delivered(
                courierID: courier.id, fee: 300, cash: 2800, marketplace: market, marketplaceID: market.id, transaction: transaction)
        }
    }

    @Test func onlyTheRestaurantAcceptsAndCompletesItsOrderWithTheCashCollected() async throws {
        let market = try await harness.marketplace(slug: "dineswift", vertical: .foodDelivery, currency: "USD")
        let customer = try await party(.customer, market, "rami@example.com")
        let seller = try await party(.provider, market, "roma@example.com")
        let otherSeller = try await party(.provider, market, "sushi@example.com")
        let driver = try await party(.courier, market, "driver@example.com")
        let admin = try await party(.admin, market, "admin@example.com")
        let restaurant = RecordID.generate().description
        let orderID = try await placedOrder(market, customer: customer, seller: seller, restaurant: restaurant)
        let accept = SoukV1.AcceptOrderRequest(marketplaceID: market.id, orderID: orderID.description)

        for outsider in [otherSeller.token, customer.token] {
            #expect(await error("Orders", "AcceptOrder", accept, token: outsider, as: SoukV1.Order.self)?.code == .permissionDenied)
        }
        let accepted: SoukV1.Order = try await call("Orders", "AcceptOrder", accept, token: seller.token)
        #expect(accepted.status == .preparing && accepted.acceptTime != nil)
        // The restaurant sees its orders as seller; another restaurant sees none of them.
        let asSeller = SoukV1.ListOrdersRequest(marketplaceID: market.id, asSeller: true)
        let mine: SoukV1.ListOrdersResponse = try await call("Orders", "ListOrders", asSeller, token: seller.token)
        #expect(mine.orders.map(\.id) == [orderID.description] && mine.orders.first?.address?.phone == "+9611234567")
        let theirs: SoukV1.ListOrdersResponse = try await call("Orders", "ListOrders", asSeller, token: otherSeller.token)
        #expect(theirs.orders.isEmpty)
        let active: SoukV1.ListOrdersResponse = try await call(
            "Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: market.id, statuses: [.placed, .preparing, .outForDelivery, .delivered]),
            token: admin.token)
        #expect(active.orders.map(\.id) == [orderID.description])

        let complete = SoukV1.CompleteOrderRequest(marketplaceID: market.id, orderID: orderID.description)
        #expect(await error("Orders", "CompleteOrder", complete, token: seller.token, as: SoukV1.Order.self)?.code == .failedPrecondition)
        try await delivered(orderID, by: driver, market)
        let completed: SoukV1.Order = try await call("Orders", "CompleteOrder", complete, token: seller.token)
        #expect(completed.status == .completed && completed.paymentStatus == .successful)
        // Once final, the restaurant no longer sees the customer's phone.
        let after: SoukV1.Order = try await call("Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: market.id, orderID: orderID.description), token: seller.token)
        #expect(after.address == nil && after.customer == nil && after.customerAccountID.isEmpty)

        // The week's report equals a recount: one placed and completed, 25.00 revenue, 3.75 commission.
        let week: SoukV1.ListRestaurantReportsResponse = try await call(
            "Reports", "ListRestaurantReports", SoukV1.ListRestaurantReportsRequest(marketplaceID: market.id, period: .week), token: admin.token)
        let report = try #require(week.restaurants.first)
        #expect(week.restaurants.count == 1 && report.restaurantID == restaurant)
        #expect(report.ordersPlaced == 1 && report.ordersCompleted == 1 && report.ordersCancelled == 0)
        #expect(report.revenue?.amountMinor == 2500 && report.commission?.amountMinor == 375)
        let earnings: SoukV1.ListCourierEarningsResponse = try await call(
            "Reports", "ListCourierEarnings", SoukV1.ListCourierEarningsRequest(marketplaceID: market.id, period: .year), token: driver.token)
        let own = try #require(earnings.couriers.first)
        #expect(earnings.couriers.count == 1 && own.deliveriesCompleted == 1 && own.earnings?.amountMinor == 300)
        #expect(own.cashCollected?.amountMinor == 2800 && own.cashUnconfirmed?.amountMinor == 0)
        // A driver sees only their own earnings.
        let someoneElse = SoukV1.ListCourierEarningsRequest(marketplaceID: market.id, period: .week, courierAccountID: admin.id)
        #expect(await error("Reports", "ListCourierEarnings", someoneElse, token: driver.token, as: SoukV1.ListCourierEarningsResponse.self)?.code == .permissionDenied)
    }

    @Test func aRejectedOrderVoidsItsCashAndCountsAsCancelled() async throws {
        let market = try await harness.marketplace(slug: "dineswift", vertical: .foodDelivery, currency: "USD")
        let customer = try await party(.customer, market, "rami@example.com")
        let seller = try await party(.provider, market, "roma@example.com")
        let admin = try await party(.admin, market, "admin@example.com")
        let restaurant = RecordID.generate().description
        let orderID = try await placedOrder(market, customer: customer, seller: seller, restaurant: restaurant)
        let reject = SoukV1.RejectOrderRequest(marketplaceID: market.id, orderID: orderID.description, reason: "")
        #expect(await error("Orders", "RejectOrder", reject, token: seller.token, as: SoukV1.Order.self)?.code == .invalidArgument)
        var withReason = reject
        withReason.reason = "We are out of mozzarella"
        let rejected: SoukV1.Order = try await call("Orders", "RejectOrder", withReason, token: seller.token)
        #expect(rejected.status == .cancelled && rejected.cancellation?.rejected == true && rejected.paymentStatus == .failed)
        let week: SoukV1.ListRestaurantReportsResponse = try await call(
            "Reports", "ListRestaurantReports", SoukV1.ListRestaurantReportsRequest(marketplaceID: market.id, period: .month), token: admin.token)
        #expect(week.restaurants.map { [$0.ordersPlaced, $0.ordersCompleted, $0.ordersCancelled] } == [[1, 0, 1]])
        // A second order, cancelled by an admin once out for delivery.
        let second = try await placedOrder(market, customer: customer, seller: seller, restaurant: restaurant)
        let cancel = SoukV1.CancelOrderRequest(marketplaceID: market.id, orderID: second.description, reason: "Customer unreachable")
        #expect(await error("Orders", "CancelOrder", cancel, token: customer.token, as: SoukV1.Order.self)?.code == .permissionDenied)
        let cancelled: SoukV1.Order = try await call("Orders", "CancelOrder", cancel, token: admin.token)
        #expect(cancelled.status == .cancelled)
    }

    @Test func theCustomerRatesTheRestaurantAndTheDriverOnceEach() async throws {
        let market = try await harness.marketplace(slug: "dineswift", vertical: .foodDelivery, currency: "USD")
        let customer = try await party(.customer, market, "rami@example.com")
        let seller = try await party(.provider, market, "roma@example.com")
        let driver = try await party(.courier, market, "driver@example.com")
        let restaurant = RecordID.generate().description
        let orderID = try await placedOrder(market, customer: customer, seller: seller, restaurant: restaurant)
        let rate = { (target: SoukV1.FeedbackTarget, stars: Int32, id: String) in
            SoukV1.CreateFeedbackRequest(marketplaceID: market.id, requestID: id, subject: .orderID(orderID.description), stars: stars, target: target)
        }
        #expect(await error("Feedback", "CreateFeedback", rate(.restaurant, 5, "early"), token: customer.token, as: SoukV1.FeedbackEntry.self)?.code == .failedPrecondition)
        let _: SoukV1.Order = try await call("Orders", "AcceptOrder", SoukV1.AcceptOrderRequest(marketplaceID: market.id, orderID: orderID.description), token: seller.token)
        try await delivered(orderID, by: driver, market)
        let _: SoukV1.Order = try await call("Orders", "CompleteOrder", SoukV1.CompleteOrderRequest(marketplaceID: market.id, orderID: orderID.description), token: seller.token)

        #expect(await error("Feedback", "CreateFeedback", rate(.unspecified, 5, "none"), token: customer.token, as: SoukV1.FeedbackEntry.self)?.fieldViolations.first?.field == "target")
        let forRestaurant: SoukV1.FeedbackEntry = try await call("Feedback", "CreateFeedback", rate(.restaurant, 4, "r1"), token: customer.token)
        #expect(forRestaurant.restaurantID == restaurant && forRestaurant.ratedAccountID.isEmpty)
        let forDriver: SoukV1.FeedbackEntry = try await call("Feedback", "CreateFeedback", rate(.courier, 5, "d1"), token: customer.token)
        #expect(forDriver.ratedAccountID == driver.id && forDriver.restaurantID.isEmpty)
        #expect(await error("Feedback", "CreateFeedback", rate(.restaurant, 1, "r2"), token: customer.token, as: SoukV1.FeedbackEntry.self)?.code == .alreadyExists)
        let summary: SoukV1.RatingSummary = try await call(
            "Feedback", "GetRatingSummary", SoukV1.GetRatingSummaryRequest(marketplaceID: market.id, subject: .accountID(driver.id)), token: nil)
        #expect(summary.count == 1 && summary.averageHundredths == 500)
        let reviews: SoukV1.ListFeedbackResponse = try await call(
            "Feedback", "ListFeedback", SoukV1.ListFeedbackRequest(marketplaceID: market.id, filter: .restaurantID(restaurant)), token: nil)
        #expect(reviews.feedback.map(\.stars) == [4])
    }

    @Test func aReportWindowIsMadeOfDaysAndWholeMonths() throws {
        let utc = MarketplaceClock(timeZone: "UTC")
        let end = utc.instant(CivilDate(year: 2026, month: 11, day: 24), minute: 600)
        let day = { (y: Int, m: Int, d: Int) in Int64(CivilDate(year: y, month: m, day: d).daysSinceEpoch) }
        let month = { (y: Int, m: Int) in Int64(y * 12 + m - 1) }
        let week = try ReportWindow(period: .week, end: end, clock: utc)
        #expect(week.pieces == [.init(span: .day, from: day(2026, 11, 18), through: day(2026, 11, 24))])
        let oneMonth = try ReportWindow(period: .month, end: end, clock: utc)
        #expect(oneMonth.pieces == [.init(span: .day, from: day(2026, 10, 25), through: day(2026, 11, 24))])
        let year = try ReportWindow(period: .year, end: end, clock: utc)
        #expect(year.pieces == [
            .init(span: .day, from: day(2025, 11, 25), through: day(2025, 11, 30)),
            .init(span: .month, from: month(2025, 12), through: month(2026, 10)),
            .init(span: .day, from: day(2026, 11, 1), through: day(2026, 11, 24)),
        ])
        // The last day of a month ends a whole month; a shorter month clamps the start.
        let march31 = utc.instant(CivilDate(year: 2026, month: 3, day: 31), minute: 0)
        let quarter = try ReportWindow(period: .month, end: march31, clock: utc)
        #expect(quarter.first == CivilDate(year: 2026, month: 3, day: 1))
        #expect(quarter.pieces == [.init(span: .month, from: month(2026, 3), through: month(2026, 3))])
        #expect(throws: RPCError.self) { try ReportWindow(period: .unspecified, end: end, clock: utc) }
    }
}
