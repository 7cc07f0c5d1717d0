import SoukIdentity
import SoukKit
import SoukMessages

/// Commerce's parts of a marketplace's settings (`MarketplaceSettings.commerce` and `.delivery`),
/// checked when a marketplace is created or its settings change (`SettingsValidators`).
enum CommerceSettings {
    static func register(in validators: SettingsValidators) {
        validators.add("commerce") { settings, context, checks in
            guard var commerce = settings.commerce else { return }
            let path = "\(context.field).commerce"
            SettingsFields.range(commerce.taxRateBps, 0...10_000, "\(path).tax_rate_bps", into: &checks)
            commerce.shippingFee = SettingsFields.money(commerce.shippingFee, context.currency, "\(path).shipping_fee", into: &checks)
            commerce.deliveryFee = SettingsFields.money(commerce.deliveryFee, context.currency, "\(path).delivery_fee", into: &checks)
            SettingsFields.range(commerce.defaultCommissionBps, 0...10_000, "\(path).default_commission_bps", into: &checks)
            SettingsFields.range(commerce.maxQuantityPerCartLine, 0...1_000_000, "\(path).max_quantity_per_cart_line", into: &checks)
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
        validators.add("delivery") { settings, context, checks in
            guard let delivery = settings.delivery else { return }
            let path = "\(context.field).delivery"
            SettingsFields.duration(delivery.locationReportInterval, "\(path).location_report_interval", into: &checks)
            SettingsFields.duration(delivery.locationStaleAfter, "\(path).location_stale_after", into: &checks)
            SettingsFields.duration(delivery.offerTimeout, .seconds(1)...(.seconds(600)), "\(path).offer_timeout", into: &checks)
        }
    }
}
