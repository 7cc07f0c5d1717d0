import SoukGRPC
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

@Suite struct StorageAndSettingsTests {
    @Test func sessionRecordsRoundTrip() throws {
        let record = SessionRecord(
            accountID: RecordID(high: 1, low: 2), marketplaceID: "m", accessTokenHash: [1, 2, 3],
            accessExpiry: StoreTime(microsecondsSinceEpoch: 42), refreshTokenHash: [4, 5], refreshExpiry: StoreTime(microsecondsSinceEpoch: -7),
            retiredRefreshHashes: [[9], [8, 8]], revoked: true, deviceName: "iPhone 15 – ص")
        var bytes: [UInt8] = [0xAA]  // what the store's header would be
        try SessionTable.table.codec.encode(record, into: &bytes)
        #expect(bytes.first == 0xAA)
        let decoded = try bytes.dropFirst().withUnsafeBytes { try SessionTable.table.codec.decode($0) }
        #expect(decoded.accountID == record.accountID)
        #expect(decoded.accessTokenHash == record.accessTokenHash)
        #expect(decoded.refreshExpiry == record.refreshExpiry)
        #expect(decoded.retiredRefreshHashes == record.retiredRefreshHashes)
        #expect(decoded.revoked && decoded.deviceName == record.deviceName)
        #expect(decoded.latestRotation == nil)
        // Damage is reported, never decoded as garbage.
        let truncated = Array(bytes.dropFirst().prefix(bytes.count / 2))
        #expect(throws: (any Error).self) { try truncated.withUnsafeBytes { try SessionTable.table.codec.decode($0) } }
    }

    @Test func sessionRecordsKeepTheirLatestRotationAndOlderOnesReadWithout() throws {
        var record = SessionRecord(
            accountID: RecordID(high: 1, low: 2), marketplaceID: "m", accessTokenHash: [1], accessExpiry: StoreTime(microsecondsSinceEpoch: 42),
            refreshTokenHash: [2], refreshExpiry: StoreTime(microsecondsSinceEpoch: 43), retiredRefreshHashes: [[3]], revoked: false,
            deviceName: "d")
        var older: [UInt8] = []
        try SessionTable.table.codec.encode(record, into: &older)
        // A record written before rotations were kept ends after the device name.
        older.removeLast()
        #expect(try older.withUnsafeBytes { try SessionTable.table.codec.decode($0) }.latestRotation == nil)
        record.latestRotation = RefreshRotation(
            retiredRefreshHash: [3], rotatedAt: StoreTime(microsecondsSinceEpoch: 41), pair: SealedTokenPair(bytes: [7, 7, 7]))
        var bytes: [UInt8] = []
        try SessionTable.table.codec.encode(record, into: &bytes)
        #expect(try bytes.withUnsafeBytes { try SessionTable.table.codec.decode($0) }.latestRotation == record.latestRotation)
        record.revoke()
        #expect(record.revoked && record.latestRotation == nil)
    }

    @Test func accountsAndTheirCredentialsRoundTrip() throws {
        let record = AccountRecord(account: SoukStoreV1.Account(email: "a@b.co", givenName: "王小明"))
        var bytes: [UInt8] = []
        try AccountTable.table.codec.encode(record, into: &bytes)
        #expect(try bytes.withUnsafeBytes { try AccountTable.table.codec.decode($0) } == record)
        for credentials in [
            CredentialRecord(passwordHash: "$argon2id$x"),
            CredentialRecord(passwordHash: "h", failedLogins: 4, lockedUntil: StoreTime(microsecondsSinceEpoch: 9), lastLogin: nil),
            CredentialRecord(passwordHash: "", failedLogins: 0, lockedUntil: nil, lastLogin: StoreTime(microsecondsSinceEpoch: -1)),
        ] {
            var bytes: [UInt8] = []
            try CredentialTable.table.codec.encode(credentials, into: &bytes)
            #expect(try bytes.withUnsafeBytes { try CredentialTable.table.codec.decode($0) } == credentials)
        }
    }

    @Test func settingsMaskCopiesOnlyTheNamedPaths() {
        var settings = SoukV1.MarketplaceSettings(
            accounts: .init(maxFailedLogins: 5, lockoutDuration: .seconds(900)),
            commerce: .init(taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR")))
        let source = SoukV1.MarketplaceSettings(
            accounts: .init(maxFailedLogins: 3, lockoutDuration: .seconds(2)), commerce: .init(taxRateBps: 0))
        SettingsMask.apply(["accounts.lockout_duration"], from: source, to: &settings)
        #expect(settings.accounts == .init(maxFailedLogins: 5, lockoutDuration: .seconds(2)))
        #expect(settings.commerce?.taxRateBps == 2600)
        SettingsMask.apply(["commerce"], from: source, to: &settings)
        #expect(settings.commerce == .init(taxRateBps: 0))
        SettingsMask.apply(["laundry.service_fee"], from: SoukV1.MarketplaceSettings(), to: &settings)
        #expect(settings.laundry == SoukV1.LaundrySettings())
        SettingsMask.apply(
            ["accounts.refresh_reuse_interval"], from: .init(accounts: .init(refreshReuseInterval: .seconds(5))), to: &settings)
        #expect(settings.accounts == .init(maxFailedLogins: 5, lockoutDuration: .seconds(2), refreshReuseInterval: .seconds(5)))
        #expect(SettingsMask.allowedPaths.isSuperset(of: ["accounts", "commerce.delivery_fee", "rentals.platform_fee_bps", "delivery.offer_timeout"]))
        #expect(!SettingsMask.allowedPaths.contains("commerce.nope"))
    }

    @Test func newMarketplacesAreValidatedAndGetDefaults() throws {
        let marketplace = try MarketplaceValidation.newMarketplace(
            .init(slug: "drip-n-dash", displayName: "Drip 'n Dash", vertical: .laundry, currencyCode: "USD",
                  settings: .init(
                    accounts: .init(allowedEmailDomains: ["Rutgers.EDU"]),
                    laundry: .init(serviceFee: .init(amountMinor: 500, currencyCode: "USD")))),
            validators: SettingsValidators())
        #expect(marketplace.timeZone == "UTC")
        #expect(marketplace.defaultLocale == "en-US")
        #expect(marketplace.settings?.accounts?.allowedEmailDomains == ["rutgers.edu"])
        #expect(marketplace.settings?.accounts?.maxFailedLogins == 5)
        #expect(marketplace.settings?.accounts?.lockoutDuration == .seconds(900))
        #expect(marketplace.settings?.accounts?.passwordResetTTL == .seconds(3600))
        #expect(marketplace.settings?.accounts?.refreshReuseInterval == .seconds(30))
        #expect(marketplace.settings?.laundry?.serviceFee == .init(amountMinor: 500, currencyCode: "USD"))
    }

    @Test(arguments: [
        (SoukV1.Marketplace(slug: "Aqua", displayName: "A", vertical: .retail, currencyCode: "SAR"), "marketplace.slug"),
        (SoukV1.Marketplace(slug: "aq", displayName: "A", vertical: .retail, currencyCode: "SAR"), "marketplace.slug"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "", vertical: .retail, currencyCode: "SAR"), "marketplace.display_name"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", currencyCode: "SAR"), "marketplace.vertical"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "sar"), "marketplace.currency_code"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "XYZ"), "marketplace.currency_code"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR", timeZone: "Mars/Olympus"), "marketplace.time_zone"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR", defaultLocale: "english!"), "marketplace.default_locale"),
        (SoukV1.Marketplace(slug: "dnd", displayName: "A", vertical: .laundry, currencyCode: "USD",
                            settings: .init(accounts: .init(allowedEmailDomains: ["not a domain"]))), "marketplace.settings.accounts.allowed_email_domains[0]"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR",
                            settings: .init(accounts: .init(refreshReuseInterval: .zero))), "marketplace.settings.accounts.refresh_reuse_interval"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR",
                            settings: .init(accounts: .init(refreshReuseInterval: .milliseconds(300_001)))), "marketplace.settings.accounts.refresh_reuse_interval"),
    ])
    func invalidMarketplacesNameTheField(marketplace: SoukV1.Marketplace, field: String) {
        do {
            _ = try MarketplaceValidation.newMarketplace(marketplace, validators: SettingsValidators())
            Issue.record("accepted an invalid marketplace")
        } catch let error as RPCError {
            #expect(error.code == .invalidArgument)
            #expect(error.fieldViolations.first?.field == field)
            #expect(error.message.hasPrefix("\(field): "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
