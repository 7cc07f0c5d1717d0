import SoukFood
import SoukIdentity
import SoukKit
import SoukOrders
import SoukShops

/// The commerce domains as the server mounts them, for a `DomainHarness`: the shared orders,
/// then the shops and food delivery, which register their hooks with them.
public enum CommerceDomains {
    /// The types to put in a harness's `domainTypes`, in mount order.
    public static let types: [any SoukDomain.Type] = [Commerce.self, Shops.self, Food.self]

    /// `commerce` with the shops and food delivery mounted over it (`identity`: for the role
    /// decisions food delivery joins).
    public static func mounting(_ commerce: Commerce, identity: Identity? = nil) -> [any SoukDomain] {
        [commerce, Shops(commerce: commerce), Food(commerce: commerce, identity: identity)]
    }
}
