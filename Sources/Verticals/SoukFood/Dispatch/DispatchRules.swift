import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A food marketplace's dispatch settings (marketplaces.proto, DeliverySettings), with the
/// values its comments give as examples when the marketplace sets none.
struct DispatchRules: Sendable {
    var offerTimeout: Duration
    var locationStaleAfter: Duration
    /// The driver's earnings per delivery (CommerceSettings.delivery_fee).
    var deliveryFee: SoukV1.Money

    init(_ marketplace: SoukV1.Marketplace) {
        let settings = marketplace.settings?.delivery
        offerTimeout = Self.positive(settings?.offerTimeout) ?? .seconds(90)
        locationStaleAfter = Self.positive(settings?.locationStaleAfter) ?? .seconds(60)
        let fee = marketplace.settings?.commerce?.deliveryFee
        deliveryFee = SoukV1.Money(amountMinor: fee?.amountMinor ?? 0, currencyCode: marketplace.currencyCode)
    }

    /// The oldest position time (µs) of a driver who may still be offered work at `now`.
    func freshSince(_ now: StoreTime) -> Int64 {
        now.adding(.zero - locationStaleAfter).microsecondsSinceEpoch
    }

    private static func positive(_ duration: Duration?) -> Duration? {
        guard let duration, duration > .zero else { return nil }
        return duration
    }
}

/// Distances shown to restaurants and drivers (DOMAIN decision 24): rounded to the nearest
/// 100 m, so no answer gives a driver's distance to the metre.
enum ShownDistance {
    static let step = 100.0

    /// `exact` meters rounded to the step (half away from zero).
    static func meters(_ exact: Double) -> Int32 {
        Int32(min((exact / step).rounded() * step, Double(Int32.max)))
    }
}
