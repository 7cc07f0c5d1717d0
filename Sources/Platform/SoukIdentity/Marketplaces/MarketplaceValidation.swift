import Foundation
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages

/// The rules a marketplace and its settings must satisfy; every failure names the request
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
    static func newMarketplace(_ input: SoukV1.Marketplace?) throws -> SoukV1.Marketplace {
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
                field: "marketplace.settings")
        }
        try checks.finish()
        guard var settings = checked else { throw RPCError.invalidField("marketplace.settings", "are not valid") }
        var accounts = settings.accounts ?? SoukV1.AccountSettings()
        if accounts.maxFailedLogins == 0 { accounts.maxFailedLogins = AccountRules.defaultMaxFailedLogins }
        if accounts.lockoutDuration == nil { accounts.lockoutDuration = AccountRules.defaultLockout }
        if accounts.passwordResetTTL == nil { accounts.passwordResetTTL = AccountRules.defaultPasswordResetTTL }
        if accounts.refreshReuseInterval == nil { accounts.refreshReuseInterval = AccountRules.defaultRefreshReuseInterval }
        settings.accounts = accounts
        return SoukV1.Marketplace(
            slug: input.slug, displayName: input.displayName, vertical: input.vertical, currencyCode: input.currencyCode,
            timeZone: zone, defaultLocale: localeTag, settings: settings)
    }

    /// Checks settings and returns them normalised (domains lower-cased, money without a
    /// currency given the marketplace's).
    static func settings(
        _ input: SoukV1.MarketplaceSettings, currency: String, vertical: SoukV1.Vertical, field: String
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
            try checks.check { try range(accounts.maxFailedLogins, 0...1000, "\(path).max_failed_logins") }
            try checks.check { try duration(accounts.lockoutDuration, "\(path).lockout_duration") }
            try checks.check { try duration(accounts.passwordResetTTL, "\(path).password_reset_ttl") }
            try checks.check { try duration(accounts.accessTokenTTL, "\(path).access_token_ttl") }
            try checks.check { try duration(accounts.refreshTokenTTL, "\(path).refresh_token_ttl") }
            try checks.check { try duration(accounts.refreshReuseInterval, AccountRules.refreshReuseIntervalRange, "\(path).refresh_reuse_interval") }
            if let limits = accounts.rateLimits { AuthRateLimits.validate(limits, path: "\(path).rate_limits", into: &checks) }
            settings.accounts = accounts
        }
        if var commerce = settings.commerce {
            let path = "\(field).commerce"
            try checks.check { try range(commerce.taxRateBps, 0...10_000, "\(path).tax_rate_bps") }
            commerce.shippingFee = try checks.run { try money(commerce.shippingFee, currency, "\(path).shipping_fee") } ?? nil
            commerce.deliveryFee = try checks.run { try money(commerce.deliveryFee, currency, "\(path).delivery_fee") } ?? nil
            try checks.check { try range(commerce.defaultCommissionBps, 0...10_000, "\(path).default_commission_bps") }
            try checks.check { try range(commerce.maxQuantityPerCartLine, 0...1_000_000, "\(path).max_quantity_per_cart_line") }
            for (index, method) in commerce.acceptedPaymentMethods.enumerated() {
                switch method {
                case .unspecified, .unrecognized:
                    checks.add("\(path).accepted_payment_methods[\(index)]", "must be a payment method")
                default:
                    if commerce.acceptedPaymentMethods[..<index].contains(method) {
                        checks.add("\(path).accepted_payment_methods[\(index)]", "is listed twice")
                    }
                }
            }
            settings.commerce = commerce
        }
        if var laundry = settings.laundry {
            let path = "\(field).laundry"
            laundry.machineCostPerLoad = try checks.run { try money(laundry.machineCostPerLoad, currency, "\(path).machine_cost_per_load") } ?? nil
            laundry.serviceFee = try checks.run { try money(laundry.serviceFee, currency, "\(path).service_fee") } ?? nil
            laundry.foldingPrice = try checks.run { try money(laundry.foldingPrice, currency, "\(path).folding_price") } ?? nil
            laundry.ironingPrice = try checks.run { try money(laundry.ironingPrice, currency, "\(path).ironing_price") } ?? nil
            if vertical == .laundry, let fee = laundry.serviceFee, !(500...1_000).contains(fee.amountMinor) {
                checks.add("\(path).service_fee", "must be between 5.00 and 10.00")
            }
            try checks.check { try range(laundry.lastCancellableStage, 0...9, "\(path).last_cancellable_stage") }
            try checks.check { try duration(laundry.jobOfferTimeout, "\(path).job_offer_timeout") }
            try checks.check { try duration(laundry.quizRetryDelay, .seconds(1)...(.seconds(30 * 86_400)), "\(path).quiz_retry_delay") }
            settings.laundry = laundry
        }
        if let rentals = settings.rentals {
            let path = "\(field).rentals"
            try checks.check { try range(rentals.minLeaseMonths, 0...120, "\(path).min_lease_months") }
            try checks.check { try range(rentals.maxDepositMonths, 0...24, "\(path).max_deposit_months") }
            try checks.check { try range(rentals.paymentProviderFeeBps, 0...10_000, "\(path).payment_provider_fee_bps") }
            try checks.check { try range(rentals.platformFeeBps, 0...10_000, "\(path).platform_fee_bps") }
            try checks.check { try range(rentals.billDueDay, 0...28, "\(path).bill_due_day") }
            try checks.check { try range(rentals.depositDueDays, 0...60, "\(path).deposit_due_days") }
            if rentals.paymentProviderFeeBps + rentals.platformFeeBps > 10_000 {
                checks.add("\(path).platform_fee_bps", "together with payment_provider_fee_bps must not exceed 10000")
            }
        }
        if let delivery = settings.delivery {
            let path = "\(field).delivery"
            try checks.check { try duration(delivery.locationReportInterval, "\(path).location_report_interval") }
            try checks.check { try duration(delivery.locationStaleAfter, "\(path).location_stale_after") }
            try checks.check { try duration(delivery.offerTimeout, .seconds(1)...(.seconds(600)), "\(path).offer_timeout") }
        }
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

    private static func range(_ value: Int32, _ range: ClosedRange<Int32>, _ field: String) throws {
        guard range.contains(value) else {
            throw RPCError.invalidField(field, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    private static func duration(_ value: Duration?, _ field: String) throws {
        if let value, value < .zero { throw RPCError.invalidField(field, "must not be negative") }
    }

    private static func duration(_ value: Duration?, _ range: ClosedRange<Duration>, _ field: String) throws {
        if let value, !range.contains(value) {
            throw RPCError.invalidField(
                field, "must be between \(range.lowerBound.components.seconds) and \(range.upperBound.components.seconds) seconds")
        }
    }

    private static func money(_ value: SoukV1.Money?, _ currency: String, _ field: String) throws -> SoukV1.Money? {
        guard var value else { return nil }
        if value.currencyCode.isEmpty { value.currencyCode = currency }
        guard value.currencyCode == currency else {
            throw RPCError.invalidField(field, "must be in the marketplace's currency \(currency), not \(value.currencyCode)")
        }
        guard value.amountMinor >= 0 else { throw RPCError.invalidField(field, "must not be negative") }
        return value
    }
}
