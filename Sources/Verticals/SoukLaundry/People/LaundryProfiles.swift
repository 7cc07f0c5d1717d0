import SoukKit
import SoukMessages
import SoukStore

/// A student's laundry record, stored under their account's id: where they live and, once a
/// Dasher, the Dasher profile. Identity's account does not hold it: `LaundryAccountPart` shows it
/// in the account view (`Account.laundry_profile`, `Account.dasher_profile`).
struct LaundryPersonRecord: Sendable, Equatable {
    var marketplaceID: String
    var profile: SoukV1.LaundryProfile?
    var dasher: SoukV1.DasherProfile?
    /// The Dasher's average in hundredths of a star (5 stars until the first rating), kept here
    /// for the accepting-Dashers order; the exact total is `JobRatingTables.dasherTotals`.
    var dasherRatingHundredths: Int32 = 0
}

/// The laundry records of students and Dashers.
enum LaundryPersonTable {
    /// (marketplace, dorm, rating descending) of the Dashers whose accepting-requests switch is on,
    /// for `Laundry.ListAcceptingDashers` (which also checks the account is active and a Dasher).
    static let acceptingDashers = Index<LaundryPersonRecord>.nonUnique("laundry_people.accepting_dashers") { record in
        guard record.dasher?.acceptingRequests == true, let dorm = record.profile?.dormID, !dorm.isEmpty else { return nil }
        return [.string(record.marketplaceID), .string(dorm), .int(-Int64(record.dasherRatingHundredths))]
    }

    static let table = Table(
        "laundry_people",
        codec: FieldCodec<LaundryPersonRecord>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.bool(value.profile != nil)
                if let profile = value.profile { writer.message(profile) }
                writer.bool(value.dasher != nil)
                if let dasher = value.dasher { writer.message(dasher) }
                writer.int(Int64(value.dasherRatingHundredths))
            },
            read: { reader in
                var record = LaundryPersonRecord(marketplaceID: try reader.string())
                if try reader.bool() { record.profile = try reader.message(SoukV1.LaundryProfile.self) }
                if try reader.bool() { record.dasher = try reader.message(SoukV1.DasherProfile.self) }
                record.dasherRatingHundredths = Int32(truncatingIfNeeded: try reader.int())
                return record
            }),
        indexes: [acceptingDashers])
}

/// The laundry records of accounts: read, changed and shown in account views.
enum LaundryProfiles {
    /// A Dasher's rating before the first one: 5 stars, counted 0 times.
    static let startingDasherRating = SoukV1.RatingSummary(count: 0, averageHundredths: 500)

    /// Fills the laundry fields of `account` (its id set): profiles, the Dasher rating (5 stars
    /// until the first rating) and the rating as a customer.
    static func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        guard let id = RecordID(account.id) else { return }
        let record = try reader.get(LaundryPersonTable.table, id)?.value
        account.laundryProfile = record?.profile
        account.dasherProfile = record?.dasher
        let dasherRating = try RatingTotal.summary(of: id, in: JobRatingTables.dasherTotals, reader)
        account.rating = dasherRating ?? (record?.dasher != nil ? startingDasherRating : SoukV1.RatingSummary())
        account.customerRating = try RatingTotal.summary(of: id, in: JobRatingTables.customerTotals, reader) ?? SoukV1.RatingSummary()
    }

    /// Changes (or creates) the laundry record of account `id` in `transaction`.
    static func change(
        _ id: RecordID, marketplaceID: String, transaction: Transaction, _ change: (inout LaundryPersonRecord) throws -> Void
    ) throws {
        if try transaction.get(LaundryPersonTable.table, id) != nil {
            try transaction.updateMaintainedFields(LaundryPersonTable.table, id, change)
        } else {
            var record = LaundryPersonRecord(marketplaceID: marketplaceID)
            try change(&record)
            try transaction.insert(LaundryPersonTable.table, record, id: id)
        }
    }

    /// Gives a laundry courier the Dasher profile (an `age` of 0 keeps the one known); once the
    /// courier role is active (`active`) the profile keeps the first time it was (`dasher_since`).
    static func makeDasher(_ id: RecordID, marketplaceID: String, age: Int32, active: Bool, transaction: Transaction) throws {
        let rating = try RatingTotal.summary(of: id, in: JobRatingTables.dasherTotals, transaction) ?? startingDasherRating
        try change(id, marketplaceID: marketplaceID, transaction: transaction) { record in
            if record.dasher == nil {
                record.dasher = SoukV1.DasherProfile(age: age)
                record.dasherRatingHundredths = rating.averageHundredths
            }
            if age > 0 { record.dasher?.age = age }
            if active, record.dasher?.dasherSince == nil { record.dasher?.dasherSince = Timestamp(transaction.now) }
        }
    }
}
