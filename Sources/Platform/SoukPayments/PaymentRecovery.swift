import Logging
import SoukKit
import SoukStore
import Synchronization

/// Settles the gateway calls that their own call left unsettled (a crash, a gateway that did not
/// answer, a refund committed in another domain's transaction): an authorization no committed
/// payment references is voided, one a committed payment references is captured, a refund is
/// sent. Every step is idempotent at the gateway, so settling twice is harmless.
public final class PaymentRecovery: Sendable {
    let store: Store
    let gateway: any PaymentGateway
    /// How long a call may take between recording its intent and committing it before recovery
    /// takes an authorization for abandoned.
    let grace: Duration
    let logger: Logger
    /// Authorizations captured whose capture is not stored yet. A paying call does not wait for
    /// that write: `runDue` stores them together, and one a crash forgets is captured again
    /// (harmlessly) once due.
    private let capturedUnrecorded = Mutex<[String]>([])

    init(store: Store, gateway: any PaymentGateway, grace: Duration, logger: Logger) {
        self.store = store
        self.gateway = gateway
        self.grace = grace
        self.logger = logger
    }

    /// Settles every gateway call due at `now` (pending past its grace period, or waiting for
    /// the gateway); returns how many it settled. At start `now` may be far ahead: no call of
    /// the previous process is still running.
    @discardableResult
    public func runDue(now: StoreTime) async throws -> Int {
        try await recordCaptures()
        var settled = 0
        var token: String? = nil
        repeat {
            let page = try store.list(
                GatewayCallTable.table, GatewayCallTable.due, .prefix([], before: [.time(now)]), page: PageRequest(size: 100, token: token))
            for call in page.items where await settle(call.value.key) { settled += 1 }
            // A call that could not be settled stays in the index until the next run.
            token = page.nextPageToken
        } while token != nil
        try await recordCaptures()
        return settled
    }

    /// Stores the captures noted since the last time, in one transaction.
    func recordCaptures() async throws {
        let keys = capturedUnrecorded.withLock { keys in
            defer { keys.removeAll() }
            return keys
        }
        guard !keys.isEmpty else { return }
        do {
            try await store.write { transaction in
                for key in keys {
                    guard let call = try transaction.get(GatewayCallTable.table, unique: GatewayCallTable.byKey, [.string(key)]),
                          call.value.state == .authorized
                    else { continue }
                    try transaction.update(GatewayCallTable.table, call.id) {
                        $0.state = .captured
                        $0.dueTime = transaction.now
                    }
                }
            }
        } catch {
            capturedUnrecorded.withLock { $0.append(contentsOf: keys) }
            throw error
        }
    }

    /// Brings the call `key` to a final state as far as the gateway allows; returns whether it
    /// got there. Failures are logged and left for the next run.
    @discardableResult
    func settle(_ key: String) async -> Bool {
        do {
            return try await settleOrThrow(key)
        } catch {
            logger.warning("a payment gateway call stays unsettled", metadata: ["key": "\(key)", "error": "\(error)"])
            return false
        }
    }

    private func settleOrThrow(_ key: String) async throws -> Bool {
        guard let call = try GatewayCalls.get(key, store: store)?.value else { return false }
        switch call.state {
        case .pending, .voiding:
            // Claimed for voiding first, so the paying transaction, which needs it pending, fails.
            guard let found = try await GatewayCalls.move(key, from: [.pending], to: .voiding, store: store) else { return false }
            if found == .authorized { return try await settleOrThrow(key) }
            guard [.pending, .voiding].contains(found) else { return true }
            return try await finish(key, try await gateway.void(key: key), from: .voiding, to: .voided)
        case .authorized:
            let outcome = try await gateway.capture(key: key)
            guard outcome == .done else { return try await finish(key, outcome, from: .authorized, to: .captured) }
            capturedUnrecorded.withLock { $0.append(key) }
            return true
        case .refunding:
            // A refund returns captured money: the authorization's capture comes first.
            if let authorization = try GatewayCalls.get(call.authorizationKey, store: store), authorization.value.state == .authorized {
                guard try await settleOrThrow(call.authorizationKey) else { return false }
            }
            let outcome = try await gateway.refund(key: key, authorizationKey: call.authorizationKey, amount: call.amountMinor)
            return try await finish(key, outcome, from: .refunding, to: .refunded)
        case .voided, .declined, .captured, .refunded, .refused:
            return true
        }
    }

    private func finish(_ key: String, _ outcome: GatewaySettlement, from: GatewayCallRecord.State, to: GatewayCallRecord.State) async throws -> Bool {
        switch outcome {
        case .done:
            try await GatewayCalls.move(key, from: [from], to: to, store: store)
        case .refused(let why):
            logger.error("the payment gateway refused a call; it needs a person", metadata: ["key": "\(key)", "reason": "\(why)"])
            try await GatewayCalls.move(key, from: [from], to: .refused, note: why, store: store)
        }
        return true
    }
}
