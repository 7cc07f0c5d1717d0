import Logging
import SoukKit
import SoukStore
import Synchronization

/// Settles the gateway calls that their own call left unsettled (a crash, a gateway that did not
/// answer, a refund committed in another domain's transaction), found in Souk's records and in
/// the gateway's list of the authorizations it still holds: an authorization no committed
/// payment references is voided, one a committed payment references is captured, a refund is
/// sent. Every step is idempotent at the gateway, so settling twice is harmless.
public final class PaymentRecovery: Sendable {
    let store: Store
    let gateway: any PaymentGateway
    /// How long a call may take between authorizing and committing before recovery
    /// takes an authorization for abandoned.
    let grace: Duration
    let logger: Logger
    /// Authorizations recorded `authorized` (by earlier versions) captured whose capture is not
    /// stored yet: `runDue` stores them together, and one a crash forgets is captured again
    /// (harmlessly) once due.
    private let capturedUnrecorded = Mutex<[String]>([])
    /// The settlements started by `settleSoon` and not finished, by number.
    private let settling = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    init(store: Store, gateway: any PaymentGateway, grace: Duration, logger: Logger) {
        self.store = store
        self.gateway = gateway
        self.grace = grace
        self.logger = logger
    }

    /// Settles every gateway call due at `now` (recorded as waiting for the gateway, or an
    /// authorization the gateway has held for longer than the grace period); returns how many
    /// it settled. At start `now` may be far ahead: no call of the previous process is still running.
    @discardableResult
    public func runDue(now: StoreTime) async throws -> Int {
        try await recordCaptures()
        var settled = 0
        var seen = Set<String>()
        var token: String? = nil
        repeat {
            let page = try store.list(
                GatewayCallTable.table, GatewayCallTable.due, .prefix([], before: [.time(now)]), page: PageRequest(size: 100, token: token))
            for call in page.items where seen.insert(call.value.key).inserted {
                if await settle(call.value.key) { settled += 1 }
            }
            // A call that could not be settled stays in the index until the next run.
            token = page.nextPageToken
        } while token != nil
        for key in try await gateway.openAuthorizations(createdBefore: now.adding(.zero - grace)) where seen.insert(key).inserted {
            if await settle(key) { settled += 1 }
        }
        try await recordCaptures()
        return settled
    }

    /// Settles `key` in a task of its own: the capture of a committed payment's authorization,
    /// which the paying call does not wait for (a crash first leaves it open at the gateway and
    /// `runDue` captures it).
    func settleSoon(_ key: String) {
        settling.withLock { settling in
            let number = settling.next
            settling.next += 1
            settling.tasks[number] = Task {
                await self.settle(key)
                _ = self.settling.withLock { $0.tasks.removeValue(forKey: number) }
            }
        }
    }

    /// Waits for the settlements `settleSoon` started (tests). A server that stops without waiting
    /// leaves them to recovery: the authorizations stay open at the gateway.
    public func finishSettling() async {
        while let task = settling.withLock({ $0.tasks.values.first }) { await task.value }
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
        // No record: an authorization no payment committed (yet), known from its call or the gateway's list.
        let call = try GatewayCalls.get(key, store: store)?.value
        switch call?.state {
        case nil, .pending?, .voiding?:
            // Claimed for voiding first, so a paying transaction still to commit it fails.
            let found = try await GatewayCalls.claimForVoiding(key, store: store)
            if found == .authorized || found == .committed { return try await settleOrThrow(key) }
            guard found == nil || [.pending, .voiding].contains(found) else { return true }
            return try await finish(key, try await gateway.void(key: key), from: .voiding, to: .voided)
        case .committed?:
            let outcome = try await gateway.capture(key: key)
            guard outcome == .done else { return try await finish(key, outcome, from: .committed, to: .captured) }
            return true
        case .authorized?:
            let outcome = try await gateway.capture(key: key)
            guard outcome == .done else { return try await finish(key, outcome, from: .authorized, to: .captured) }
            capturedUnrecorded.withLock { $0.append(key) }
            return true
        case .refunding?:
            guard let call else { return false }
            // A refund returns captured money: the authorization's capture comes first.
            if let authorization = try GatewayCalls.get(call.authorizationKey, store: store),
               [.authorized, .committed].contains(authorization.value.state)
            {
                guard try await settleOrThrow(call.authorizationKey) else { return false }
            }
            let outcome = try await gateway.refund(key: key, authorizationKey: call.authorizationKey, amount: call.amountMinor)
            return try await finish(key, outcome, from: .refunding, to: .refunded)
        case .voided?, .declined?, .captured?, .refunded?, .refused?:
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
