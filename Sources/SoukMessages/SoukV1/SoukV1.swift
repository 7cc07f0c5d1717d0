/// Swift types for `souk.v1`, the Souk API contract (`Proto/souk/v1`). One file per proto file;
/// each holds the wrappers written so far (a service's messages arrive with its implementation).
public enum SoukV1 {}

/// A souk.v1 request that names its marketplace as field 1, `string marketplace_id = 1` (the
/// contract's scoping rule; only CreateMarketplace and ListMarketplaces have none).
public protocol MarketplaceScopedRequest: ProtoMessage {
    /// The marketplace the call acts in; empty only where the RPC allows it (operator Login).
    var marketplaceID: String { get }
}
