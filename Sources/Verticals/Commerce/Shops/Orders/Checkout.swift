import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// Retail checkout: the caller's cart becomes a paid PENDING order in one transaction.
/// What a checkout's transaction knows: who places the order, where, its number and the
/// address snapshot; the cart is read and locked, and not empty.
struct CartPlacement {
    let caller: Caller
    let marketplaceID: RecordID
    let marketplace: SoukV1.Marketplace
    let actor: AuditActor
    let orderNumber: String
    let cart: CartView.Current
    let address: SoukV1.Address
    /// The call's card or wallet payment, for `PaymentLedger.charge`.
    let payment: TwoPhaseCharge
}

extension OrdersService {
    /// The steps every checkout shares: the request's checks, an order number taken before the
    /// transaction (so placements do not wait for each other on a counter), then one transaction,
    /// idempotent by request id, that reads the caller's cart and the address and runs `place`,
    /// with a card or wallet authorized outside it (`TwoPhaseCharge`).
    func placeFromCart(
        _ request: SoukV1.CheckoutRequest, _ call: SoukCall,
        place: @escaping @Sendable (CartPlacement, Transaction) throws -> SoukV1.Order
    ) async throws -> SoukV1.Order {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestIDField = try checks.run { try RequestFields.requestID(request.requestID) }
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedCartVersion, field: "expected_cart_version") } ?? nil
        switch request.address?.choice {
        case .address(let typed)?: CheckoutAddress.check(typed, field: "address.address", &checks)
        case .savedAddressID(let text)?: try checks.check { _ = try RequestFields.id(text, field: "address.saved_address_id") }
        case nil: checks.add("address", "is required: a saved address id or an address")
        }
        // Food orders are cash on delivery when no method is sent.
        if marketplace.vertical != .foodDelivery || request.payment != nil {
            try checks.check { _ = try PaymentLedger.acceptedMethod(request.payment, field: "payment", marketplace: marketplace) }
        }
        checks.require(request.note.count <= 500, "note", "must be at most 500 characters")
        try checks.finish()
        let requestID = requestIDField!
        let actor = AuditActor(call, requestID: requestID)
        let orderNumber = try await commerce.orderNumbers.next(marketplaceID: marketplaceID, marketplace: marketplace)
        let payment = try commerce.payables.charge(marketplaceID: marketplaceID, accountID: caller.accountID, requestID: requestID)
        let store = store
        let result = try await payment.run { try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Order>()
        ) { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            guard !cart.subject.lines.isEmpty else { throw RPCError.souk(.failedPrecondition, .cartEmpty, "the cart is empty") }
            let address = try CheckoutAddress.resolve(
                request.address, confirmed: request.addressConfirmed, accountID: caller.accountID, marketplaceID: marketplaceID,
                transaction: transaction)
            return try place(
                CartPlacement(caller: caller, marketplaceID: marketplaceID, marketplace: marketplace, actor: actor, orderNumber: orderNumber,
                              cart: cart, address: address, payment: payment),
                transaction)
        } }
        return result.value
    }

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
                OrderRecord(marketplaceID: marketplaceID.description, order), in: OrderTable.table, id: orderID, by: actor,
                transaction: transaction)
            _ = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.removeAll() }
            try Notifier.send(
                OrderChanges.notes(order, id: orderID, title: "Order \(order.orderNumber) placed",
                                   body: "We received your order and payment; we will tell you when it ships."),
                marketplaceID: marketplaceID.description, transaction: transaction)
            return try OrderParties.view(record, call, store: store)
        }
    }
}

/// The address an order is delivered to.
enum CheckoutAddress {
    /// The snapshot of the chosen address. One that differs from the caller's default saved
    /// address (or any, when there is none) must be confirmed.
    static func resolve(
        _ choice: SoukV1.AddressChoice?, confirmed: Bool, accountID: RecordID, marketplaceID: RecordID, transaction: Transaction
    ) throws -> SoukV1.Address {
        let defaultAddress = try IdentityRecords.defaultAddress(of: accountID, marketplaceID: marketplaceID, transaction)
        let address: SoukV1.Address
        let isDefault: Bool
        switch choice?.choice {
        case .savedAddressID(let text)?:
            let id = try RequestFields.id(text, field: "address.saved_address_id")
            guard let saved = try IdentityRecords.address(id, transaction), saved.value.marketplaceID == marketplaceID.description,
                  saved.value.saved.accountID == accountID.description, !saved.value.saved.archived,
                  let stored = saved.value.saved.address
            else { throw RPCError.notFound("address", id.description) }
            address = stored
            isDefault = defaultAddress?.id == id
        case .address(let typed)?:
            address = typed
            isDefault = defaultAddress?.value.saved.address.map { same($0, typed) } ?? false
        case nil:
            throw RPCError.invalidField("address", "is required: a saved address id or an address")
        }
        guard isDefault || confirmed else {
            throw RPCError.invalidField(
                "address_confirmed", "must be true: the delivery address differs from your default address; confirm it",
                reason: .addressNotConfirmed)
        }
        return address
    }

    /// A typed address needs a street, a city and a country; each missing one is recorded.
    static func check(_ address: SoukV1.Address, field: String, _ checks: inout FieldChecks) {
        for (name, value) in [("line1", address.line1), ("city", address.city), ("country_code", address.countryCode)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            checks.add("\(field).\(name)", "is required")
        }
        if !address.countryCode.isEmpty, address.countryCode.count != 2 || !address.countryCode.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            checks.add("\(field).country_code", "must be an ISO 3166-1 alpha-2 code such as MY")
        }
    }

    /// Whether two addresses name the same place (labels and notes aside).
    static func same(_ a: SoukV1.Address, _ b: SoukV1.Address) -> Bool {
        func key(_ x: SoukV1.Address) -> [String] {
            [x.line1, x.line2, x.city, x.region, x.postalCode, x.countryCode].map { ProductText.words($0).joined(separator: " ") }
        }
        return key(a) == key(b)
    }
}
