import SoukCommerce
import SoukIdentity
import SoukLaundry
import SoukKit
import SoukMedia
import SoukNotifications
import SoukPayments
import SoukRentals
import SoukStore
import SoukStoreTools

/// Every domain the server mounts, listed once: the store's schema, the router's services and
/// the demo data come from this list. Adding a domain is adding it here (see
/// Sources/SoukKit/ADDING-A-SERVICE.md).
enum Domains {
    /// The domain types, for the schema (which the store needs before any domain exists).
    static let types: [any SoukDomain.Type] = [Identity.self, Media.self, Payments.self, Notifications.self, Commerce.self, Laundry.self, Rentals.self]

    /// The domains over an open store. Their types must be exactly `types` (a test checks).
    static func make(
        identity: Identity, media: Media, payments: Payments, notifications: Notifications, commerce: Commerce, laundry: Laundry, rentals: Rentals
    ) -> [any SoukDomain] {
        [identity, media, payments, notifications, commerce, laundry, rentals]
    }
}

/// Every table the server stores, for the server and for the `store` commands.
enum SoukSchema: StoreSchemaProvider {
    static var schema: Schema { Schema.mounting(Domains.types) }
}
