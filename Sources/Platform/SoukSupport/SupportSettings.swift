import SoukIdentity
import SoukKit
import SoukMessages

/// Support's part of a marketplace's settings (`MarketplaceSettings.support`), checked when a
/// marketplace is created or its settings change (`SettingsValidators`), and read by the calls.
enum SupportSettings {
    /// DineSwift's report: an answer within 24 hours.
    static let defaultResponseTarget: Duration = .seconds(24 * 3600)
    static let responseTargets: ClosedRange<Duration> = .seconds(1)...(.seconds(30 * 24 * 3600))

    static func register(in validators: SettingsValidators) {
        validators.add("support") { settings, context, checks in
            guard let support = settings.support else { return }
            SettingsFields.duration(support.responseTarget, responseTargets, "\(context.field).support.response_target", into: &checks)
        }
    }

    /// The marketplace's response target; 24 hours when unset.
    static func responseTarget(_ marketplace: SoukV1.Marketplace?) -> Duration {
        guard let target = marketplace?.settings?.support?.responseTarget, target > .zero else { return defaultResponseTarget }
        return target
    }
}
