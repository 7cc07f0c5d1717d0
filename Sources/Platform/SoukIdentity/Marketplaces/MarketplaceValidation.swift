import Foundation
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages

/// The rules a marketplace and the platform's parts of its settings must satisfy (each vertical
/// checks its own part, `SettingsValidators`); every failure names the request
/// field (`prefix` is the path of the message in the request, e.g. `marketplace` or `settings`).
enum MarketplaceValidation {
    static func slug(_ slug: String, field: String) throws {
        let bytes = Array(slug.utf8)
        guard (3...40).contains(bytes.count),
              bytes.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }),
              bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-")
        else {
            throw RPCError.invalidField(field, "must be 3 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen")
        }
    }

    static func displayName(_ name: String, field: String) throws {
        if let problem = PersonName.problem(with: name) { throw RPCError.invalidField(field, problem) }
    }

    static func timeZone(_ identifier: String, field: String) throws {
        guard TimeZone(identifier: identifier) != nil, identifier.contains("/") || identifier == "UTC" else {
            throw RPCError.invalidField(field, "must be an IANA time zone such as \"Asia/Riyadh\"")
        }
    }

    static func locale(_ tag: String, field: String) throws {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else {
            throw RPCError.invalidField(field, "must be a BCP 47 language tag such as \"en-US\" or \"ar-SA\"")
        }
    }

    static func currency(_ code: String, field: String) throws {
        guard code.utf8.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), Locale.commonISOCurrencyCodes.contains(code) else {
            throw RPCError.invalidField(field, "must be an ISO 4217 currency code in upper case, such as \"SAR\"")
        }
    }

    /// A new marketplace with defaults filled in: time zone UTC, locale en-US, account rules.
    static func newMarketplace(_ input: SoukV1.Marketplace?, validators: SettingsValidators) throws -> SoukStoreV1.Marketplace {
        guard let input else { throw RPCError.invalidField("marketplace", "is required") }
        var checks = FieldChecks()
        try checks.check { try slug(input.slug, field: "marketplace.slug") }
        try checks.check { try displayName(input.displayName, field: "marketplace.display_name") }
        switch input.vertical {
        case .unspecified, .unrecognized: checks.add("marketplace.vertical", "must be one of the verticals")
        default: break
        }
        try checks.check { try currency(input.currencyCode, field: "marketplace.currency_code") }
        let zone = input.timeZone.isEmpty ? "UTC" : input.timeZone
        try checks.check { try timeZone(zone, field: "marketplace.time_zone") }
        let localeTag = input.defaultLocale.isEmpty ? "en-US" : input.defaultLocale
        try checks.check { try locale(localeTag, field: "marketplace.default_locale") }
        let checked = try checks.run {
            try self.settings(
                input.settings ?? SoukV1.MarketplaceSettings(), currency: input.currencyCode, vertical: input.vertical,
                field: "marketplace.settings", validators: validators)
        }
        try checks.finish()
        guard var settings = checked else { throw RPCError.invalidField("marketplace.settings", "are not valid") }
        var accounts = settings.accounts ?? SoukV1.AccountSettings()
        if accounts.maxFailedLogins == 0 { accounts.maxFailedLogins = AccountRules.defaultMaxFailedLogins }
        if accounts.lockoutDuration == nil { accounts.lockoutDuration = AccountRules.defaultLockout }
        if accounts.passwordResetTTL == nil { accounts.passwordResetTTL = AccountRules.defaultPasswordResetTTL }
        if accounts.refreshReuseInterval == nil { accounts.refreshReuseInterval = AccountRules.defaultRefreshReuseInterval }
        settings.accounts = accounts
        return SoukStoreV1.Marketplace(
            slug: input.slug, displayName: input.displayName, vertical: input.vertical, currencyCode: input.currencyCode,
            timeZone: zone, defaultLocale: localeTag, settings: settings)
    }

    /// Checks settings and returns them normalised (domains lower-cased, money without a
    /// currency given the marketplace's).
    static func settings(
        _ input: SoukV1.MarketplaceSettings, currency: String, vertical: SoukV1.Vertical, field: String, validators: SettingsValidators
    ) throws -> SoukV1.MarketplaceSettings {
        var settings = input
        var checks = FieldChecks()
        if var accounts = settings.accounts {
            let path = "\(field).accounts"
            for (index, domain) in accounts.allowedEmailDomains.enumerated() {
                if let problem = EmailAddress.problem(withDomainName: domain) {
                    checks.add("\(path).allowed_email_domains[\(index)]", problem)
                }
            }
            accounts.allowedEmailDomains = accounts.allowedEmailDomains.map { $0.lowercased() }
            SettingsFields.range(accounts.maxFailedLogins, 0...1000, "\(path).max_failed_logins", into: &checks)
            SettingsFields.duration(accounts.lockoutDuration, "\(path).lockout_duration", into: &checks)
            SettingsFields.duration(accounts.passwordResetTTL, "\(path).password_reset_ttl", into: &checks)
            SettingsFields.duration(accounts.accessTokenTTL, "\(path).access_token_ttl", into: &checks)
            SettingsFields.duration(accounts.refreshTokenTTL, "\(path).refresh_token_ttl", into: &checks)
            SettingsFields.duration(accounts.refreshReuseInterval, AccountRules.refreshReuseIntervalRange, "\(path).refresh_reuse_interval", into: &checks)
            if let limits = accounts.rateLimits { AuthRateLimits.validate(limits, path: "\(path).rate_limits", into: &checks) }
            settings.accounts = accounts
        }
        // Each vertical's part (commerce, delivery, laundry, rentals) is checked by its module.
        try validators.run(&settings, SettingsContext(currency: currency, vertical: vertical, field: field), into: &checks)
        if var media = settings.media {
            let path = "\(field).media"
            checks.require(
                (0...MediaLimits.largestMaxUploadBytes).contains(media.maxUploadBytes), "\(path).max_upload_bytes",
                "must be between 0 (the default, 10 MiB) and \(MediaLimits.largestMaxUploadBytes)")
            media.allowedContentTypes = media.allowedContentTypes.map { $0.lowercased() }
            for (index, type) in media.allowedContentTypes.enumerated() {
                if !MediaContentType.recognised.contains(type) {
                    checks.add(
                        "\(path).allowed_content_types[\(index)]",
                        "must be a type Souk recognises by its content: \(MediaContentType.recognised.joined(separator: ", "))")
                } else if media.allowedContentTypes[..<index].contains(type) {
                    checks.add("\(path).allowed_content_types[\(index)]", "is listed twice")
                }
            }
            settings.media = media
        }
        try checks.finish()
        return settings
    }
}
