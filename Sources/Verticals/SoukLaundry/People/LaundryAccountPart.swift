import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// The laundry part of Drip 'n Dash accounts (`AccountPart`): the student's laundry profile from
/// sign-up, CreateAccount and UpdateProfile, the Dasher profile of couriers, and both ratings,
/// all in laundry's tables. Identity runs it inside its own transactions.
struct LaundryAccountPart: AccountPart {
    var profilePaths: Set<String> {
        ["laundry_profile", "laundry_profile.campus", "laundry_profile.dorm_id", "laundry_profile.room", "laundry_profile.gender", "dasher_profile.age"]
    }

    func checkNew(_ new: NewAccount, fields: NewAccount.FieldNames, into checks: inout FieldChecks) throws {
        if let profile = new.laundryProfile {
            try Self.validate(profile, field: "laundry_profile", into: &checks)
            // Named here with the other fields (`Dorms.check` would find it only after them).
            if fields.checksRecords, profile.dormID.isEmpty {
                checks.add("laundry_profile.dorm_id", "is required: a dorm of this marketplace (Laundry.ListDorms)")
            }
        } else if fields.isSignUp {
            checks.add("laundry_profile", "is required in a laundry marketplace (campus, dorm and room)")
        }
        if new.dasherAge != 0, !(16...120).contains(new.dasherAge) {
            checks.add(fields.dasherAge, "must be between 16 and 120")
        }
    }

    func create(_ new: NewAccount, fields: NewAccount.FieldNames, account: SoukV1.Account, transaction: Transaction) throws {
        guard let id = RecordID(account.id) else { return }
        if let profile = new.laundryProfile {
            // The dorm is one a client found with Laundry.ListDorms, for sign-up and admins alike.
            if fields.checksRecords { try Dorms.check(profile, marketplaceID: account.marketplaceID, transaction) }
            try LaundryProfiles.change(id, marketplaceID: account.marketplaceID, transaction: transaction) { $0.profile = profile }
        }
        if let courier = account.roles.first(where: { $0.role == .courier }) {
            try LaundryProfiles.makeDasher(
                id, marketplaceID: account.marketplaceID, age: new.dasherAge, active: courier.status == .active, transaction: transaction)
        }
    }

    func checkUpdate(_ input: SoukV1.Account, paths: [String], current: SoukV1.Account?, into checks: inout FieldChecks) throws {
        guard paths.contains("dasher_profile.age") else { return }
        if current.map({ !$0.roles.contains(where: { $0.role == .courier }) }) == true {
            checks.add("update_mask", "dasher_profile.age applies only to couriers of laundry marketplaces")
        } else if !(16...120).contains(input.dasherProfile?.age ?? 0) {
            checks.add("account.dasher_profile.age", "must be between 16 and 120")
        }
    }

    func update(_ input: SoukV1.Account, paths: [String], account: SoukV1.Account, transaction: Transaction) throws {
        guard let id = RecordID(account.id) else { return }
        let stored = try transaction.get(LaundryPersonTable.table, id)?.value
        let profilePaths = paths.filter { $0.hasPrefix("laundry_profile") }
        var profile = stored?.profile ?? SoukV1.LaundryProfile()
        if !profilePaths.isEmpty {
            let source = input.laundryProfile ?? SoukV1.LaundryProfile()
            for path in profilePaths {
                switch path {
                case "laundry_profile": profile = source
                case "laundry_profile.campus": profile.campus = source.campus
                case "laundry_profile.dorm_id": profile.dormID = source.dormID
                case "laundry_profile.gender": profile.gender = source.gender
                default: profile.room = source.room
                }
            }
            var checks = FieldChecks()
            try Self.validate(profile, field: "account.laundry_profile", into: &checks)
            try checks.finish()
            try Dorms.check(profile, marketplaceID: account.marketplaceID, transaction)
        }
        try LaundryProfiles.change(id, marketplaceID: account.marketplaceID, transaction: transaction) { record in
            if !profilePaths.isEmpty { record.profile = profile }
            if paths.contains("dasher_profile.age") { record.dasher?.age = input.dasherProfile?.age ?? 0 }
        }
    }

    func checkRoleRequest(_ request: SoukV1.RequestRoleRequest, into checks: inout FieldChecks) {
        if request.role == .courier, request.dasherAge != 0, !(16...120).contains(request.dasherAge) {
            checks.add("dasher_age", "must be between 16 and 120")
        }
    }

    func roleChanged(_ account: SoukV1.Account, role: SoukV1.Role, request: SoukV1.RequestRoleRequest?, transaction: Transaction) throws {
        guard role == .courier, let id = RecordID(account.id) else { return }
        let active = account.roles.contains { $0.role == .courier && $0.status == .active }
        try LaundryProfiles.makeDasher(id, marketplaceID: account.marketplaceID, age: request?.dasherAge ?? 0, active: active, transaction: transaction)
    }

    func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        try LaundryProfiles.project(&account, reader)
    }

    func adoptLegacy(_ legacy: SoukV1.Account, transaction: Transaction) throws {
        guard let id = RecordID(legacy.id), legacy.laundryProfile != nil || legacy.dasherProfile != nil else { return }
        try LaundryProfiles.change(id, marketplaceID: legacy.marketplaceID, transaction: transaction) { record in
            record.profile = record.profile ?? legacy.laundryProfile
            if record.dasher == nil, let dasher = legacy.dasherProfile {
                record.dasher = dasher
                record.dasherRatingHundredths = legacy.rating?.averageHundredths ?? LaundryProfiles.startingDasherRating.averageHundredths
            }
        }
    }

    /// The form of a laundry profile; the dorm itself is checked in the transaction (`Dorms.check`).
    static func validate(_ profile: SoukV1.LaundryProfile, field: String, into checks: inout FieldChecks) throws {
        if let problem = PersonName.problem(with: profile.campus) { checks.add("\(field).campus", problem) }
        try checks.check { _ = try RequestFields.optionalID(profile.dormID, field: "\(field).dorm_id") }
        if let problem = PersonName.problem(with: profile.room) { checks.add("\(field).room", problem) }
    }
}
