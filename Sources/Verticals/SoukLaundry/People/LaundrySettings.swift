import SoukIdentity
import SoukKit
import SoukMessages

/// Laundry's part of a marketplace's settings (`MarketplaceSettings.laundry`), checked when a
/// marketplace is created or its settings change (`SettingsValidators`).
enum LaundrySettings {
    static func register(in validators: SettingsValidators) {
        validators.add("laundry") { settings, context, checks in
            guard var laundry = settings.laundry else { return }
            let path = "\(context.field).laundry"
            let currency = context.currency
            laundry.machineCostPerLoad = SettingsFields.money(laundry.machineCostPerLoad, currency, "\(path).machine_cost_per_load", into: &checks)
            laundry.serviceFee = SettingsFields.money(laundry.serviceFee, currency, "\(path).service_fee", into: &checks)
            laundry.foldingPrice = SettingsFields.money(laundry.foldingPrice, currency, "\(path).folding_price", into: &checks)
            laundry.ironingPrice = SettingsFields.money(laundry.ironingPrice, currency, "\(path).ironing_price", into: &checks)
            if context.vertical == .laundry, let fee = laundry.serviceFee, !(500...1_000).contains(fee.amountMinor) {
                checks.add("\(path).service_fee", "must be between 5.00 and 10.00")
            }
            SettingsFields.range(laundry.lastCancellableStage, 0...9, "\(path).last_cancellable_stage", into: &checks)
            SettingsFields.duration(laundry.jobOfferTimeout, "\(path).job_offer_timeout", into: &checks)
            SettingsFields.duration(laundry.quizRetryDelay, .seconds(1)...(.seconds(30 * 86_400)), "\(path).quiz_retry_delay", into: &checks)
            settings.laundry = laundry
        }
    }
}
