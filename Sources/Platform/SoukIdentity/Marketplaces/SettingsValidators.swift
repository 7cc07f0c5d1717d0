import SoukKit
import SoukMessages
import Synchronization

/// What a settings validator checks: the marketplace's currency and vertical, and the request
/// path of the settings message (`marketplace.settings`, `settings`).
public struct SettingsContext: Sendable {
    public let currency: String
    public let vertical: SoukV1.Vertical
    public let field: String
}

/// Where each vertical module checks its own part of a marketplace's settings (laundry prices,
/// rentals fees, commerce taxes): identity checks only the platform's parts (accounts, media)
/// and runs every registered validator inside `CreateMarketplace` and `UpdateMarketplaceSettings`,
/// so identity knows no vertical's rules. A part no mounted module validates is kept as given.
public final class SettingsValidators: Sendable {
    /// Records every wrong field of its part into `checks` and normalises it in `settings`
    /// (money without a currency gets the marketplace's).
    public typealias Validator = @Sendable (inout SoukV1.MarketplaceSettings, SettingsContext, inout FieldChecks) throws -> Void

    private let validators = Mutex<[(String, Validator)]>([])

    public init() {}

    /// Adds the validator of one part, named for logs ("laundry").
    public func add(_ name: String, _ validator: @escaping Validator) {
        validators.withLock { $0.append((name, validator)) }
    }

    func run(_ settings: inout SoukV1.MarketplaceSettings, _ context: SettingsContext, into checks: inout FieldChecks) throws {
        for (_, validator) in validators.withLock({ $0 }) { try validator(&settings, context, &checks) }
    }
}

/// The checks settings validators share, each recording into `checks` what is wrong.
public enum SettingsFields {
    public static func range(_ value: Int32, _ range: ClosedRange<Int32>, _ field: String, into checks: inout FieldChecks) {
        checks.require(range.contains(value), field, "must be between \(range.lowerBound) and \(range.upperBound)")
    }

    /// A duration that must not be negative.
    public static func duration(_ value: Duration?, _ field: String, into checks: inout FieldChecks) {
        if let value, value < .zero { checks.add(field, "must not be negative") }
    }

    public static func duration(_ value: Duration?, _ range: ClosedRange<Duration>, _ field: String, into checks: inout FieldChecks) {
        if let value, !range.contains(value) {
            checks.add(field, "must be between \(range.lowerBound.components.seconds) and \(range.upperBound.components.seconds) seconds")
        }
    }

    /// `value` in the marketplace's currency (given it when it names none), not negative.
    public static func money(_ value: SoukV1.Money?, _ currency: String, _ field: String, into checks: inout FieldChecks) -> SoukV1.Money? {
        guard var value else { return nil }
        if value.currencyCode.isEmpty { value.currencyCode = currency }
        guard value.currencyCode == currency else {
            checks.add(field, "must be in the marketplace's currency \(currency), not \(value.currencyCode)")
            return value
        }
        checks.require(value.amountMinor >= 0, field, "must not be negative")
        return value
    }
}
