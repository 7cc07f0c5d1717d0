import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import Synchronization
import Testing

@testable import SoukPayments

/// `Payments.CreatePayment` through a registered target: the charge rule, idempotency,
/// ownership, and the ledger operations other domains use.
@Suite struct TargetPaymentTests {
    /// A bill kept in memory: what it owes, to whom, and the payment it recorded.
    final class MemoryBills: PayableTarget {
        struct Bill {
            var payer: RecordID
            var payee: RecordID
            var amount: Int64
            var paymentID = ""
            var refunded: Int64 = 0
        }
        let bills = Mutex<[String: Bill]>([:])

        func payer(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID {
            guard let bill = bills.withLock({ $0[id] }) else { throw RPCError.notFound("bill", id) }
            return bill.payer
        }

        func due(_ id: String, caller: Caller, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, transaction: Transaction) throws -> PayableDue {
            guard let bill = bills.withLock({ $0[id] }) else { throw RPCError.notFound("bill", id) }
            guard bill.paymentID.isEmpty else { throw RPCError.souk(.failedPrecondition, .alreadyPaid, "the bill is paid") }
            let fee = bill.amount / 100
            return PayableDue(
                target: SoukV1.ResourceRef(type: .bill, id: id), payer: bill.payer, payee: bill.payee.description,
                amount: .init(amountMinor: bill.amount, currencyCode: "VND"),
                split: .init(providerFee: .init(amountMinor: fee, currencyCode: "VND"), platformFee: .init(amountMinor: fee, currencyCode: "VND"),
                             payeeShare: .init(amountMinor: bill.amount - 2 * fee, currencyCode: "VND")))
        }

        func settle(_ id: String, payment: SoukV1.Payment, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
            bills.withLock { $0[id]?.paymentID = payment.id }
        }

        func refunded(_ id: String, payment: SoukV1.Payment, amount: Int64, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
            bills.withLock { $0[id]?.refunded += amount }
        }
    }

    let harness: DomainHarness
    let payables = PayableTargets()
    let bills = MemoryBills()

    init() throws {
        let payables = payables
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self], makeDomains: { identity in
            [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)]
        })
        payables.register(.bill, bills)
    }

    func pay(_ market: SoukV1.Marketplace, bill: String, method: SoukV1.PaymentMethodInput.Method, requestID: String, token: String) async throws -> SoukV1.Payment {
        try await harness.call("souk.v1.Payments", "CreatePayment", request(market, bill: bill, method: method, requestID: requestID), token: token)
    }

    func request(_ market: SoukV1.Marketplace, bill: String, method: SoukV1.PaymentMethodInput.Method, requestID: String) -> SoukV1.CreatePaymentRequest {
        SoukV1.CreatePaymentRequest(marketplaceID: market.id, requestID: requestID, target: .billID(bill), method: .init(method: method))
    }

    @Test func aBillIsPaidOnceWithItsSplitAndADeclineStoresNothing() async throws {
        let market = try await harness.marketplace(slug: "mara", vertical: .rentals, currency: "VND")
        let lessee = try await harness.signUp(market, email: "lessee@mara.example")
        let lessor = try await harness.signUp(market, email: "lessor@mara.example")
        let lesseeID = try #require(RecordID(lessee.account?.id ?? ""))
        let lessorID = try #require(RecordID(lessor.account?.id ?? ""))
        let token = try #require(lessee.session?.accessToken)
        bills.bills.withLock { $0["b1"] = .init(payer: lesseeID, payee: lessorID, amount: 5_000_001) }

        let declined = await harness.error("souk.v1.Payments", "CreatePayment",
            request(market, bill: "b1", method: .cardToken("tok_decline"), requestID: "pay-1"), token: token, as: SoukV1.Payment.self)
        #expect(declined?.code == .failedPrecondition)
        #expect(declined?.soukReason == .paymentDeclined)
        #expect(bills.bills.withLock { $0["b1"]?.paymentID } == "")

        let cash = await harness.error("souk.v1.Payments", "CreatePayment",
            request(market, bill: "b1", method: .cash(.init()), requestID: "pay-cash"), token: token, as: SoukV1.Payment.self)
        #expect(cash?.code == .invalidArgument)
        #expect(cash?.soukReason == .paymentMethodNotAccepted)

        let other = try #require(try await harness.signUp(market, email: "other@mara.example").session?.accessToken)
        let stranger = await harness.error("souk.v1.Payments", "CreatePayment",
            request(market, bill: "b1", method: .cardToken("tok_visa"), requestID: "pay-x"), token: other, as: SoukV1.Payment.self)
        #expect(stranger?.code == .permissionDenied)

        let paid = try await pay(market, bill: "b1", method: .cardToken("tok_visa"), requestID: "pay-2", token: token)
        #expect(paid.status == .successful)
        #expect(paid.amount?.amountMinor == 5_000_001)
        #expect(paid.payeeAccountID == lessorID.description)
        #expect(paid.split?.payeeShare?.amountMinor == Int64(4_900_001))
        #expect(bills.bills.withLock { $0["b1"]?.paymentID } == paid.id)
        // A retry of the same request answers the same payment; a new request finds it paid.
        let again = try await pay(market, bill: "b1", method: .cardToken("tok_visa"), requestID: "pay-2", token: token)
        #expect(again.id == paid.id)
        let twice = await harness.error("souk.v1.Payments", "CreatePayment",
            request(market, bill: "b1", method: .cardToken("tok_visa"), requestID: "pay-3"), token: token, as: SoukV1.Payment.self)
        #expect(twice?.soukReason == .alreadyPaid)
        let missing = await harness.error("souk.v1.Payments", "CreatePayment",
            request(market, bill: "nope", method: .cardToken("tok_visa"), requestID: "pay-4"), token: token, as: SoukV1.Payment.self)
        #expect(missing?.code == .notFound)
        let job = await harness.error("souk.v1.Payments", "CreatePayment",
            SoukV1.CreatePaymentRequest(marketplaceID: market.id, requestID: "pay-5", target: .jobID("j1"), method: .init(method: .cardToken("tok_visa"))),
            token: token, as: SoukV1.Payment.self)
        #expect(job?.code == .notFound)

        // An admin's refund reaches the target; the ledger's operations for other domains run in
        // their own transactions (a partial refund, a payout) and leave the target to them.
        let admin = try await harness.adminToken(market)
        let byAdmin: SoukV1.Payment = try await harness.call("souk.v1.Payments", "RefundPayment", SoukV1.RefundPaymentRequest(
            marketplaceID: market.id, requestID: "refund-1", paymentID: paid.id, amount: .init(amountMinor: 1, currencyCode: "VND"),
            reason: "goodwill"), token: admin)
        #expect(byAdmin.refundedAmount?.amountMinor == 1)
        #expect(bills.bills.withLock { $0["b1"]?.refunded } == 1)
        let marketplaceID = try #require(RecordID(market.id))
        let refunded = try await harness.store.write { transaction in
            try self.payables.refund(paymentID: paid.id, amount: 1_000_000, reason: "dispute", refunder: "", actor: .system("test"),
                                     marketplaceID: marketplaceID, transaction: transaction)
        }
        #expect(refunded.status == .partiallyRefunded)
        #expect(refunded.refundedAmount?.amountMinor == 1_000_001)
        #expect(bills.bills.withLock { $0["b1"]?.refunded } == 1)
        let payout = try await harness.store.write { transaction in
            try self.payables.payOut(target: .init(type: .booking, id: "lease-1"), to: lesseeID, amount: .init(amountMinor: 3_000_000, currencyCode: "VND"),
                                     reason: "deposit less a broken window", actor: .system("test"), marketplaceID: marketplaceID, transaction: transaction)
        }
        #expect(payout.status == .successful && payout.method == .payout && payout.payeeAccountID == lesseeID.description)
        #expect(payout.payoutReason == "deposit less a broken window")
    }
}
