import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A payment as stored: its own record (`souk.store.v1.Payment`, without the id, version and
/// times, which the envelope holds) and its marketplace. RPCs answer with `PaymentProjection`.
public typealias PaymentRecord = MarketRecord<SoukStoreV1.Payment>

extension SoukV1.Payment: StampedMessage {}

/// Payments, with the index of each list `Payments.ListPayments` serves (newest first is a
/// descending scan: entries end with the payment's version 7 id).
enum PaymentTable {
    static let byMarketplace = Index<PaymentRecord>.nonUnique("payments.marketplace") { [.string($0.marketplaceID)] }
    static let byPayer = Index<PaymentRecord>.nonUnique("payments.payer") { [.string($0.marketplaceID), .string($0.subject.payerAccountID)] }
    static let byPayee = Index<PaymentRecord>.nonUnique("payments.payee") {
        $0.subject.payeeAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.payeeAccountID)]
    }
    static let byCollector = Index<PaymentRecord>.nonUnique("payments.collector") {
        $0.subject.collectedByAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.collectedByAccountID)]
    }
    static let byTarget = Index<PaymentRecord>.nonUnique("payments.target") {
        [.string($0.marketplaceID), .string($0.subject.target?.id ?? "")]
    }
    static let byStatus = Index<PaymentRecord>.nonUnique("payments.status") { [.string($0.marketplaceID), .enumCase($0.subject.status)] }
    static let byMethod = Index<PaymentRecord>.nonUnique("payments.method") { [.string($0.marketplaceID), .enumCase($0.subject.method)] }

    static let table = marketTable(
        "payments", SoukStoreV1.Payment.self, indexes: [byMarketplace, byPayer, byPayee, byCollector, byTarget, byStatus, byMethod])
}

/// A card token of the simulated gateway: what it keeps of the card, and whether the token was
/// used. Looked up by the hash of its text, so the store never holds a usable token.
struct CardTokenRecord: Sendable {
    var marketplaceID: String
    var accountID: RecordID
    var tokenHash: [UInt8]
    var brand: String
    var last4: String
    var expiryMonth: Int32
    var expiryYear: Int32
    var expiry: StoreTime
    var used: Bool
}

enum CardTokenTable {
    static let byToken = Index<CardTokenRecord>.unique("card_tokens.token") { [.bytes($0.tokenHash)] }
    static let table = Table(
        "card_tokens",
        codec: FieldCodec<CardTokenRecord>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.id(value.accountID)
                writer.data(value.tokenHash)
                writer.string(value.brand)
                writer.string(value.last4)
                writer.int(Int64(value.expiryMonth))
                writer.int(Int64(value.expiryYear))
                writer.time(value.expiry)
                writer.bool(value.used)
            },
            read: { reader in
                CardTokenRecord(
                    marketplaceID: try reader.string(), accountID: try reader.id(), tokenHash: try reader.bytesValue(),
                    brand: try reader.string(), last4: try reader.string(), expiryMonth: Int32(try reader.int()),
                    expiryYear: Int32(try reader.int()), expiry: try reader.time(), used: try reader.bool())
            }),
        indexes: [byToken])

    static func hash(_ token: String) -> [UInt8] { TokenHash(of: token).bytes }
}

extension PaymentTable {
    static var all: [AnyTable] { [table.erased, CardTokenTable.table.erased, GatewayCallTable.table.erased] }
}
