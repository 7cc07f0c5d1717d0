import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A few realistic items for each demo marketplace, by the apps' reports: Aqua Hub's FAQ,
/// Chateau Du Nox's terms and shipping notice, Drip 'n Dash's app policy and a sponsor's
/// advertisement, MARA's announcements and rental rules, DineSwift's notices to drivers.
/// Added once each (fixed ids), by the marketplace's demo admin.
struct ContentDemo {
    let store: Store

    struct Item {
        let id: String
        let slug: String
        let item: SoukStoreV1.ContentItem
    }

    /// 2026-01-01T00:00:00Z: every demo item is published from then.
    static let published = Timestamp(seconds: 1_767_225_600)

    static func announcement(_ title: String, _ body: String, to roles: [SoukV1.Role] = []) -> SoukStoreV1.ContentItem {
        SoukStoreV1.ContentItem(kind: .announcement, title: title, body: body, audienceRoles: roles, publishTime: published)
    }

    static func policy(_ kind: SoukV1.PolicyKind, _ title: String, _ body: String, to roles: [SoukV1.Role] = []) -> SoukStoreV1.ContentItem {
        SoukStoreV1.ContentItem(kind: .policy, title: title, body: body, audienceRoles: roles, publishTime: published, policyKind: kind)
    }

    static func advertisement(_ title: String, _ body: String, link: String, placement: String, to roles: [SoukV1.Role] = [])
        -> SoukStoreV1.ContentItem
    {
        SoukStoreV1.ContentItem(
            kind: .advertisement, title: title, body: body, audienceRoles: roles, publishTime: published, targetURL: link, placement: placement)
    }

    static let items: [Item] = [
        Item(id: "01900000-0000-7000-8000-00000000c001", slug: "aqua-hub", item: policy(
            .faq, "Frequently asked questions",
            """
            **How do I order water?** Pick a service (Safi Water bottles, a drinking or non-drinking water tank), choose the quantity and a delivery window, then pay with Apple Pay or cash on delivery.

            **Can I change the date?** Yes: reschedule any order that is pending or approved from its page; you and the delivery staff are told.

            **Why does tank cleaning need approval?** Cleaning and HydroFix maintenance are checked by our team first; bottled water deliveries are approved at once.

            **How do I rate a delivery?** Once the order is completed, leave 1 to 5 stars and a comment from the order.
            """)),
        Item(id: "01900000-0000-7000-8000-00000000c002", slug: "aqua-hub", item: announcement(
            "Tank cleaning slots this week",
            "New morning slots for tank cleaning are open in Arar from Sunday to Thursday. Book early: they fill fast in summer.",
            to: [.customer])),
        Item(id: "01900000-0000-7000-8000-00000000c003", slug: "aqua-hub", item: announcement(
            "Delivery staff: confirm cash at the door",
            "Mark each cash-on-delivery order collected in the app before leaving the customer, so the office sees it at once.",
            to: [.courier])),
        Item(id: "01900000-0000-7000-8000-00000000c101", slug: "chateau-du-nox", item: policy(
            .termsOfService, "Terms of sale",
            "Wines are sold only to customers aged 21 and over. Shipping is RM 59.90 per order and prices include 26% tax, shown separately at checkout. Orders may be cancelled until they ship.")),
        Item(id: "01900000-0000-7000-8000-00000000c102", slug: "chateau-du-nox", item: announcement(
            "New arrivals from Bordeaux",
            "Our connoisseurs have rated this month's Bordeaux reds: find their tasting notes and pairings in the catalog.",
            to: [.customer])),
        Item(id: "01900000-0000-7000-8000-00000000c201", slug: "drip-n-dash", item: policy(
            .community, "Drip 'n Dash app policy",
            """
            Treat every load as your own: follow the customer's instructions, never mix loads, and report damage at once. Customers and Dashers talk in the app only; phone numbers and last names stay private. A disputed charge is decided by an admin within 3 days. Complaints go to support from the job's page.
            """)),
        Item(id: "01900000-0000-7000-8000-00000000c202", slug: "drip-n-dash", item: advertisement(
            "Fresh-scent pods, 20% off on campus",
            "Show the app at the Rutgers Student Center store this month.", link: "https://www.rutgers.edu", placement: "home_banner",
            to: [.customer])),
        Item(id: "01900000-0000-7000-8000-00000000c203", slug: "drip-n-dash", item: announcement(
            "Finals week: more requests than usual",
            "Dashers, expect a busy queue in the College Avenue dorms; switch on Accepting requests when you can take a job.",
            to: [.courier])),
        Item(id: "01900000-0000-7000-8000-00000000c301", slug: "mara", item: announcement(
            "Chào mừng đến với MARA",
            "Tìm nhà thuê dài hạn tại TP. Hồ Chí Minh và Bình Dương, trò chuyện với chủ nhà và thanh toán hóa đơn hằng tháng ngay trong ứng dụng.")),
        Item(id: "01900000-0000-7000-8000-00000000c302", slug: "mara", item: policy(
            .rental, "Quy định thuê nhà",
            "Hợp đồng thuê tối thiểu 6 tháng. Tiền cọc bằng 1 hoặc 2 tháng tiền thuê, do chủ nhà quy định, và được hoàn trả khi kết thúc hợp đồng. Hóa đơn hằng tháng gồm tiền thuê và điện nước.")),
        Item(id: "01900000-0000-7000-8000-00000000c303", slug: "mara", item: announcement(
            "Chủ nhà: phí dịch vụ mới",
            "Từ tháng này, mỗi khoản thanh toán được chia thành phí cổng thanh toán, phí nền tảng và phần của chủ nhà; xem chi tiết trong thu nhập hằng tháng.",
            to: [.provider])),
        Item(id: "01900000-0000-7000-8000-00000000c401", slug: "dineswift", item: announcement(
            "Drivers: stay online near the restaurants",
            "Offers go to the nearest online driver first, ranked by distance from the restaurant. Keep your location on while online.",
            to: [.courier])),
        Item(id: "01900000-0000-7000-8000-00000000c402", slug: "dineswift", item: policy(
            .privacy, "Privacy policy",
            "Your delivery address and phone are shown to the restaurant and the driver of your order only while it is under way. Drivers' positions are shared only with the customer of an active delivery.")),
        Item(id: "01900000-0000-7000-8000-00000000c403", slug: "dineswift", item: advertisement(
            "Free delivery on your first order", "Order from any Beirut restaurant today.", link: "dineswift:restaurants",
            placement: "home_banner", to: [.customer])),
    ]

    func load(_ demo: DemoContext) async throws {
        try await store.write { transaction in
            for demoItem in Self.items {
                guard let marketplace = demo.marketplaces[demoItem.slug], let id = RecordID(demoItem.id),
                      try transaction.get(ContentTable.table, id) == nil
                else { continue }
                var item = demoItem.item
                item.authorAccountID = demo.accounts[demoItem.slug]?[.admin]?.description ?? ""
                // Published before the demo accounts' time: nobody is notified of them (and
                // the notifications other journeys count are theirs alone).
                item.audienceNotified = true
                try transaction.insert(ContentTable.table, ContentRecord(marketplaceID: marketplace.id, item), id: id)
            }
        }
    }
}
