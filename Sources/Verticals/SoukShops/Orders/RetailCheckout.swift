import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// Retail checkout: the caller's cart becomes a paid PENDING order in one transaction.
extension OrdersService {
    func checkout(_ request: SoukV1.CheckoutRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let store = store
        return try await placeFromCart(request, call) { placement, transaction in
            let (caller, marketplaceID, marketplace, actor) = (placement.caller, placement.marketplaceID, placement.marketplace, placement.actor)
            let (cart, address, orderNumber) = (placement.cart, placement.address, placement.orderNumber)
            // Products are read (and locked) in id order, so two checkouts of the same wines
            // wait for each other instead of deadlocking; the second then sees the stock the
            // first left.
            var lines: [SoukV1.OrderLine] = []
            var taken: [(product: StoredRecord<ProductRecord>, quantity: Int32)] = []
            var subtotal: Int64 = 0
            let currency = marketplace.currencyCode
            for cartLine in cart.subject.lines.sorted(by: { $0.itemID < $1.itemID }) {
                guard let id = RecordID(cartLine.itemID) else { throw RPCError.notFound("product", cartLine.itemID) }
                let stored = try transaction.require(ProductTable.table, id, in: marketplaceID, "product")
                let product = stored.value.subject
                try CartView.checkPurchasable(product, id: id, quantity: cartLine.quantity)
                let unit = SoukV1.Money(amountMinor: product.price.minor, currencyCode: currency)
                lines.append(SoukV1.OrderLine(
                    itemID: id.description, itemType: .product, name: product.name, listUnitPrice: unit, unitPrice: unit,
                    quantity: cartLine.quantity,
                    lineTotal: SoukV1.Money(amountMinor: unit.amountMinor * Int64(cartLine.quantity), currencyCode: currency)))
                subtotal += unit.amountMinor * Int64(cartLine.quantity)
                taken.append((stored, cartLine.quantity))
            }
            let price = RetailPricing.breakdown(subtotal: subtotal, hasLines: true, marketplace: marketplace)
            let orderID = RecordID.generate()
            // Without an authorization yet (or with a declined one) the charge throws here and the
            // transaction rolls back.
            let payment = try PaymentLedger.charge(
                request.payment, field: "payment",
                PaymentLedger.Charge(
                    marketplaceID: marketplaceID, marketplace: marketplace, target: SoukV1.ResourceRef(type: .order, id: orderID.description),
                    payer: caller.accountID, payee: "", amount: price.total ?? SoukV1.Money(amountMinor: 0, currencyCode: currency)),
                actor: actor, attempt: placement.payment, transaction: transaction)
            // The stock is taken once the charge stands, so the run that stops at the charge to
            // learn the amount has written nothing.
            for (product, quantity) in taken {
                try transaction.updateMaintainedFields(ProductTable.table, read: product) { $0.subject.stock -= quantity }
            }
            var order = SoukStoreV1.Order()
            order.orderNumber = orderNumber
            order.customerAccountID = caller.accountID.description
            order.status = .pending
            // Cart order, for the customer who built it.
            order.lines = cart.subject.lines.compactMap { line in lines.first { $0.itemID == line.itemID } }
            order.price = price
            order.address = address
            order.note = request.note
            order.paymentID = payment.id.description
            order.paymentMethod = payment.value.subject.method
            order.paymentStatus = payment.value.subject.status
            let record = try OrderLifecycles.retail.create(
                OrderRecord(marketplaceID: marketplaceID.description, order), id: orderID, by: actor,
                transaction: transaction)
            _ = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.removeAll() }
            try Notifier.send(
                OrderChanges.notes(order, id: orderID, .retailOrderPlaced(number: order.orderNumber)),
                marketplaceID: marketplaceID.description, transaction: transaction)
            return try OrderParties.view(record, call, lifecycle: OrderLifecycles.retail, store: store)
        }
    }
}
