import SoukMessages

/// Applies an `UpdateMarketplaceSettings` mask: each path is a settings group ("commerce") or
/// one of its fields ("commerce.delivery_fee"), copied from the request's settings.
enum SettingsMask {
    /// Every path a mask may name.
    static var allowedPaths: Set<String> { Set(appliers().keys) }

    /// Copies the masked paths of `source` into `settings`. Paths were checked against `allowedPaths`.
    static func apply(_ paths: [String], from source: SoukV1.MarketplaceSettings, to settings: inout SoukV1.MarketplaceSettings) {
        let appliers = appliers()
        for path in paths { appliers[path]?(source, &settings) }
    }

    private typealias Settings = SoukV1.MarketplaceSettings
    private typealias Applier = (Settings, inout Settings) -> Void

    private static func appliers() -> [String: Applier] {
        var table: [String: Applier] = [:]
        func group<G>(_ name: String, _ key: WritableKeyPath<Settings, G?>, empty: G, _ fields: [(String, (inout G, G) -> Void)]) {
            table[name] = { source, settings in settings[keyPath: key] = source[keyPath: key] }
            for (field, copy) in fields {
                table["\(name).\(field)"] = { source, settings in
                    var target = settings[keyPath: key] ?? empty
                    copy(&target, source[keyPath: key] ?? empty)
                    settings[keyPath: key] = target
                }
            }
        }
        func set<G, F>(_ key: WritableKeyPath<G, F>) -> (inout G, G) -> Void {
            { target, source in target[keyPath: key] = source[keyPath: key] }
        }
        typealias A = SoukV1.AccountSettings
        group("accounts", \.accounts, empty: A(), [
            ("allowed_email_domains", set(\A.allowedEmailDomains)), ("max_failed_logins", set(\A.maxFailedLogins)),
            ("lockout_duration", set(\A.lockoutDuration)), ("password_reset_ttl", set(\A.passwordResetTTL)),
            ("access_token_ttl", set(\A.accessTokenTTL)), ("refresh_token_ttl", set(\A.refreshTokenTTL)),
            ("refresh_reuse_interval", set(\A.refreshReuseInterval)), ("rate_limits", set(\A.rateLimits)),
        ])
        typealias C = SoukV1.CommerceSettings
        group("commerce", \.commerce, empty: C(), [
            ("tax_rate_bps", set(\C.taxRateBps)), ("shipping_fee", set(\C.shippingFee)), ("delivery_fee", set(\C.deliveryFee)),
            ("default_commission_bps", set(\C.defaultCommissionBps)),
            ("max_quantity_per_cart_line", set(\C.maxQuantityPerCartLine)),
            ("accepted_payment_methods", set(\C.acceptedPaymentMethods)),
        ])
        typealias L = SoukV1.LaundrySettings
        group("laundry", \.laundry, empty: L(), [
            ("machine_cost_per_load", set(\L.machineCostPerLoad)), ("service_fee", set(\L.serviceFee)),
            ("folding_price", set(\L.foldingPrice)), ("ironing_price", set(\L.ironingPrice)),
            ("last_cancellable_stage", set(\L.lastCancellableStage)), ("job_offer_timeout", set(\L.jobOfferTimeout)),
            ("quiz_retry_delay", set(\L.quizRetryDelay)),
        ])
        typealias R = SoukV1.RentalSettings
        group("rentals", \.rentals, empty: R(), [
            ("min_lease_months", set(\R.minLeaseMonths)), ("max_deposit_months", set(\R.maxDepositMonths)),
            ("payment_provider_fee_bps", set(\R.paymentProviderFeeBps)), ("platform_fee_bps", set(\R.platformFeeBps)),
            ("bill_due_day", set(\R.billDueDay)), ("deposit_due_days", set(\R.depositDueDays)),
        ])
        typealias D = SoukV1.DeliverySettings
        group("delivery", \.delivery, empty: D(), [
            ("location_report_interval", set(\D.locationReportInterval)),
            ("location_stale_after", set(\D.locationStaleAfter)), ("offer_timeout", set(\D.offerTimeout)),
        ])
        typealias M = SoukV1.MediaSettings
        group("media", \.media, empty: M(), [
            ("max_upload_bytes", set(\M.maxUploadBytes)), ("allowed_content_types", set(\M.allowedContentTypes)),
        ])
        typealias S = SoukV1.SupportSettings
        group("support", \.support, empty: S(), [("response_target", set(\S.responseTarget))])
        return table
    }
}
