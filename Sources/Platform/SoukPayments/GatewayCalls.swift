import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Souk's own record of a call it makes to the payment gateway: an authorization, written by the
/// transaction that commits its payment (or when it is declined or voided), or a refund, written
/// by the refunding transaction before the gateway is called. An authorization is not recorded
/// before it is made: the gateway lists the ones it holds (`PaymentGateway.openAuthorizations`),
/// and `PaymentRecovery` voids those no record commits. Server-only: it never leaves the server,
/// so it is a record of its own and no message of the contract.
struct GatewayCallRecord: Sendable {
    enum Kind: Int64, Sendable { case authorization = 1, refund = 2 }

    /// Where the call stands. `pending`, `voiding`, `authorized` and `refunding` still need the
    /// gateway and are due for recovery; `committed` needs it until the gateway no longer lists
    /// it as open; the others are final.
    enum State: Int64, Sendable {
        /// Recorded before `authorize` (by earlier versions, which recorded each authorization
        /// beforehand); no payment references it.
        case pending = 1
        /// No payment will reference it: it is being voided.
        case voiding = 2
        case voided = 3
        /// The gateway declined it, or refused the token.
        case declined = 4
        /// The payment that references it committed with it, recorded by earlier versions (which
        /// recorded the capture as well); the capture is not recorded yet.
        case authorized = 5
        case captured = 6
        /// A refund committed on the payment; the gateway has not confirmed it yet.
        case refunding = 7
        case refunded = 8
        /// The gateway will not do it (`note` says why): a person must look at it.
        case refused = 9
        /// The payment that references it committed with it. Captured once the call answered, or
        /// by `PaymentRecovery` while the gateway still lists it as open; the capture is not
        /// recorded here (the gateway's list says whether it is done), so a checkout writes this
        /// record once.
        case committed = 10

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
    /// The key for the next authorization of the call `scope` (marketplace, account and request
    /// id): the scope and the number of the attempt, the first one with no record, so a request
    /// sent again after a decline or a void authorizes afresh. A read, no transaction: two runs of
    /// one request at once may take the same key, and the gateway answers both with one
    /// authorization, which at most one payment commits (the request id's idempotency record).
    static func nextKey(scope: String, store: Store) throws -> String {
        var attempt = 1
        while try get("\(scope)/\(attempt)", store: store) != nil { attempt += 1 }
        return "\(scope)/\(attempt)"
    }

    /// In the paying transaction: the authorization `authorized` backs payment `paymentID`.
    /// ABORTED when recovery claimed its key for voiding meanwhile (the call outlived the grace
    /// period); the record's lock orders the two.
    static func commit(_ authorized: TwoPhaseCharge.Authorized, paymentID: RecordID, transaction: Transaction) throws {
        guard try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(authorized.key)]) == nil else {
            throw RPCError.souk(.aborted, .concurrentChange, "the payment's authorization lapsed before the order was stored; try again")
        }
        try transaction.insert(GatewayCallTable.table, GatewayCallRecord(
            key: authorized.key, marketplaceID: authorized.request.marketplaceID, kind: .authorization, state: .committed,
            amountMinor: authorized.request.amountMinor, currencyCode: authorized.request.currencyCode, paymentID: paymentID.description,
            createTime: transaction.now, dueTime: transaction.now))
    }

    /// Records that the gateway declined the authorization `key` (or refused its token), so the
    /// request's next attempt takes another key.
    static func declined(_ key: String, _ request: GatewayAuthorizationRequest, note: String, store: Store) async throws {
        try await store.write { transaction in
            guard try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)]) == nil else { return }
            try transaction.insert(GatewayCallTable.table, GatewayCallRecord(
                key: key, marketplaceID: request.marketplaceID, kind: .authorization, state: .declined, amountMinor: request.amountMinor,
                currencyCode: request.currencyCode, createTime: transaction.now, dueTime: transaction.now, note: note))
        }
    }

    /// Claims the authorization `key` for voiding: records it as `voiding` when no payment
    /// committed it (none recorded, or a `pending` record of an earlier version), so its commit
    /// fails from then on. Returns the state found (nil when there was no record).
    static func claimForVoiding(_ key: String, store: Store) async throws -> GatewayCallRecord.State? {
        try await store.write { transaction in
            guard let call = try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)]) else {
                // Known only from the gateway: the key starts with the marketplace's id.
                let marketplaceID = key.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
                try transaction.insert(GatewayCallTable.table, GatewayCallRecord(
                    key: key, marketplaceID: marketplaceID, kind: .authorization, state: .voiding, amountMinor: 0, currencyCode: "",
                    createTime: transaction.now, dueTime: transaction.now))
                return nil
            }
            if call.value.state == .pending {
                try transaction.update(GatewayCallTable.table, call.id) {
                    $0.state = .voiding
                    $0.dueTime = transaction.now
                }
            }
            return call.value.state
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
