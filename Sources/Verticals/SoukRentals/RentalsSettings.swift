import SoukIdentity
import SoukKit
import SoukMessages

/// Rentals' part of a marketplace's settings (`MarketplaceSettings.rentals`), checked when a
/// marketplace is created or its settings change (`SettingsValidators`).
enum RentalsSettings {
    static func register(in validators: SettingsValidators) {
        validators.add("rentals") { settings, context, checks in
            guard let rentals = settings.rentals else { return }
            let path = "\(context.field).rentals"
            SettingsFields.range(rentals.minLeaseMonths, 0...120, "\(path).min_lease_months", into: &checks)
            SettingsFields.range(rentals.maxDepositMonths, 0...24, "\(path).max_deposit_months", into: &checks)
            SettingsFields.range(rentals.paymentProviderFeeBps, 0...10_000, "\(path).payment_provider_fee_bps", into: &checks)
            SettingsFields.range(rentals.platformFeeBps, 0...10_000, "\(path).platform_fee_bps", into: &checks)
            SettingsFields.range(rentals.billDueDay, 0...28, "\(path).bill_due_day", into: &checks)
            SettingsFields.range(rentals.depositDueDays, 0...60, "\(path).deposit_due_days", into: &checks)
            if rentals.paymentProviderFeeBps + rentals.platformFeeBps > 10_000 {
                checks.add("\(path).platform_fee_bps", "together with payment_provider_fee_bps must not exceed 10000")
            }
        }
    }
}
