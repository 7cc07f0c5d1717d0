import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// What a checkout's transaction knows: who places the order, where, its number and the
/// address snapshot; the cart is read and locked, and not empty.
package struct CartPlacement {
    package let caller: Caller
    package let marketplaceID: RecordID
    package let marketplace: SoukV1.Marketplace
    package let actor: AuditActor
    package let orderNumber: String
    package let cart: CartView.Current
    package let address: SoukV1.Address
    /// The call's card or wallet payment, for `PaymentLedger.charge`.
    package let payment: TwoPhaseCharge
}

extension OrderPlacing {
    /// The steps every checkout shares: the request's checks, an order number taken before the
    /// transaction (so placements do not wait for each other on a counter), then one transaction,
    /// idempotent by request id, that reads the caller's cart and the address and runs `place`,
    /// with a card or wallet authorized outside it (`TwoPhaseCharge`).
    package func placeFromCart(
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
}

/// The address an order is delivered to.
package enum CheckoutAddress {
    /// The snapshot of the chosen address. One that differs from the caller's default saved
    /// address (or any, when there is none) must be confirmed.
    package static func resolve(
        _ choice: SoukV1.AddressChoice?, confirmed: Bool, accountID: RecordID, marketplaceID: RecordID, transaction: Transaction
    ) throws -> SoukV1.Address {
        let defaultAddress = try IdentityRecords.defaultAddress(of: accountID, marketplaceID: marketplaceID, transaction)
        let address: SoukV1.Address
        let isDefault: Bool
        switch choice?.choice {
        case .savedAddressID(let text)?:
            let id = try RequestFields.id(text, field: "address.saved_address_id")
            guard let saved = try IdentityRecords.address(id, transaction), saved.value.marketplaceID == marketplaceID.description,
                  saved.value.subject.accountID == accountID.description, !saved.value.subject.archived,
                  let stored = saved.value.subject.address
            else { throw RPCError.notFound("address", id.description) }
            address = stored
            isDefault = defaultAddress?.id == id
        case .address(let typed)?:
            address = typed
            isDefault = defaultAddress?.value.subject.address.map { same($0, typed) } ?? false
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
    package static func check(_ address: SoukV1.Address, field: String, _ checks: inout FieldChecks) {
        for (name, value) in [("line1", address.line1), ("city", address.city), ("country_code", address.countryCode)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            checks.add("\(field).\(name)", "is required")
        }
        if !address.countryCode.isEmpty, address.countryCode.count != 2 || !address.countryCode.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            checks.add("\(field).country_code", "must be an ISO 3166-1 alpha-2 code such as MY")
        }
    }

    /// Whether two addresses name the same place (labels and notes aside).
    package static func same(_ a: SoukV1.Address, _ b: SoukV1.Address) -> Bool {
        func key(_ x: SoukV1.Address) -> [String] {
            [x.line1, x.line2, x.city, x.region, x.postalCode, x.countryCode].map { ProductText.words($0).joined(separator: " ") }
        }
        return key(a) == key(b)
    }
}
