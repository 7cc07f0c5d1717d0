import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A lessor's totals of one calendar month of the marketplace's time zone: bills paid, what the
/// lessees paid, the two fees and the lessor's share (minor units). Added to in the transaction
/// that settles each bill, so `GetLessorIncome` reads one total per month, never the bills.
struct LessorIncomeTotals: Sendable, Equatable {
    var marketplaceID: String
    var lessorAccountID: String
    /// year × 12 + month − 1.
    var month: Int64
    var paidBills: Int64 = 0
    var gross: Int64 = 0
    var providerFees: Int64 = 0
    var platformFees: Int64 = 0
    var lessorShare: Int64 = 0

    mutating func add(amount: Int64, split: RentSplit) {
        paidBills += 1
        gross += amount
        providerFees += split.providerFee
        platformFees += split.platformFee
        lessorShare += split.lessorShare
    }

    static func month(_ period: SoukV1.BillingPeriod) -> Int64 { Int64(period.year) * 12 + Int64(period.month) - 1 }
    static func period(_ month: Int64) -> SoukV1.BillingPeriod {
        SoukV1.BillingPeriod(year: Int32(month / 12), month: Int32(month % 12 + 1))
    }
}

enum LessorIncomeTable {
    /// One total per (lessor, month); a report reads a range of months.
    static let byMonth = Index<LessorIncomeTotals>.unique("rental_income.month") {
        [.string($0.marketplaceID), .string($0.lessorAccountID), .int($0.month)]
    }

    static let table = Table(
        "rental_income",
        codec: FieldCodec<LessorIncomeTotals>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.string(value.lessorAccountID)
                writer.int(value.month)
                for count in [value.paidBills, value.gross, value.providerFees, value.platformFees, value.lessorShare] { writer.int(count) }
            },
            read: { reader in
                LessorIncomeTotals(
                    marketplaceID: try reader.string(), lessorAccountID: try reader.string(), month: try reader.int(),
                    paidBills: try reader.int(), gross: try reader.int(), providerFees: try reader.int(), platformFees: try reader.int(),
                    lessorShare: try reader.int())
            }),
        indexes: [byMonth])

    /// Adds a paid bill of `amount` split as `split` to the lessor's total of `month`.
    static func add(
        amount: Int64, split: RentSplit, lessorAccountID: String, month: Int64, marketplaceID: String, transaction: Transaction
    ) throws {
        try change(lessorAccountID: lessorAccountID, month: month, marketplaceID: marketplaceID, transaction: transaction) {
            $0.add(amount: amount, split: split)
        }
    }

    /// Takes a refund of `amount` off the lessor's gross and share of `month`.
    static func refund(amount: Int64, lessorAccountID: String, month: Int64, marketplaceID: String, transaction: Transaction) throws {
        try change(lessorAccountID: lessorAccountID, month: month, marketplaceID: marketplaceID, transaction: transaction) {
            $0.gross -= amount
            $0.lessorShare -= amount
        }
    }

    private static func change(
        lessorAccountID: String, month: Int64, marketplaceID: String, transaction: Transaction, _ change: (inout LessorIncomeTotals) -> Void
    ) throws {
        let key: [KeyPart] = [.string(marketplaceID), .string(lessorAccountID), .int(month)]
        // The unique read locks the key, present or not: concurrent first changes of a month serialize here.
        if let current = try transaction.get(table, unique: byMonth, key) {
            try transaction.update(table, current.id) { change(&$0) }
        } else {
            var totals = LessorIncomeTotals(marketplaceID: marketplaceID, lessorAccountID: lessorAccountID, month: month)
            change(&totals)
            try transaction.insert(table, totals)
        }
    }
}
