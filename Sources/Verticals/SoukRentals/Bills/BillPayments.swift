import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// Rental bills as `Payments.CreatePayment` pays them (`bill_id`): the lessee pays a DUE bill to
/// the lessor. Settling a bill, in the paying transaction, marks it PAID with the payment's
/// three-way split; its `pay` effects do the rest (the booking's watchers see it, a paid deposit
/// makes its booking ACTIVE, the lessor is told, and the split adds to their income of the month).
struct BillPayments: PayableTarget {
    func payer(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID {
        let recordID = try RequestFields.id(id, field: "bill_id")
        let lessee = try store.require(BillTable.table, recordID, in: marketplaceID, "bill").value.subject.lesseeAccountID
        guard let payer = RecordID(lessee) else { throw RPCError.notFound("bill", id) }
        return payer
    }

    func due(_ id: String, caller: Caller, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, transaction: Transaction) throws -> PayableDue {
        let recordID = try RequestFields.id(id, field: "bill_id")
        let bill = try transaction.require(BillTable.table, recordID, in: marketplaceID, "bill").value.subject
        guard bill.lesseeAccountID == caller.accountID.description else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "bill \(id) is another lessee's", field: "bill_id")
        }
        switch bill.status {
        case .due: break
        case .paid: throw RPCError.souk(.failedPrecondition, .alreadyPaid, "bill \(id) is already paid", field: "bill_id")
        default: throw RPCError.souk(.failedPrecondition, .invalidTransition, "bill \(id) is \(bill.status.protoName): nothing to pay", field: "bill_id")
        }
        let amount = bill.total ?? SoukV1.Money()
        let split = RentalRules(marketplace).split(amount.amountMinor)
        return PayableDue(
            target: SoukV1.ResourceRef(type: .bill, id: id), payer: caller.accountID, payee: bill.lessorAccountID, amount: amount,
            split: SoukV1.PaymentSplit(
                providerFee: Self.money(split.providerFee, amount.currencyCode), platformFee: Self.money(split.platformFee, amount.currencyCode),
                payeeShare: Self.money(split.lessorShare, amount.currencyCode)))
    }

    func settle(_ id: String, payment: SoukV1.Payment, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
        let recordID = try RequestFields.id(id, field: "bill_id")
        let market = marketplaceID.description
        let amount = payment.amount?.amountMinor ?? 0
        // The split the payment stored, from `due` in this transaction.
        let split = payment.split.map {
            RentSplit(providerFee: $0.providerFee?.amountMinor ?? 0, platformFee: $0.platformFee?.amountMinor ?? 0, lessorShare: $0.payeeShare?.amountMinor ?? 0)
        } ?? RentalRules(marketplace).split(amount)
        let currency = payment.amount?.currencyCode ?? marketplace.currencyCode
        try RentalLifecycles.bill.fire(
                .pay, on: recordID, in: BillTable.table, marketplaceID: market, by: actor, transaction: transaction
        ) { record in
            record.subject.paymentID = payment.id
            record.subject.paidTime = Timestamp(transaction.now)
            record.subject.split = Self.view(split, currency: currency)
        }
    }

    /// An admin refunded part or all of the bill's payment: the bill stays PAID (the refund shows
    /// on its payment) and the amount comes off the lessor's gross and share of the month of the
    /// refund (the fees are not given back); both parties are told.
    func refunded(_ id: String, payment: SoukV1.Payment, amount: Int64, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
        let recordID = try RequestFields.id(id, field: "bill_id")
        let bill = try transaction.require(BillTable.table, recordID, in: marketplaceID, "bill")
        let subject = bill.value.subject
        let month = MarketplaceClock(timeZone: marketplace.timeZone).date(of: transaction.now)
        try LessorIncomeTable.refund(
            amount: amount, lessorAccountID: subject.lessorAccountID, month: Int64(month.year * 12 + month.month - 1),
            marketplaceID: marketplaceID.description, transaction: transaction)
        try BookingChanges.billChanged(bill, actor: actor, reason: "bill payment refunded", transaction: transaction)
        let currency = payment.amount?.currencyCode ?? marketplace.currencyCode
        try BookingChanges.notify(
            [subject.lesseeAccountID, subject.lessorAccountID], bookingID: subject.bookingID, kind: .bill, subject: SoukV1.ResourceRef(type: .bill, id: id),
            .billRefunded(amount: amount, currency: currency),
            marketplaceID: marketplaceID.description, transaction: transaction)
    }

    /// The split as the contract shows it on the bill.
    static func view(_ split: RentSplit, currency: String) -> SoukV1.BillSplit {
        SoukV1.BillSplit(
            providerFee: money(split.providerFee, currency), platformFee: money(split.platformFee, currency),
            lessorShare: money(split.lessorShare, currency))
    }

    static func money(_ amount: Int64, _ currency: String) -> SoukV1.Money { SoukV1.Money(amountMinor: amount, currencyCode: currency) }
}
