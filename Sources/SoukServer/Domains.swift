import SoukContent
import SoukFood
import SoukIdentity
import SoukKit
import SoukLaundry
import SoukMedia
import SoukMessaging
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukRentals
import SoukReports
import SoukShops
import SoukStore
import SoukStoreTools
import SoukSupport

/// Every domain the server mounts, listed once, each after the domains it builds on: the
/// store's schema, the domains made at start (and the hooks they register), the router's
/// services, the lifecycle page, the background tasks and the demo data all come from this
/// list. Adding a domain is its module, its target in Package.swift and one line here (see
/// Sources/SoukKit/ADDING-A-SERVICE.md).
enum Domains {
    static let all: [any SoukDomain.Type] = [
        Reports.self,
        Identity.self,
        Media.self,
        Notifications.self,
        Payments.self,
        Commerce.self,
        Shops.self,
        Food.self,
        Laundry.self,
        Rentals.self,
        Support.self,
        Messaging.self,
        Content.self,
    ]

    /// Every lifecycle the listed domains declare, for `souk-server state-machines`.
    static var lifecyclePage: LifecyclePage {
        var page = LifecyclePage()
        for domain in all {
            for lifecycle in domain.lifecycles { page.add(lifecycle) }
        }
        return page
    }
}

/// Every table the server stores, for the server and for the `store` commands.
enum SoukSchema: StoreSchemaProvider {
    static var schema: Schema { Schema.mounting(Domains.all) }
}
