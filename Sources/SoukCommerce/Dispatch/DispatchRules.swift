import SoukGRPC
import SoukKit
import SoukMessages
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

/// Checks of the positions clients send.
enum GeoFields {
    /// `point` as a position, or INVALID_ARGUMENT naming `field` (and its latitude or longitude).
    static func position(_ point: SoukV1.GeoPoint?, field: String) throws -> GeoPosition {
        guard let point else { throw RPCError.invalidField(field, "is required") }
        guard point.latitude.isFinite, (-90...90).contains(point.latitude) else {
            throw RPCError.invalidField("\(field).latitude", "must be between -90 and 90 degrees")
        }
        guard point.longitude.isFinite, (-180...180).contains(point.longitude) else {
            throw RPCError.invalidField("\(field).longitude", "must be between -180 and 180 degrees")
        }
        return GeoPosition(point)
    }
}
