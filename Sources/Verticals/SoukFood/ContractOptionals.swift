import SoukMessages
import SoukOrders

// The contract's optional numbers are one-field oneofs (protobuf-c has no proto3 `optional`):
// these read and write them as Swift optionals.

extension SoukV1.SetRestaurantCommissionRequest {
    /// The commission asked for, when the request sets it (0 included: no commission).
    public var commissionBps: Int32? {
        get { if case .commissionBps(let bps)? = optionalCommissionBps { bps } else { nil } }
        set { optionalCommissionBps = newValue.map { .commissionBps($0) } }
    }
}
