import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Souk's own record of a call it makes to the payment gateway (an authorization, with the
/// payment that commits it, or a refund), written before the call in a transaction of its own,
/// so that whatever a crash interrupts, `PaymentRecovery` finds it and settles it. Server-only:
/// it never leaves the server, so it is a record of its own and no message of the contract.
struct GatewayCallRecord: Sendable {
    enum Kind: Int64, Sendable { case authorization = 1, refund = 2 }

    /// Where the call stands. `pending`, `voiding`, `authorized` and `refunding` still need the
    /// gateway and are due for recovery; the others are final.
    enum State: Int64, Sendable {
        /// Recorded before `authorize`; no payment references it yet.
        case pending = 1
        /// No payment will reference it: it is being voided.
        case voiding = 2
        case voided = 3
        /// The gateway declined it, or refused the token.
        case declined = 4
        /// The payment that references it committed; the capture is not recorded yet.
        case authorized = 5
        case captured = 6
        /// A refund committed on the payment; the gateway has not confirmed it yet.
        case refunding = 7
        case refunded = 8
        /// The gateway will not do it (`note` says why): a person must look at it.
        case refused = 9

        var needsGateway: Bool { [.pending, .voiding, .authorized, .refunding].contains(self) }
    }

    /// The idempotency key of the gateway call.
    var key: String
    var marketplaceID: String
    var kind: Kind
    var state: State
    var amountMinor: Int64
    var currencyCode: String
    /// The payment committed with the authorization, or the payment refunded.
    var paymentID: String = ""
    /// Of a refund: the key of the authorization it returns money from.
    var authorizationKey: String = ""
    var createTime: StoreTime
    /// When `PaymentRecovery` settles it if the call that made it has not.
    var dueTime: StoreTime
    /// Why it was declined or refused.
    var note: String = ""
}

enum GatewayCallTable {
    static let byKey = Index<GatewayCallRecord>.unique("gateway_calls.key") { [.string($0.key)] }
    /// The authorization a payment committed with.
    static let byPayment = Index<GatewayCallRecord>.unique("gateway_calls.payment") {
        $0.kind == .authorization && !$0.paymentID.isEmpty ? [.string($0.paymentID)] : nil
    }
    /// The calls still needing the gateway, by when recovery may settle them.
    static let due = Index<GatewayCallRecord>.nonUnique("gateway_calls.due") { $0.state.needsGateway ? [.time($0.dueTime)] : nil }

    static let table = Table(
        "gateway_calls",
        codec: FieldCodec<GatewayCallRecord>(
            write: { value, writer in
                writer.string(value.key)
                writer.string(value.marketplaceID)
                writer.int(value.kind.rawValue)
                writer.int(value.state.rawValue)
                writer.int(value.amountMinor)
                writer.string(value.currencyCode)
                writer.string(value.paymentID)
                writer.string(value.authorizationKey)
                writer.time(value.createTime)
                writer.time(value.dueTime)
                writer.string(value.note)
            },
            read: { reader in
                let key = try reader.string()
                let marketplaceID = try reader.string()
                guard let kind = GatewayCallRecord.Kind(rawValue: try reader.int()),
                      let state = GatewayCallRecord.State(rawValue: try reader.int())
                else { throw RecordCodingError("a gateway call of an unknown kind or state") }
                return GatewayCallRecord(
                    key: key, marketplaceID: marketplaceID, kind: kind, state: state, amountMinor: try reader.int(),
                    currencyCode: try reader.string(), paymentID: try reader.string(), authorizationKey: try reader.string(),
                    createTime: try reader.time(), dueTime: try reader.time(), note: try reader.string())
            }),
        indexes: [byKey, byPayment, due])
}

/// The steps of `GatewayCallRecord`s that charging and refunding transactions take.
enum GatewayCalls {
    /// Records, in a transaction of its own, the intent to authorize `request` for the call
    /// `scope` (marketplace, account and request id) and returns its key: the scope and the
    /// number of the attempt, so a request sent again after a failure authorizes afresh.
    static func begin(scope: String, _ request: GatewayAuthorizationRequest, grace: Duration, store: Store) async throws -> String {
        try await store.write { transaction in
            var attempt = 1
            while try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string("\(scope)/\(attempt)")]) != nil {
                attempt += 1
            }
            let key = "\(scope)/\(attempt)"
            try transaction.insert(GatewayCallTable.table, GatewayCallRecord(
                key: key, marketplaceID: request.marketplaceID, kind: .authorization, state: .pending, amountMinor: request.amountMinor,
                currencyCode: request.currencyCode, createTime: transaction.now, dueTime: transaction.now.adding(grace)))
            return key
        }
    }

    /// In the paying transaction: the authorization `key` now backs payment `paymentID`. ABORTED
    /// when it was voided meanwhile (recovery found it past its grace period).
    static func commit(_ key: String, paymentID: RecordID, grace: Duration, transaction: Transaction) throws {
        guard let call = try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)]),
              call.value.state == .pending
        else {
            throw RPCError.souk(.aborted, .concurrentChange, "the payment's authorization lapsed before the order was stored; try again")
        }
        try transaction.update(GatewayCallTable.table, call.id) {
            $0.state = .authorized
            $0.paymentID = paymentID.description
            $0.dueTime = transaction.now.adding(grace)
        }
    }

    /// In a refunding transaction: the refund `refundID` of `amount` minor units of payment
    /// `paymentID` is due at the gateway now. Nothing for a payment no authorization backs (cash,
    /// payouts).
    static func queueRefund(paymentID: RecordID, refundID: String, amount: Int64, transaction: Transaction) throws {
        guard let authorization = try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byPayment, [.string(paymentID.description)])
        else { return }
        try transaction.insert(GatewayCallTable.table, GatewayCallRecord(
            key: "refund/\(refundID)", marketplaceID: authorization.value.marketplaceID, kind: .refund, state: .refunding,
            amountMinor: amount, currencyCode: authorization.value.currencyCode, paymentID: paymentID.description,
            authorizationKey: authorization.value.key, createTime: transaction.now, dueTime: transaction.now))
    }

    /// The call recorded under `key`.
    static func get(_ key: String, store: Store) throws -> StoredRecord<GatewayCallRecord>? {
        try store.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)])
    }

    /// Moves the call `key` from one of `from` to `to` (with `note`); returns the state it found.
    @discardableResult
    static func move(_ key: String, from: Set<GatewayCallRecord.State>, to: GatewayCallRecord.State, note: String = "", store: Store) async throws
        -> GatewayCallRecord.State?
    {
        try await store.write { transaction in
            guard let call = try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)]) else { return nil }
            if from.contains(call.value.state) {
                try transaction.update(GatewayCallTable.table, call.id) {
                    $0.state = to
                    $0.note = note
                    $0.dueTime = transaction.now
                }
            }
            return call.value.state
        }
    }
}
