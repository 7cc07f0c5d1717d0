import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The built-in simulated payment gateway (payments.proto, THE SIMULATED GATEWAY): card checks,
/// card tokens, wallet tokens, the documented test outcomes, and authorizations kept as a real
/// provider keeps them, outside the transactions of the calls that use them (`SimulatedGatewayBook`,
/// which survives the server's process when it has a journal file).
public final class SimulatedGateway: PaymentGateway {
    /// A fault the gateway injects, for tests only (`souk-server --simulated-gateway-fault`).
    public enum Fault: String, Sendable, CaseIterable {
        /// Every authorization is recorded, then its answer never comes (the call waits until it
        /// is cancelled): a crash between authorize and commit can be staged.
        case stallAfterAuthorize = "stall-after-authorize"
    }

    let store: Store
    let book: SimulatedGatewayBook
    let fault: Fault?

    /// A gateway whose card tokens are in `store` and whose authorizations are kept in `book`.
    public init(store: Store, book: SimulatedGatewayBook = SimulatedGatewayBook(), fault: Fault? = nil) {
        self.store = store
        self.book = book
        self.fault = fault
    }

    public func authorize(_ request: GatewayAuthorizationRequest, key: String) async throws -> GatewayAuthorizationResult {
        if let known = book.entry(key) { return known.authorizationResult }
        var entry = SimulatedGatewayBook.Entry(
            state: .authorized, amountMinor: request.amountMinor, currencyCode: request.currencyCode,
            createTime: store.configuration.clock().microsecondsSinceEpoch)
        switch request.method {
        case .cardToken(let token):
            switch try await useCardToken(token, request) {
            case .failure(let problem):
                entry.state = .invalid
                entry.message = problem.text
            case .success(let card):
                (entry.cardBrand, entry.cardLast4, entry.tokenHash) = (card.brand, card.last4, card.tokenHash)
                if let declined = Self.declines[card.last4] {
                    entry.state = .declined
                    entry.message = declined
                }
            }
        case .applePayToken(let token), .googlePayToken(let token):
            let prefix = if case .applePayToken = request.method { "applepay_" } else { "googlepay_" }
            if let problem = Self.walletShapeProblem(token, prefix: prefix) {
                entry.state = .invalid
                entry.message = problem
            } else if token.dropFirst(prefix.count).hasPrefix("decline") {
                entry.state = .declined
                entry.message = "declined by the wallet"
            }
        }
        if entry.state == .authorized { entry.reference = "sim_" + RecordID.generate().compactHex }
        let (kept, inserted) = try await book.record(key, entry)
        // Another call with the same key answered first: this one's token use does not stand.
        if !inserted, entry.state == .authorized, !entry.tokenHash.isEmpty { try await releaseCardToken(entry.tokenHash) }
        if fault == .stallAfterAuthorize {
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
        return kept.authorizationResult
    }

    public func openAuthorizations(createdBefore time: StoreTime) async throws -> [String] {
        book.openAuthorizations(recordedBefore: time.microsecondsSinceEpoch)
    }

    public func capture(key: String) async throws -> GatewaySettlement {
        try await book.change(key) { entry in
            switch entry?.state {
            case .authorized?: entry?.state = .captured
            case .captured?: break
            case let state?: return .refused("the authorization is \(state.rawValue)")
            case nil: return .refused("no authorization has this key")
            }
            return .done
        }
    }

    public func void(key: String) async throws -> GatewaySettlement {
        var released: [UInt8]? = nil
        let outcome = try await book.change(key) { entry -> GatewaySettlement in
            switch entry?.state {
            case .authorized?:
                entry?.state = .voided
                released = entry?.tokenHash
            case .captured?: return .refused("the authorization was captured; refund it instead")
            case .voided?, .declined?, .invalid?: break
            case .refunded?: return .refused("the key names a refund")
            case nil: entry = SimulatedGatewayBook.Entry(state: .voided)
            }
            return .done
        }
        // A one-time card token is spent only by a charge that stands.
        if let released, !released.isEmpty { try await releaseCardToken(released) }
        return outcome
    }

    public func refund(key: String, authorizationKey: String, amount: Int64) async throws -> GatewaySettlement {
        if book.entry(key) != nil { return .done }
        var outcome = GatewaySettlement.done
        try await book.change(authorizationKey) { entry in
            guard let captured = entry, captured.state == .captured else {
                outcome = .refused("the authorization is \(entry?.state.rawValue ?? "unknown"), not captured")
                return
            }
            guard amount > 0, captured.refundedMinor + amount <= captured.amountMinor else {
                outcome = .refused("\(amount) is more than the \(captured.amountMinor - captured.refundedMinor) left to refund")
                return
            }
            entry?.refundedMinor += amount
        }
        if outcome == .done {
            _ = try await book.record(key, SimulatedGatewayBook.Entry(state: .refunded, amountMinor: amount, authorizationKey: authorizationKey))
        }
        return outcome
    }

    /// The card a one-time token stands for, marked used (a charge declined leaves it usable);
    /// test tokens are reusable and owned by nobody.
    private func useCardToken(_ token: String, _ request: GatewayAuthorizationRequest) async throws
        -> Result<(brand: String, last4: String, tokenHash: [UInt8]), Problem>
    {
        if let test = Self.testTokens[token] { return .success((test.brand, test.last4, [])) }
        let hash = CardTokenTable.hash(token)
        return try await store.write { transaction in
            guard let stored = try transaction.get(CardTokenTable.table, unique: CardTokenTable.byToken, [.bytes(hash)]),
                  stored.value.marketplaceID == request.marketplaceID, stored.value.accountID.description == request.payerAccountID,
                  !stored.value.used, stored.value.expiry > transaction.now
            else { return .failure(Problem("is not a card token this account may use (unknown, expired or used)")) }
            if Self.declines[stored.value.last4] == nil { try transaction.update(CardTokenTable.table, stored.id) { $0.used = true } }
            return .success((stored.value.brand, stored.value.last4, hash))
        }
    }

    private func releaseCardToken(_ hash: [UInt8]) async throws {
        try await store.write { transaction in
            if let stored = try transaction.get(CardTokenTable.table, unique: CardTokenTable.byToken, [.bytes(hash)]) {
                try transaction.update(CardTokenTable.table, stored.id) { $0.used = false }
            }
        }
    }

    /// Why a token was refused, for the payer.
    struct Problem: Error, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// Why the gateway declines a card, by its test number's last four digits.
    static let declines: [String: String] = [
        "0002": "generic decline", "9995": "insufficient funds", "0069": "expired card", "0119": "processing error",
    ]

    /// The documented test tokens: brand, last four; reusable, owned by nobody.
    static let testTokens: [String: (brand: String, last4: String)] = [
        "tok_visa": ("visa", "4242"), "tok_mastercard": ("mastercard", "4444"), "tok_decline": ("visa", "0002"),
        "tok_insufficient_funds": ("visa", "9995"), "tok_expired_card": ("visa", "0069"), "tok_processing_error": ("visa", "0119"),
    ]

    /// How long a card token may be used.
    static let tokenLifetime: Duration = .seconds(3600)

    /// A card checked by the gateway: what Souk may keep of it.
    struct CheckedCard: Sendable, Equatable {
        var brand: String
        var last4: String
        var expiryMonth: Int32
        var expiryYear: Int32
    }

    /// Checks a typed card: 16 digits with a valid Luhn sum, a 3-digit CVV, an expiry month that
    /// has not passed at `now` (UTC). INVALID_ARGUMENT (CARD_INVALID) names the field.
    static func check(_ card: SoukV1.CardInput, now: StoreTime) throws -> CheckedCard {
        let digits = card.number.filter { $0 != " " && $0 != "-" }
        guard digits.count == 16, digits.allSatisfy(\.isASCIIDigit) else {
            throw RPCError.invalidField("card.number", "must have 16 digits", reason: .cardInvalid)
        }
        guard luhnValid(digits) else {
            throw RPCError.invalidField("card.number", "fails the Luhn check", reason: .cardInvalid)
        }
        guard card.cvv.count == 3, card.cvv.allSatisfy(\.isASCIIDigit) else {
            throw RPCError.invalidField("card.cvv", "must have 3 digits", reason: .cardInvalid)
        }
        guard (1...12).contains(card.expiryMonth) else {
            throw RPCError.invalidField("card.expiry_month", "must be 1 to 12", reason: .cardInvalid)
        }
        let today = now.civilDate
        guard card.expiryYear >= 2000, card.expiryYear <= 2100,
              (card.expiryYear, card.expiryMonth) >= (Int32(today.year), Int32(today.month))
        else {
            throw RPCError.invalidField("card.expiry_year", "the card expired (\(card.expiryMonth)/\(card.expiryYear))", reason: .cardInvalid)
        }
        return CheckedCard(brand: brand(digits), last4: String(digits.suffix(4)), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear)
    }

    static func luhnValid(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            var digit = Int(character.asciiValue! - 48)
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    static func brand(_ digits: String) -> String {
        let two = Int(digits.prefix(2)) ?? 0
        let four = Int(digits.prefix(4)) ?? 0
        if digits.hasPrefix("4") { return "visa" }
        if (51...55).contains(two) || (2221...2720).contains(four) { return "mastercard" }
        if two == 34 || two == 37 { return "amex" }
        return "card"
    }

    /// A new card token's text: "tok_" and 32 hex digits.
    static func newToken() -> String {
        "tok_" + SecretToken.randomHex(bytes: 16)
    }

    /// What a wallet token decides: nil when it is charged, else the decline reason. Throws
    /// INVALID_ARGUMENT (PAYMENT_TOKEN_INVALID) for a token of another shape.
    static func walletOutcome(_ token: String, prefix: String, field: String) throws -> String? {
        if let problem = walletShapeProblem(token, prefix: prefix) {
            throw RPCError.invalidField(field, problem, reason: .paymentTokenInvalid)
        }
        return token.dropFirst(prefix.count).hasPrefix("decline") ? "declined by the wallet" : nil
    }

    /// What is wrong with a wallet token's shape, or nil.
    static func walletShapeProblem(_ token: String, prefix: String) -> String? {
        let rest = token.dropFirst(prefix.count)
        guard token.hasPrefix(prefix), (8...512).contains(rest.count),
              rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return "is not a \(prefix)… token (8 to 512 letters, digits, '-' or '_' after the prefix)" }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
