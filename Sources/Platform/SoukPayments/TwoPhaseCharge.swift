import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Synchronization

/// One charging call's card or wallet payment, in two phases around the call's transaction,
/// which may run several times (`Store.write` retries a collision), so it never calls the gateway:
///
/// 1. The transaction runs until its charge, which throws `AuthorizationNeeded` with what to
///    authorize; it rolls back. (A cash payment, a replayed request or a refusal ends here.)
/// 2. The gateway authorizes it under a key of the call (`GatewayCalls.nextKey`, a read). Nothing
///    is written first: a crash from here on leaves an authorization the gateway lists as open,
///    and `PaymentRecovery` voids it, since no committed payment names it.
/// 3. The transaction runs again: its charge finds the authorization, stores the payment and the
///    record of the authorization it committed with (`GatewayCalls.commit`), unless recovery
///    claimed the key for voiding meanwhile.
/// 4. The authorization is settled: voided before the call answers when the payment did not
///    commit (a failure), captured after it answers when it did. The committed record is the
///    promise of the capture: a crash before it leaves the authorization open at the gateway,
///    and recovery captures it.
public final class TwoPhaseCharge: Sendable {
    /// An authorization the transaction may commit.
    struct Authorized: Sendable {
        var key: String
        var request: GatewayAuthorizationRequest
        var reference: String
        var cardBrand: String
        var cardLast4: String
    }

    /// Thrown by a charge that has no authorization for its request yet.
    struct AuthorizationNeeded: Error {
        var request: GatewayAuthorizationRequest
        /// The request field that names the token, for a token the gateway refuses.
        var tokenField: String
    }

    /// The marketplace, account and request id of the call: its authorizations' keys start with it.
    let scope: String
    let recovery: PaymentRecovery
    private let current = Mutex<Authorized?>(nil)

    init(marketplaceID: RecordID, accountID: RecordID, requestID: String, recovery: PaymentRecovery) {
        scope = "\(marketplaceID)/\(accountID)/\(requestID)"
        self.recovery = recovery
    }

    /// Runs the call's transaction `write` through the phases above and returns its result.
    public func run<T: Sendable>(_ write: @Sendable () async throws -> T) async throws -> T {
        var authorizations = 0
        while true {
            let value: T
            do {
                value = try await write()
            } catch let needed as AuthorizationNeeded {
                // The charge changed since the last authorization (a price moved between the runs): that one is voided.
                if let previous = current.withLock({ $0 }) { await recovery.settle(previous.key) }
                authorizations += 1
                guard authorizations <= 3 else {
                    throw RPCError.souk(.aborted, .concurrentChange, "the amount to pay kept changing; try again")
                }
                try await authorize(needed)
                continue
            } catch {
                if let failed = current.withLock({ $0 }) { await recovery.settle(failed.key) }
                throw error
            }
            // Captured (or, for an answer replayed from another call, voided) after the call answers.
            if let committed = current.withLock({ $0 }) { recovery.settleSoon(committed.key) }
            return value
        }
    }

    /// The authorization of `request`, for the charge inside the transaction; throws
    /// `AuthorizationNeeded` when there is none for exactly this request.
    func authorization(for request: GatewayAuthorizationRequest, tokenField: String) throws -> Authorized {
        guard let authorized = current.withLock({ $0 }), authorized.request == request else {
            throw AuthorizationNeeded(request: request, tokenField: tokenField)
        }
        return authorized
    }

    private func authorize(_ needed: AuthorizationNeeded) async throws {
        current.withLock { $0 = nil }
        let store = recovery.store
        let key = try GatewayCalls.nextKey(scope: scope, store: store)
        let result: GatewayAuthorizationResult
        do {
            result = try await recovery.gateway.authorize(needed.request, key: key)
        } catch {
            await recovery.settle(key)
            if error is CancellationError { throw error }
            throw RPCError.souk(.unavailable, .unavailable, "the payment gateway did not answer; nothing was charged, try again")
        }
        switch result {
        case .authorized(let reference, let brand, let last4):
            current.withLock { $0 = Authorized(key: key, request: needed.request, reference: reference, cardBrand: brand, cardLast4: last4) }
        case .declined(let reason):
            try await GatewayCalls.declined(key, needed.request, note: reason, store: store)
            throw RPCError.souk(.failedPrecondition, .paymentDeclined, "the payment was declined: \(reason)")
        case .invalidToken(let problem):
            try await GatewayCalls.declined(key, needed.request, note: problem, store: store)
            throw RPCError.invalidField(needed.tokenField, problem, reason: .paymentTokenInvalid)
        }
    }
}
