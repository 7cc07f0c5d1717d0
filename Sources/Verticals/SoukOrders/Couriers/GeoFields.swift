import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Checks of the positions clients send.
enum GeoFields {
    /// `point` as a position, or INVALID_ARGUMENT naming `field` (or its latitude and its
    /// longitude, both when both are wrong).
    static func position(_ point: SoukV1.GeoPoint?, field: String) throws -> GeoPosition {
        guard let point else { throw RPCError.invalidField(field, "is required") }
        var checks = FieldChecks()
        checks.require(point.latitude.isFinite && (-90...90).contains(point.latitude), "\(field).latitude", "must be between -90 and 90 degrees")
        checks.require(
            point.longitude.isFinite && (-180...180).contains(point.longitude), "\(field).longitude", "must be between -180 and 180 degrees")
        try checks.finish()
        return GeoPosition(point)
    }
}
