import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The simulated gateway's tokenization: the only place card details arrive. They are checked,
/// reduced to brand, last four and expiry, and never logged.
extension PaymentGatewayService {
    func createCardToken(_ request: SoukV1.CreateCardTokenRequest, _ call: SoukCall) async throws -> SoukV1.CardToken {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard let card = request.card else { throw RPCError.invalidField("card", "is required") }
        let token = SimulatedGateway.newToken()
        let hash = CardTokenTable.hash(token)
        let stored = try await store.write { transaction in
            let checked = try SimulatedGateway.check(card, now: transaction.now)
            let expiry = StoreTime(
                microsecondsSinceEpoch: transaction.now.microsecondsSinceEpoch + SimulatedGateway.tokenLifetime.components.seconds * 1_000_000)
            return try transaction.insert(CardTokenTable.table, CardTokenRecord(
                marketplaceID: marketplaceID.description, accountID: caller.accountID, tokenHash: hash, brand: checked.brand,
                last4: checked.last4, expiryMonth: checked.expiryMonth, expiryYear: checked.expiryYear, expiry: expiry, used: false)).value
        }
        return SoukV1.CardToken(
            token: token, cardBrand: stored.brand, cardLast4: stored.last4, expiryMonth: stored.expiryMonth, expiryYear: stored.expiryYear,
            expireTime: Timestamp(stored.expiry))
    }
}
