import Dispatch
import SoukGRPC
import SoukKit
import SoukNotifications
import SoukMessages
import SoukStore
import SoukTesting
import Synchronization
import Testing

import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukPayments

/// Payments in two phases (`TwoPhaseCharge`, `PaymentRecovery`) against a gateway double that
/// records every call: the gateway is called outside the retried transaction, a failed commit
/// voids, and recovery settles what a crash left.
@Suite struct TwoPhasePaymentTests {
    /// Counts the runs of one transaction body.
    final class Runs: Sendable {
        private let count = Atomic(0)
        func next() { count.wrappingAdd(1, ordering: .sequentiallyConsistent) }
        var total: Int { count.load(ordering: .sequentiallyConsistent) }
    }

    let gateway: GatewayDouble
    let harness: DomainHarness
    let recovery: PaymentRecovery
    let marketplaceID = RecordID.generate()
    let payer = RecordID.generate()

    init() throws {
        let gateway = GatewayDouble()
        self.gateway = gateway
        // A short lock timeout, so a transaction that waits for a held record is retried soon.
        harness = try DomainHarness(
            domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], configureStore: { $0.lockTimeout = .milliseconds(20); $0.maxAttempts = 50 },
            makeDomains: { identity in [Payments(store: identity.store, gateway: gateway), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store)) })
        gateway.use(harness.clock)
        recovery = PaymentRecovery(store: harness.store, gateway: gateway, grace: .seconds(60), logger: DomainHarness.quietLogger)
    }

    func attempt(_ requestID: String) -> TwoPhaseCharge {
        TwoPhaseCharge(marketplaceID: marketplaceID, accountID: payer, requestID: requestID, recovery: recovery)
    }

    func newProduct(stock: Int32) async throws -> RecordID {
        var wine = SoukStoreV1.Product()
        wine.name = "Barbera d'Alba"
        wine.price = .init(amountMinor: 1000, currencyCode: "MYR")
        wine.stock = stock
        wine.available = true
        let record = ProductRecord(marketplaceID: marketplaceID.description, wine)
        return try await harness.store.write { try $0.insert(ProductTable.table, record) }.id
    }

    func stock(_ product: RecordID) throws -> Int32? { try harness.store.get(ProductTable.table, product)?.value.subject.stock }

    /// One transaction that takes a bottle of `product` and charges 10.00 MYR for it, through
    /// `charge`'s two phases; `runs` counts the runs of its body. Returns once the capture that
    /// follows the call's answer is done.
    func buy(_ product: RecordID, _ charge: TwoPhaseCharge, runs: Runs, awaitingCapture: Bool = true) async throws
        -> StoredRecord<PaymentRecord>
    {
        let (store, marketplaceID, payer) = (harness.store, marketplaceID, payer)
        let payment = try await charge.run { try await store.write { transaction in
            runs.next()
            let current = try transaction.require(ProductTable.table, product).value.subject
            guard current.stock > 0 else { throw CartView.outOfStock(current, id: product, wanted: 1) }
            try transaction.update(ProductTable.table, product) { $0.subject.stock -= 1 }
            return try PaymentLedger.charge(
                .init(method: .cardToken("tok_visa")), field: "payment",
                .init(marketplaceID: marketplaceID, marketplace: SoukV1.Marketplace(), target: .init(type: .order, id: product.description),
                      payer: payer, payee: "", amount: .init(amountMinor: 1000, currencyCode: "MYR")),
                actor: .system("test"), attempt: charge, transaction: transaction)
        } }
        if awaitingCapture { await recovery.finishSettling() }
        return payment
    }

    func call(_ key: String) throws -> GatewayCallRecord? { try GatewayCalls.get(key, store: harness.store)?.value }

    /// The committing run of the transaction collides with a writer holding the product past the
    /// lock timeout and runs again: the gateway still sees one authorization and one capture.
    @Test func aTransactionRunAgainNeverAuthorizesOrCapturesTwice() async throws {
        let product = try await newProduct(stock: 5)
        gateway.set(.authorize, .stall)
        let runs = Runs()
        async let paid = buy(product, attempt("r-1"), runs: runs)
        try await gateway.waitFor(.authorize)
        // While the gateway authorizes, a writer takes the product's lock and keeps it.
        let held = Runs()
        let release = DispatchSemaphore(value: 0)
        let store = harness.store
        async let holder: Void = store.write { transaction in
            try transaction.update(ProductTable.table, product) { $0.subject.name += "" }
            held.next()
            _ = release.wait(timeout: .now() + .seconds(10))
        }
        while held.total == 0 { try await Task.sleep(for: .milliseconds(1)) }
        gateway.release(.authorize)
        // The first run stopped at the charge; the second timed out on the lock; wait for a third.
        while runs.total < 3 { try await Task.sleep(for: .milliseconds(1)) }
        release.signal()
        try await holder
        let payment = try await paid

        let key = try #require(gateway.calls(.authorize).first)
        #expect(gateway.calls == [.init(step: .authorize, key: key), .init(step: .capture, key: key)])
        #expect(runs.total >= 3)
        #expect(try stock(product) == 4)
        #expect(payment.value.subject.status == .successful && payment.value.subject.gatewayReference == "double_" + key)
        // The record says the payment committed with it; recovery finds nothing to do, before or after the grace period.
        #expect(try call(key)?.state == .committed && call(key)?.paymentID == payment.id.description)
        #expect(try await recovery.runDue(now: harness.clock.now) == 0)
        #expect(try await recovery.runDue(now: harness.clock.now.adding(.seconds(61))) == 0)
        #expect(gateway.calls.count == 2)
    }

    /// Nothing is recorded before the gateway authorizes, and the call answers before the
    /// capture: the committed record of the authorization is what the capture follows from.
    @Test func theCallAnswersBeforeTheCaptureAndRecordsNothingBeforeAuthorizing() async throws {
        let product = try await newProduct(stock: 5)
        gateway.set(.authorize, .stall)
        gateway.set(.capture, .stall)
        async let paid = buy(product, attempt("r-7"), runs: Runs(), awaitingCapture: false)
        try await gateway.waitFor(.authorize)
        let key = try #require(gateway.calls(.authorize).first)
        #expect(try call(key) == nil)
        gateway.release(.authorize)

        let payment = try await paid
        #expect(payment.value.subject.status == .successful)
        #expect(try call(key)?.state == .committed && call(key)?.paymentID == payment.id.description)
        try await gateway.waitFor(.capture)
        gateway.release(.capture)
        await recovery.finishSettling()
        #expect(gateway.calls == [.init(step: .authorize, key: key), .init(step: .capture, key: key)])
        #expect(try await gateway.openAuthorizations(createdBefore: harness.clock.now.adding(.seconds(1))).isEmpty)
    }

    /// A committed authorization whose capture failed after the answer stays open at the
    /// gateway: recovery captures it once past the grace period, found in the gateway's list.
    @Test func recoveryCapturesWhatTheCaptureAfterTheAnswerMissed() async throws {
        let product = try await newProduct(stock: 5)
        gateway.set(.capture, .fail)
        let payment = try await buy(product, attempt("r-8"), runs: Runs())
        let key = try #require(gateway.calls(.authorize).first)
        #expect(payment.value.subject.status == .successful && gateway.calls(.capture) == [key])
        #expect(try await recovery.runDue(now: harness.clock.now) == 0)
        gateway.set(.capture, .answer)
        #expect(try await recovery.runDue(now: harness.clock.now.adding(.seconds(61))) == 1)
        #expect(gateway.calls(.capture) == [key, key] && gateway.calls(.void).isEmpty)
        #expect(try await recovery.runDue(now: harness.clock.now.adding(.seconds(61))) == 0)
    }

    /// The commit fails after the authorization (the last bottle went meanwhile): the
    /// authorization is voided and never captured, and nothing is stored.
    @Test func aFailedCommitVoids() async throws {
        let product = try await newProduct(stock: 1)
        gateway.set(.authorize, .stall)
        let outcome = Task { [self] in try await buy(product, attempt("r-2"), runs: Runs()) }
        try await gateway.waitFor(.authorize)
        try await harness.store.write { try $0.update(ProductTable.table, product) { $0.subject.stock = 0 } }
        gateway.release(.authorize)

        let error = await #expect(throws: RPCError.self) { try await outcome.value }
        #expect(error?.soukReason == .outOfStock)
        let key = try #require(gateway.calls(.authorize).first)
        #expect(gateway.calls == [.init(step: .authorize, key: key), .init(step: .void, key: key)])
        #expect(try call(key)?.state == .voided && call(key)?.paymentID == "")
        #expect(try harness.store.list(PaymentTable.table, PaymentTable.byMarketplace).items.isEmpty)
    }

    /// A gateway that does not answer the authorization: the call fails UNAVAILABLE and the
    /// authorization, which may exist, is voided.
    @Test func anUnansweredAuthorizationIsVoided() async throws {
        let product = try await newProduct(stock: 1)
        gateway.set(.authorize, .fail)
        let error = await #expect(throws: RPCError.self) { try await buy(product, attempt("r-3"), runs: Runs()) }
        #expect(error?.code == .unavailable)
        let key = try #require(gateway.calls(.authorize).first)
        #expect(gateway.calls(.void) == [key] && gateway.calls(.capture).isEmpty)
        #expect(try stock(product) == 1)
    }

    /// What a crash leaves, with nothing recorded before the gateway was called: an authorization
    /// no payment references (the process died before its commit) and one a committed payment
    /// references (died before the capture). The gateway lists both as held. Within the grace
    /// period recovery leaves both; after it, it voids the first and captures the second, once.
    @Test func recoveryVoidsAnOrphanAndCapturesACommittedAuthorization() async throws {
        let store = harness.store
        let request = GatewayAuthorizationRequest(
            marketplaceID: marketplaceID.description, payerAccountID: payer.description, method: .cardToken("tok_visa"), amountMinor: 1000,
            currencyCode: "MYR")
        let orphan = try GatewayCalls.nextKey(scope: "crash/orphan", store: store)
        _ = try await gateway.authorize(request, key: orphan)
        let committed = try GatewayCalls.nextKey(scope: "crash/committed", store: store)
        guard case .authorized(let reference, let brand, let last4) = try await gateway.authorize(request, key: committed) else {
            Issue.record("the double authorizes tok_visa")
            return
        }
        let authorized = TwoPhaseCharge.Authorized(key: committed, request: request, reference: reference, cardBrand: brand, cardLast4: last4)
        let paymentID = RecordID.generate()
        try await store.write { try GatewayCalls.commit(authorized, paymentID: paymentID, transaction: $0) }
        #expect(try call(orphan) == nil)

        #expect(try await recovery.runDue(now: harness.clock.now) == 0)
        #expect(gateway.calls(.void).isEmpty && gateway.calls(.capture).isEmpty)

        let later = harness.clock.now.adding(.seconds(61))
        #expect(try await recovery.runDue(now: later) == 2)
        #expect(gateway.calls(.void) == [orphan] && gateway.calls(.capture) == [committed])
        #expect(try call(orphan)?.state == .voided && call(committed)?.state == .committed)
        #expect(try await recovery.runDue(now: later) == 0)
        #expect(gateway.calls.count == 4)
        // The call sent again authorizes under a new key.
        #expect(try GatewayCalls.nextKey(scope: "crash/orphan", store: store) == "crash/orphan/2")
    }

    /// A call whose authorization outlives the grace period (stalled at the gateway) is voided
    /// by recovery; when the call goes on, its commit is refused and nothing is stored.
    @Test func anAuthorizationVoidedByRecoveryCannotCommit() async throws {
        let product = try await newProduct(stock: 1)
        gateway.set(.authorize, .stall)
        let outcome = Task { [self] in try await buy(product, attempt("r-4"), runs: Runs()) }
        try await gateway.waitFor(.authorize)
        #expect(try await recovery.runDue(now: harness.clock.now.adding(.seconds(61))) == 1)
        gateway.release(.authorize)

        let error = await #expect(throws: RPCError.self) { try await outcome.value }
        #expect(error?.code == .aborted)
        let key = try #require(gateway.calls(.authorize).first)
        #expect(gateway.calls(.void) == [key] && gateway.calls(.capture).isEmpty)
        #expect(try stock(product) == 1)
    }

    /// A refund commits in the ledger, then recovery returns the money at the gateway, once.
    @Test func aRefundReachesTheGatewayOnce() async throws {
        let product = try await newProduct(stock: 1)
        let payment = try await buy(product, attempt("r-5"), runs: Runs())
        let marketplaceID = marketplaceID
        try await harness.store.write { transaction in
            try PaymentLedger.refund(
                payment.id, amount: 400, reason: "corked", by: "", actor: .system("test"), marketplaceID: marketplaceID, transaction: transaction)
        }
        let now = harness.clock.now
        #expect(try await recovery.runDue(now: now.adding(.seconds(1))) == 1)
        #expect(gateway.calls(.refund).count == 1)
        #expect(try await recovery.runDue(now: now.adding(.seconds(1))) == 0)
        #expect(gateway.calls(.refund).count == 1)
    }

    /// Cash never reaches the gateway.
    @Test func cashNeedsNoGateway() async throws {
        let charge = attempt("r-6")
        let (marketplaceID, payer) = (marketplaceID, payer)
        let payment = try await charge.run { try await harness.store.write { transaction in
            try PaymentLedger.charge(
                .init(method: .cash(.init())), field: "payment",
                .init(marketplaceID: marketplaceID, marketplace: SoukV1.Marketplace(), target: .init(type: .order, id: "o"), payer: payer,
                      payee: "", amount: .init(amountMinor: 1000, currencyCode: "MYR")),
                actor: .system("test"), attempt: charge, transaction: transaction)
        } }
        #expect(payment.value.subject.status == .pending && gateway.calls.isEmpty)
    }
}
