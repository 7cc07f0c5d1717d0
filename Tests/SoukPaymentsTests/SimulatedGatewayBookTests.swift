import SoukKit
import SoukStore
import SoukTesting
import Testing

@testable import SoukPayments

/// The simulated gateway answers as an idempotent provider and keeps what it answered in its
/// journal, so a gateway started again on the same file (a server restarted) knows it.
@Suite struct SimulatedGatewayBookTests {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Payments.self], makeDomains: { identity in [Payments(store: identity.store)] })
    }

    func request(_ token: String) -> GatewayAuthorizationRequest {
        GatewayAuthorizationRequest(marketplaceID: "m", payerAccountID: "a", method: .cardToken(token), amountMinor: 1000, currencyCode: "MYR")
    }

    @Test func aKeySeenBeforeGetsItsFirstAnswerAfterARestart() async throws {
        let journal = harness.directory.sub("gateway.jsonl")
        let gateway = SimulatedGateway(store: harness.store, book: try SimulatedGatewayBook(journalPath: journal))
        guard case .authorized(let reference, _, let last4) = try await gateway.authorize(request("tok_visa"), key: "k1") else {
            Issue.record("tok_visa is authorized")
            return
        }
        #expect(last4 == "4242")
        #expect(try await gateway.capture(key: "k1") == .done)
        #expect(try await gateway.authorize(request("tok_decline"), key: "k2") == .declined(reason: "generic decline"))
        // Voided before its authorization arrived: the late authorization is refused.
        #expect(try await gateway.void(key: "k3") == .done)

        let restarted = SimulatedGateway(store: harness.store, book: try SimulatedGatewayBook(journalPath: journal))
        #expect(try await restarted.authorize(request("tok_visa"), key: "k1") == .authorized(reference: reference, cardBrand: "visa", cardLast4: "4242"))
        #expect(try await restarted.capture(key: "k1") == .done)
        #expect(try await restarted.void(key: "k1") != .done)
        #expect(try await restarted.authorize(request("tok_visa"), key: "k2") == .declined(reason: "generic decline"))
        guard case .declined = try await restarted.authorize(request("tok_visa"), key: "k3") else {
            Issue.record("a voided key is never authorized")
            return
        }
        #expect(try await restarted.refund(key: "r1", authorizationKey: "k1", amount: 600) == .done)
        #expect(try await restarted.refund(key: "r1", authorizationKey: "k1", amount: 600) == .done)
        #expect(try await restarted.refund(key: "r2", authorizationKey: "k1", amount: 600) != .done)
        #expect(restarted.book.entry("k1")?.refundedMinor == 600)
    }
}
