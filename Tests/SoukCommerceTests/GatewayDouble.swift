import Logging
import SoukKit
import SoukStore
import SoukTesting
import Synchronization

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukPayments

/// A payment gateway for tests: it records every call, answers like an idempotent provider
/// (a key seen before gets its first answer), and can be told to fail or stall each step.
final class GatewayDouble: PaymentGateway {
    enum Step: String, Sendable { case authorize, capture, void, refund }

    /// What a step does when called.
    enum Behavior: Sendable {
        case answer
        /// Throws, as a gateway that did not answer.
        case fail
        /// Waits until `release` (a call in flight while the test acts).
        case stall
    }

    struct Call: Sendable, Hashable {
        var step: Step
        var key: String
    }

    struct GatewayFailure: Error {}

    private struct State {
        var calls: [Call] = []
        var behaviors: [Step: Behavior] = [:]
        var released: Set<Step> = []
        var authorizations: [String: GatewayAuthorizationResult] = [:]
    }

    private let state = Mutex(State())

    func set(_ step: Step, _ behavior: Behavior) {
        state.withLock {
            $0.behaviors[step] = behavior
            $0.released.remove(step)
        }
    }

    /// Lets the calls stalled at `step` go on (and later ones pass).
    func release(_ step: Step) {
        state.withLock { _ = $0.released.insert(step) }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    func calls(_ step: Step) -> [String] { calls.filter { $0.step == step }.map(\.key) }

    /// Waits until `step` has been called `count` times.
    func waitFor(_ step: Step, count: Int = 1) async throws {
        while calls(step).count < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    private func enter(_ step: Step, _ key: String) async throws {
        let behavior = state.withLock { state -> Behavior in
            state.calls.append(Call(step: step, key: key))
            return state.behaviors[step] ?? .answer
        }
        switch behavior {
        case .answer: return
        case .fail: throw GatewayFailure()
        case .stall:
            while !state.withLock({ $0.released.contains(step) }) { try await Task.sleep(for: .milliseconds(1)) }
        }
    }

    func authorize(_ request: GatewayAuthorizationRequest, key: String) async throws -> GatewayAuthorizationResult {
        try await enter(.authorize, key)
        return state.withLock { state in
            if let first = state.authorizations[key] { return first }
            let result: GatewayAuthorizationResult = request.method == .cardToken("tok_decline")
                ? .declined(reason: "generic decline") : .authorized(reference: "double_" + key, cardBrand: "visa", cardLast4: "4242")
            state.authorizations[key] = result
            return result
        }
    }

    func capture(key: String) async throws -> GatewaySettlement {
        try await enter(.capture, key)
        return .done
    }

    func void(key: String) async throws -> GatewaySettlement {
        try await enter(.void, key)
        return .done
    }

    func refund(key: String, authorizationKey: String, amount: Int64) async throws -> GatewaySettlement {
        try await enter(.refund, key)
        return .done
    }
}

extension TwoPhaseCharge {
    /// A charge through the simulated gateway (kept in memory), for tests that store payments
    /// in transactions of their own.
    static func simulated(_ store: Store, marketplaceID: RecordID, payer: RecordID, requestID: String = RecordID.generate().description)
        -> TwoPhaseCharge
    {
        TwoPhaseCharge(
            marketplaceID: marketplaceID, accountID: payer, requestID: requestID,
            recovery: PaymentRecovery(store: store, gateway: SimulatedGateway(store: store), grace: .seconds(60), logger: DomainHarness.quietLogger))
    }
}
