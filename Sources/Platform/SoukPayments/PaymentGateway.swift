import SoukStore

/// A payment provider, in the two phases real providers have: an amount is authorized (held on
/// the payer's method), then captured (taken) or voided (released); captured money may be
/// refunded. Every call carries an idempotency key and the provider answers a key it has seen
/// with its first answer, so any call may be sent again after a timeout or a crash. An
/// authorization is named by the key it was authorized with (the merchant's reference), so it
/// can be voided even when its answer never arrived. A thrown error means the outcome is unknown.
public protocol PaymentGateway: Sendable {
    /// Holds `request.amount` on the request's method, under `key`.
    func authorize(_ request: GatewayAuthorizationRequest, key: String) async throws -> GatewayAuthorizationResult
    /// Takes the money held by the authorization `key`.
    func capture(key: String) async throws -> GatewaySettlement
    /// Releases the authorization `key`; a key never authorized is refused from then on.
    func void(key: String) async throws -> GatewaySettlement
    /// Returns `amount` minor units of the captured authorization `authorizationKey`, once per `key`.
    func refund(key: String, authorizationKey: String, amount: Int64) async throws -> GatewaySettlement
    /// The keys of the authorizations still held (neither captured nor voided) that were made
    /// before `time`, as providers list their uncaptured payments: `PaymentRecovery` settles
    /// those whose call a crash or a failure interrupted, so Souk records nothing before it authorizes.
    func openAuthorizations(createdBefore time: StoreTime) async throws -> [String]
}

/// What to authorize: an amount, on whose method, in which marketplace.
public struct GatewayAuthorizationRequest: Sendable, Hashable {
    /// A payment method the gateway takes, as the app's SDK handed it over.
    public enum Method: Sendable, Hashable {
        case cardToken(String)
        case applePayToken(String)
        case googlePayToken(String)
    }

    public var marketplaceID: String
    public var payerAccountID: String
    public var method: Method
    public var amountMinor: Int64
    public var currencyCode: String

    public init(marketplaceID: String, payerAccountID: String, method: Method, amountMinor: Int64, currencyCode: String) {
        self.marketplaceID = marketplaceID
        self.payerAccountID = payerAccountID
        self.method = method
        self.amountMinor = amountMinor
        self.currencyCode = currencyCode
    }
}

/// A gateway's answer to an authorization.
public enum GatewayAuthorizationResult: Sendable, Hashable {
    /// The amount is held; `reference` is the gateway's name for it, shown on the payment.
    case authorized(reference: String, cardBrand: String, cardLast4: String)
    /// The payer's bank or wallet refused; `reason` is shown to the payer.
    case declined(reason: String)
    /// The token is not one this payer may use (unknown, expired, used or malformed).
    case invalidToken(String)
}

/// A gateway's answer to a capture, void or refund.
public enum GatewaySettlement: Sendable, Hashable {
    case done
    /// The gateway will never do it (a capture of a voided authorization, a refund above what was
    /// captured): a person must look at it.
    case refused(String)
}
