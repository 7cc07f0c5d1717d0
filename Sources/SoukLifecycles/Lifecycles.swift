import SoukCommerce
import SoukKit
import SoukLaundry
import SoukPayments
import SoukRentals
import SoukSupport

/// Every lifecycle the five apps declare, in the order the lifecycle page shows them. The page
/// (`Sources/SoukKit/StateMachine/MACHINES.md`) is `page.markdown`, written by
/// `souk-server state-machines` from `scripts/generate`.
public enum Lifecycles {
    public static var page: LifecyclePage {
        var page = LifecyclePage()
        page.add(OrderLifecycles.waterServices)
        page.add(OrderLifecycles.retail)
        page.add(OrderLifecycles.foodDelivery)
        page.add(DeliveryLifecycles.waterServices)
        page.add(DeliveryLifecycles.foodDelivery)
        page.add(PaymentLifecycle.machine)
        page.add(JobLifecycle.machine)
        page.add(ListingLifecycle.machine)
        page.add(RentalLifecycles.booking)
        page.add(RentalLifecycles.bill)
        page.add(TicketLifecycle.machine)
        return page
    }
}
