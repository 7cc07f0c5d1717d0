import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Points and radii of map searches.
enum SearchArea {
    /// A valid point; INVALID_ARGUMENT naming `field` otherwise.
    static func point(_ point: SoukV1.GeoPoint?, field: String) throws -> GeoPosition {
        guard let point else { throw RPCError.invalidField(field, "is required") }
        let position = GeoPosition(latitude: point.latitude, longitude: point.longitude)
        guard position.isValid else { throw RPCError.invalidField(field, "must be a latitude within ±90 and a longitude within ±180") }
        return position
    }

    /// The radius asked for, `default` when 0; INVALID_ARGUMENT (radius_meters) when negative or
    /// above `most`.
    static func radius(_ meters: Int32, default fallback: Int32, most: Int32) throws -> Double {
        guard meters >= 0, meters <= most else { throw RPCError.invalidField("radius_meters", "must be from 0 to \(most) (0 means \(fallback))") }
        return Double(meters == 0 ? fallback : meters)
    }

    /// A distance as the contract carries it: whole meters.
    static func meters(_ distance: Double) -> Int32 { Int32(min(distance, Double(Int32.max)).rounded()) }
}
