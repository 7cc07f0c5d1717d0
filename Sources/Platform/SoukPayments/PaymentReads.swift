import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading, listing and refunding payments.
extension PaymentsService {
    /// Whether `caller` in one of `roles` owns `payment`: its payer, or the payee of a payout,
    /// as customer; its payee, or as provider any order payment where the marketplace itself
    /// sells (retail, water); its payee or collector as courier.
    static func owns(_ payment: SoukStoreV1.Payment, _ caller: Caller, roles: Set<SoukV1.Role>, vertical: SoukV1.Vertical) -> Bool {
        let me = caller.accountID.description
        let marketplaceSells = [.retail, .waterServices].contains(vertical) && payment.target?.type == .order
        return roles.contains(.customer) && (payment.payerAccountID == me || payment.method == .payout && payment.payeeAccountID == me)
            || roles.contains(.provider) && (payment.payeeAccountID == me || marketplaceSells)
            || roles.contains(.courier) && (payment.payeeAccountID == me || payment.collectedByAccountID == me)
    }

    var paymentOwnership: Ownership<SoukV1.GetPaymentRequest> {
        let store = store
        return Ownership { request, call, caller, roles in
            let id = try RequestFields.id(request.paymentID, field: "payment_id")
            let (marketplaceID, marketplace) = try call.requireMarketplace()
            let payment = try store.require(PaymentTable.table, id, in: marketplaceID, "payment")
            return Self.owns(payment.value.subject, caller, roles: roles, vertical: marketplace.vertical)
        }
    }

    /// A filter naming someone else is not the caller's to read. A list naming nobody passes
    /// here and is refused by `listPayments` (INVALID_ARGUMENT) unless the caller is an admin.
    static let listOwnership = Ownership<SoukV1.ListPaymentsRequest> { request, call, caller, roles in
        guard namesAParty(request) else { return true }
        return ownsFilter(request, caller, roles: roles, vertical: call.marketplace?.vertical ?? .unspecified)
    }

    static func namesAParty(_ request: SoukV1.ListPaymentsRequest) -> Bool {
        !request.payerAccountID.isEmpty || !request.payeeAccountID.isEmpty || !request.collectedByAccountID.isEmpty || request.asSeller
    }

    static func ownsFilter(_ request: SoukV1.ListPaymentsRequest, _ caller: Caller, roles: Set<SoukV1.Role>, vertical: SoukV1.Vertical) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && request.payerAccountID == me
            || roles.contains(.provider) && (request.payeeAccountID == me || request.asSeller && [.retail, .waterServices].contains(vertical))
            || roles.contains(.courier) && (request.payeeAccountID == me || request.collectedByAccountID == me)
    }

    func getPayment(_ request: SoukV1.GetPaymentRequest, _ call: SoukCall) async throws -> SoukV1.Payment {
        try PaymentViews.get(try RequestFields.id(request.paymentID, field: "payment_id"), call, store: store)
    }

    /// Newest first: each index's entries end with the payment's version 7 id, so a descending
    /// scan of one range. Status and method beside another filter are checked on the records
    /// read (a page may then be short, with a next_page_token).
    func listPayments(_ request: SoukV1.ListPaymentsRequest, _ call: SoukCall) async throws -> SoukV1.ListPaymentsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        let isAdmin = caller.isOperator || caller.activeRoles.contains(.admin)
        var checks = FieldChecks()
        checks.require(
            isAdmin || Self.ownsFilter(request, caller, roles: caller.activeRoles, vertical: marketplace.vertical), "payer_account_id",
            "filter on yourself (payer_account_id, payee_account_id or collected_by_account_id) or, as the shop, use as_seller")
        let market = KeyPart.string(marketplaceID.description)
        var chosen: [(String, Index<PaymentRecord>, String)] = []
        if !request.payerAccountID.isEmpty { chosen.append(("payer_account_id", PaymentTable.byPayer, request.payerAccountID)) }
        if !request.payeeAccountID.isEmpty { chosen.append(("payee_account_id", PaymentTable.byPayee, request.payeeAccountID)) }
        if !request.collectedByAccountID.isEmpty {
            chosen.append(("collected_by_account_id", PaymentTable.byCollector, request.collectedByAccountID))
        }
        if !request.targetID.isEmpty { chosen.append(("target_id", PaymentTable.byTarget, request.targetID)) }
        checks.require(
            chosen.count + (request.asSeller ? 1 : 0) <= 1, "as_seller",
            "combine at most one of payer_account_id, payee_account_id, collected_by_account_id, target_id and as_seller")
        for (field, _, value) in chosen { try checks.check { _ = try RequestFields.id(value, field: field) } }
        var index = PaymentTable.byMarketplace
        var prefix: [KeyPart] = [market]
        var statuses = Set(request.statuses)
        var method = request.method
        if let (_, chosenIndex, value) = chosen.first {
            index = chosenIndex
            prefix = [market, .string(value)]
        } else if statuses.count == 1, let status = statuses.first {
            (index, prefix) = (PaymentTable.byStatus, [market, .enumCase(status)])
            statuses = []
        } else if method != .unspecified {
            (index, prefix) = (PaymentTable.byMethod, [market, .enumCase(method)])
            method = .unspecified
        }
        let statusNames = request.statuses.map(\.protoName).sorted().joined(separator: ",")
        let filters = "index=\(index.name);\(prefix);statuses=\(statusNames);method=\(request.method.rawValue)"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let result = try store.list(PaymentTable.table, index, .starting(with: prefix), direction: .descending, page: checkedPage!)
        let (wantedStatuses, wantedMethod) = (statuses, method)
        let payments: [SoukV1.Payment] = result.items.compactMap { record in
            let payment = record.value.subject
            guard wantedStatuses.isEmpty || wantedStatuses.contains(payment.status),
                  wantedMethod == .unspecified || payment.method == wantedMethod
            else { return nil }
            return PaymentViews.view(record, call)
        }
        return SoukV1.ListPaymentsResponse(payments: payments, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func refundPayment(_ request: SoukV1.RefundPaymentRequest, _ call: SoukCall) async throws -> SoukV1.Payment {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let requestID = try RequestFields.requestID(request.requestID)
        let id = try RequestFields.id(request.paymentID, field: "payment_id")
        let reason = request.reason.trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { throw RPCError.invalidField("reason", "is required: it is shown to the payer") }
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call, requestID: requestID)
        let requested = request.amount?.amountMinor
        let payables = payments.payables
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Payment>()
        ) { transaction in
            let current = try transaction.require(PaymentTable.table, id, in: marketplaceID, "payment").value.subject
            guard [.successful, .partiallyRefunded].contains(current.status) else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "only a successful payment can be refunded (this one is \(current.status.protoName))")
            }
            let amount = requested ?? (current.amount.minor - current.refundedAmount.minor)
            let record = try PaymentLedger.refund(
                id, amount: amount, reason: reason, by: caller.accountID.description, actor: actor, marketplaceID: marketplaceID,
                expectedVersion: expected, transaction: transaction)
            let payment = PaymentProjection.payment(record)
            // The order, job or bill shows its payment's state.
            if let target = payment.target, let payable = payables.refundedTarget(target.type) {
                try payable.refunded(target.id, payment: payment, amount: amount, marketplaceID: marketplaceID, marketplace: marketplace, actor: actor, transaction: transaction)
            }
            return payment
        }
        return try PaymentViews.get(id, call, store: store)
    }
}
