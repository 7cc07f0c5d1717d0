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

/// Who reads, lists and cancels an order, and what cancelling undoes, over orders stored the
/// way checkout stores them.
@Suite struct OrderAccessTests: CommerceCalls {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
    }

    /// A paid retail order of `customer` for 2 bottles of a product with 5 left after it.
    func paidOrder(_ shop: SoukV1.Marketplace, customer: String) async throws -> (order: RecordID, product: RecordID) {
        let marketplaceID = try #require(RecordID(shop.id))
        let customerID = try #require(RecordID(customer))
        let number = try await OrderNumbers(store: harness.store).next(marketplaceID: marketplaceID, marketplace: shop)
        let attempt = TwoPhaseCharge.simulated(harness.store, marketplaceID: marketplaceID, payer: customerID)
        let store = harness.store
        return try await attempt.run { try await store.write { transaction in
            var wine = SoukStoreV1.Product()
            wine.name = "Barbera d'Alba"
            wine.price = .init(amountMinor: 8990, currencyCode: "MYR")
            wine.stock = 5
            wine.available = true
            let product = try transaction.insert(ProductTable.table, ProductRecord(marketplaceID: shop.id, wine))
            let payment = try PaymentLedger.charge(
                .init(method: .cardToken("tok_visa")), field: "payment",
                .init(marketplaceID: marketplaceID, marketplace: shop, target: .init(type: .order, id: "o"), payer: customerID, payee: "",
                      amount: .init(amountMinor: 17980, currencyCode: "MYR")),
                actor: .system("test"), attempt: attempt, transaction: transaction)
            var order = SoukStoreV1.Order()
            order.customerAccountID = customer
            order.status = .pending
            order.orderNumber = number
            order.lines = [.init(itemID: product.id.description, itemType: .product, name: wine.name, unitPrice: wine.price, quantity: 2)]
            order.address = .init(recipientName: "Aina", phone: "+60123456789", line1: "1 Jalan Ampang", city: "Kuala Lumpur", countryCode: "MY")
            order.paymentID = payment.id.description
            order.paymentMethod = .card
            order.paymentStatus = .successful
            let stored = try OrderLifecycles.retail.create(
                OrderRecord(marketplaceID: shop.id, order), in: OrderTable.table, by: .system("test"), transaction: transaction)
            return (stored.id, product.id)
        } }
    }

    @Test func partiesReadAndListOnlyWhatIsTheirs() async throws {
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let aina = try await harness.signUp(shop, email: "aina@example.com")
        let other = try await harness.token(.customer, in: shop, email: "other@example.com")
        let staff = try await harness.token(.provider, in: shop)
        let (orderID, _) = try await paidOrder(shop, customer: aina.account!.id)
        let get = SoukV1.GetOrderRequest(marketplaceID: shop.id, orderID: orderID.description)

        let own: SoukV1.Order = try await call("Orders", "GetOrder", get, token: aina.session!.accessToken)
        #expect(own.orderNumber == "TC-10001" && own.address?.phone == "+60123456789" && own.customer?.displayName == "Test")
        let refused = await error("Orders", "GetOrder", get, token: other, as: SoukV1.Order.self)
        #expect(refused?.code == .permissionDenied)
        // The shop's staff sells every order of a retail marketplace and sees the phone while it is active.
        let seen: SoukV1.Order = try await call("Orders", "GetOrder", get, token: staff)
        #expect(seen.address?.phone == "+60123456789")

        let mine: SoukV1.ListOrdersResponse = try await call("Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: shop.id), token: aina.session!.accessToken)
        #expect(mine.orders.map(\.id) == [orderID.description])
        let others: SoukV1.ListOrdersResponse = try await call("Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: shop.id), token: other)
        #expect(others.orders.isEmpty)
        let sold: SoukV1.ListOrdersResponse = try await call(
            "Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: shop.id, statuses: [.pending], asSeller: true), token: staff)
        #expect(sold.orders.map(\.id) == [orderID.description])
        let notSeller = await error(
            "Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: shop.id, asSeller: true), token: other, as: SoukV1.ListOrdersResponse.self)
        #expect(notSeller?.code == .permissionDenied)
        let spying = await error(
            "Orders", "ListOrders", SoukV1.ListOrdersRequest(marketplaceID: shop.id, customerAccountID: aina.account!.id), token: other,
            as: SoukV1.ListOrdersResponse.self)
        #expect(spying?.code == .permissionDenied)
    }

    @Test func cancellingRefundsRestocksAndNotifies() async throws {
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let aina = try await harness.signUp(shop, email: "aina@example.com")
        let token = aina.session!.accessToken
        let (orderID, productID) = try await paidOrder(shop, customer: aina.account!.id)
        let cancel = SoukV1.CancelOrderRequest(marketplaceID: shop.id, orderID: orderID.description, expectedVersion: 1)
        let cancelled: SoukV1.Order = try await call("Orders", "CancelOrder", cancel, token: token)
        #expect(cancelled.status == .cancelled && cancelled.paymentStatus == .refunded)
        #expect(cancelled.cancellation?.cancelledByAccountID == aina.account!.id)
        // Visible to its parties only while active.
        let staff = try await harness.token(.provider, in: shop)
        let seen: SoukV1.Order = try await call("Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: staff)
        #expect(seen.address?.phone == "")
        #expect(try harness.store.get(ProductTable.table, productID)?.value.subject.stock == 7)
        let paymentID = try #require(RecordID(cancelled.paymentID))
        let payment = try #require(try harness.store.get(PaymentTable.table, paymentID))
        #expect(payment.value.subject.refundedAmount?.amountMinor == 17980 && payment.value.subject.refunds.count == 1)

        let again = await error("Orders", "CancelOrder", SoukV1.CancelOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: token, as: SoukV1.Order.self)
        #expect(again?.code == .failedPrecondition && again?.soukReason == .cancelNotAllowed)

        let inbox: SoukV1.ListNotificationsResponse = try await call(
            "Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: shop.id), token: token)
        #expect(inbox.unreadCount == 1 && inbox.notifications.first?.subject?.id == orderID.description && inbox.lastSequence == 1)
        let read: SoukV1.MarkNotificationsReadResponse = try await call(
            "Notifications", "MarkNotificationsRead", SoukV1.MarkNotificationsReadRequest(marketplaceID: shop.id, all: true), token: token)
        #expect(read.markedCount == 1 && read.unreadCount == 0)
        let unread: SoukV1.ListNotificationsResponse = try await call(
            "Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: shop.id, unreadOnly: true), token: token)
        #expect(unread.notifications.isEmpty && unread.unreadCount == 0)
    }

    @Test func anotherMarketplacesOrderIsNotFoundAndARetriedCancelIsAborted() async throws {
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let other = try await harness.marketplace(slug: "other-cellar", vertical: .retail, currency: "MYR")
        let aina = try await harness.signUp(shop, email: "aina@example.com")
        let (orderID, _) = try await paidOrder(shop, customer: aina.account!.id)
        // An admin of another shop, naming their own marketplace and this order's id.
        let foreignAdmin = try await harness.adminToken(other, email: "admin@other.example")
        let read = await error(
            "Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: other.id, orderID: orderID.description), token: foreignAdmin,
            as: SoukV1.Order.self)
        #expect(read?.code == .notFound)
        let cancel = SoukV1.CancelOrderRequest(marketplaceID: other.id, orderID: orderID.description, reason: "no", expectedVersion: 1)
        #expect(await error("Orders", "CancelOrder", cancel, token: foreignAdmin, as: SoukV1.Order.self)?.code == .notFound)
        // Naming this shop with the other shop's token is refused before the order is looked at.
        let scoped = await error(
            "Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: foreignAdmin,
            as: SoukV1.Order.self)
        #expect(scoped?.code == .permissionDenied)

        // A mobile client retrying its cancellation with the version it read gets ABORTED, not a second refund.
        let mine = SoukV1.CancelOrderRequest(marketplaceID: shop.id, orderID: orderID.description, expectedVersion: 1)
        let _: SoukV1.Order = try await call("Orders", "CancelOrder", mine, token: aina.session!.accessToken)
        let retried = await error("Orders", "CancelOrder", mine, token: aina.session!.accessToken, as: SoukV1.Order.self)
        #expect(retried?.code == .aborted)
        let order: SoukV1.Order = try await call("Orders", "GetOrder", SoukV1.GetOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: aina.session!.accessToken)
        let paymentID = try #require(RecordID(order.paymentID))
        #expect(try harness.store.get(PaymentTable.table, paymentID)?.value.subject.refunds.count == 1)
    }

    @Test func aProviderMustGiveAReasonAndACustomerCannotCancelAShippedOrder() async throws {
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let aina = try await harness.signUp(shop, email: "aina@example.com")
        let staff = try await harness.token(.provider, in: shop)
        let (orderID, _) = try await paidOrder(shop, customer: aina.account!.id)
        let noReason = await error(
            "Orders", "CancelOrder", SoukV1.CancelOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: staff, as: SoukV1.Order.self)
        #expect(noReason?.code == .invalidArgument && noReason?.fieldViolations.first?.field == "reason")
        _ = try await harness.store.write { transaction in
            try OrderLifecycles.retail.fire(
                .ship, on: orderID, in: OrderTable.table, marketplaceID: shop.id, by: AuditActor(accountID: "staff", role: .provider, action: "test"),
                transaction: transaction)
        }
        let late = await error(
            "Orders", "CancelOrder", SoukV1.CancelOrderRequest(marketplaceID: shop.id, orderID: orderID.description), token: aina.session!.accessToken,
            as: SoukV1.Order.self)
        #expect(late?.code == .failedPrecondition && late?.soukReason == .cancelNotAllowed)
    }
}

@Suite struct OrderNumberTests {
    @Test func concurrentPlacementsGetDistinctNumbersFromReservedBlocks() async throws {
        let harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let marketplaceID = try #require(RecordID(shop.id))
        let numbers = OrderNumbers(store: harness.store)
        let taken = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mine: [String] = []
                    for _ in 0..<25 {
                        mine.append(try await numbers.next(marketplaceID: marketplaceID, marketplace: shop))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(taken.count == 200 && Set(taken).count == 200)
        #expect(taken.allSatisfy { $0.hasPrefix("TC-") && Int($0.dropFirst(3))! >= 10001 })
        // A second process (a restart) starts after every block the first reserved.
        let restarted = try await OrderNumbers(store: harness.store).next(marketplaceID: marketplaceID, marketplace: shop)
        #expect(Int(restarted.dropFirst(3))! > taken.map { Int($0.dropFirst(3))! }.max()!)
    }
}

@Suite struct PricingLimitTests {
    @Test func taxIsExactAndCannotOverflow() {
        #expect(RetailPricing.tax(26970, bps: 2600) == 7012)
        #expect(RetailPricing.tax(25, bps: 2600) == 7)  // 6.5 rounds away from zero
        #expect(RetailPricing.tax(-25, bps: 2600) == -7)
        #expect(RetailPricing.tax(Int64.max, bps: 10_000) == Int64.max)
        let largest = Int64(RetailPricing.maxLines) * Int64(RetailPricing.maxQuantityWithoutCap) * CatalogLimits.maxPriceMinor
        #expect(RetailPricing.tax(largest, bps: 10_000) == largest)
    }

    @Test func pricesAboveTheCapAreRefused() async throws {
        let harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let staff = try await harness.token(.provider, in: shop)
        var wine = SoukV1.Product()
        wine.name = "Priceless"
        wine.price = .init(amountMinor: CatalogLimits.maxPriceMinor + 1, currencyCode: "MYR")
        wine.stock = 1
        let refused = await harness.error(
            "souk.v1.Catalog", "CreateProduct", SoukV1.CreateProductRequest(marketplaceID: shop.id, requestID: "p", product: wine), token: staff,
            as: SoukV1.Product.self)
        #expect(refused?.code == .invalidArgument && refused?.fieldViolations.first?.field == "product.price")
    }
}
