import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// Food checkout: the caller's cart of one restaurant becomes a PLACED cash-on-delivery order in
/// one transaction, priced by `FoodCartPricing` (the cart's prices now), with the restaurant's
/// name, address (where the driver picks it up) and commission snapshotted.
extension OrdersService {
    func foodCheckout(_ request: SoukV1.CheckoutRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let store = store
        return try await placeFromCart(request, call) { placement, transaction in
            let (caller, marketplaceID, marketplace, actor) = (placement.caller, placement.marketplaceID, placement.marketplace, placement.actor)
            let (cart, orderNumber) = (placement.cart, placement.orderNumber)
            let quote = try FoodCartPricing.price(cart.subject, marketplace: marketplace, in: transaction)
            if let problem = quote.problem { throw RPCError.souk(.failedPrecondition, problem.reason, problem.message) }
            guard let restaurant = quote.restaurant else { throw RPCError.souk(.failedPrecondition, .cartEmpty, "the cart is empty") }
            let currency = marketplace.currencyCode
            let subtotal = quote.price.subtotal?.amountMinor ?? 0
            let orderID = RecordID.generate()
            // Cash on delivery: a PENDING payment the driver collects.
            let payment = try PaymentLedger.charge(
                request.payment ?? SoukV1.PaymentMethodInput(method: .cash(SoukV1.CashOnDelivery())), field: "payment",
                PaymentLedger.Charge(
                    marketplaceID: marketplaceID, marketplace: marketplace, target: SoukV1.ResourceRef(type: .order, id: orderID.description),
                    payer: caller.accountID, payee: restaurant.ownerAccountID,
                    amount: quote.price.total ?? SoukV1.Money(amountMinor: 0, currencyCode: currency)),
                actor: actor, attempt: placement.payment, transaction: transaction)
            var order = SoukStoreV1.Order()
            order.orderNumber = orderNumber
            order.customerAccountID = caller.accountID.description
            order.sellerAccountID = restaurant.ownerAccountID
            order.status = .placed
            order.lines = quote.lines.map(\.orderLine)
            order.price = quote.price
            order.address = placement.address
            order.restaurantID = restaurant.id
            order.restaurantName = restaurant.name
            order.pickupAddress = restaurant.address
            order.commissionBps = restaurant.commissionBps
            order.commission = SoukV1.Money(amountMinor: RetailPricing.tax(subtotal, bps: restaurant.commissionBps), currencyCode: currency)
            order.note = request.note
            order.paymentID = payment.id.description
            order.paymentMethod = payment.value.subject.method
            order.paymentStatus = payment.value.subject.status
            let record = try OrderLifecycles.foodDelivery.create(
                OrderRecord(marketplaceID: marketplaceID.description, order), id: orderID, by: actor,
                transaction: transaction)
            _ = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) {
                $0.lines.removeAll()
                $0.restaurantID = ""
            }
            try FoodTotalsLedger.placed(order, marketplace: marketplace, marketplaceID: marketplaceID.description, transaction: transaction)
            let subject = SoukV1.ResourceRef(type: .order, id: orderID.description)
            try Notifier.send(
                [
                    Notifier.Note(
                        to: order.customerAccountID, kind: .order, .foodOrderPlaced(number: orderNumber, restaurant: restaurant.name), subject: subject),
                    Notifier.Note(to: restaurant.ownerAccountID, kind: .order, .restaurantNewOrder(number: orderNumber), subject: subject),
                ],
                marketplaceID: marketplaceID.description, transaction: transaction)
            return try OrderParties.view(record, call, lifecycle: OrderLifecycles.foodDelivery, store: store)
        }
    }
}
