import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

extension CommerceDemo {
    /// DineSwift's restaurants in Beirut, approved and open, with their menus: a pizzeria (the
    /// demo provider's, whose pizzas have a required size and optional extras), a manakish bakery
    /// and a burger place. Prices are USD cents. A restaurant whose owner already has one is
    /// left as it is, but for the demo menu items it lacks (found by section and name, archived
    /// ones included).
    ///
    /// The restaurant, then each menu item, in a transaction of its own: a restaurant with its
    /// whole menu exceeds etcd's default 128 writes per commit. A load cut off between them is
    /// completed by the next one; a second load adds nothing.
    func loadDineSwift(_ demo: DemoContext) async throws {
        guard let marketplace = demo.marketplaces["dineswift"], let marketplaceID = RecordID(marketplace.id) else { return }
        let market = marketplaceID.description
        let emails = demo.accountsByEmail["dineswift"] ?? [:]
        let admin = demo.accounts["dineswift"]?[.admin]?.description ?? ""
        let store = commerce.store
        for plan in Self.dineSwiftRestaurants(currency: marketplace.currencyCode) {
            guard let owner = emails[plan.ownerEmail] else { continue }
            var restaurant = plan.restaurant
            restaurant.ownerAccountID = owner.description
            restaurant.commissionBps = marketplace.settings?.commerce?.defaultCommissionBps ?? 0
            restaurant.approvalState = .approved
            restaurant.decidedByAccountID = admin
            restaurant.open = true
            restaurant.decideTime = Timestamp(commerce.now)
            let byOwner: [KeyPart] = [.string(market), .string(owner.description)]
            let restaurantID: RecordID
            if let existing = try store.get(RestaurantTable.table, unique: RestaurantTable.byOwner, byOwner) {
                restaurantID = existing.id
            } else {
                restaurantID = try await store.write { [restaurant] transaction in
                    if let existing = try transaction.get(RestaurantTable.table, unique: RestaurantTable.byOwner, byOwner) { return existing.id }
                    return try transaction.insert(RestaurantTable.table, RestaurantRecord(marketplaceID: market, restaurant)).id
                }
            }
            for var item in plan.menu {
                item.restaurantID = restaurantID.description
                let present = try [MenuAudience.active, .archive].contains { audience in
                    let key: [KeyPart] = [
                        .string(market), .string(item.restaurantID), .string(audience.rawValue), .string(ProductText.sortKey(item.section)),
                        .string(ProductText.sortKey(item.name)),
                    ]
                    return try store.list(MenuItemTable.table, MenuItemTable.byMenu, .starting(with: key)).items.contains {
                        $0.value.subject.section == item.section && $0.value.subject.name == item.name
                    }
                }
                guard !present else { continue }
                try await store.write { [item] transaction in
                    _ = try transaction.insert(MenuItemTable.table, MenuItemRecord(marketplaceID: market, item))
                }
            }
        }
    }

    /// A demo restaurant, its owner's e-mail and its menu.
    struct RestaurantPlan {
        var ownerEmail: String
        var restaurant: SoukStoreV1.Restaurant
        var menu: [SoukStoreV1.MenuItem]
    }

    static func dineSwiftRestaurants(currency: String) -> [RestaurantPlan] {
        func money(_ cents: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: cents, currencyCode: currency) }
        func place(_ name: String, _ description: String, street: String, area: String, _ latitude: Double, _ longitude: Double,
                   _ categories: [String]) -> SoukStoreV1.Restaurant {
            var restaurant = SoukStoreV1.Restaurant()
            restaurant.name = name
            restaurant.description = description
            restaurant.address = SoukV1.Address(
                label: name, line1: street, line2: area, city: "Beirut", countryCode: "LB",
                location: SoukV1.GeoPoint(latitude: latitude, longitude: longitude))
            restaurant.categories = categories
            return restaurant
        }
        func choice(_ id: String, _ name: String, _ cents: Int64) -> SoukV1.MenuOptionChoice {
            SoukV1.MenuOptionChoice(id: id, name: name, price: money(cents))
        }
        func item(_ name: String, _ section: String, _ cents: Int64, _ description: String, discount: Int32 = 0,
                  groups: [SoukV1.MenuOptionGroup] = []) -> SoukStoreV1.MenuItem {
            var item = SoukStoreV1.MenuItem()
            item.name = name
            item.section = section
            item.price = money(cents)
            item.description = description
            item.discountBps = discount
            item.available = true
            item.optionGroups = groups
            return item
        }
        let size = SoukV1.MenuOptionGroup(
            id: "size", name: "Size", required: true, minChoices: 1, maxChoices: 1,
            choices: [choice("small", "Small (25 cm)", 0), choice("medium", "Medium (30 cm)", 200), choice("large", "Large (35 cm)", 400)])
        let extras = SoukV1.MenuOptionGroup(
            id: "extras", name: "Extras", required: false, minChoices: 0, maxChoices: 3,
            choices: [choice("cheese", "Extra mozzarella", 150), choice("mushrooms", "Mushrooms", 100), choice("olives", "Black olives", 75),
                      choice("jalapenos", "Jalapeños", 75)])
        let doneness = SoukV1.MenuOptionGroup(
            id: "doneness", name: "Doneness", required: true, minChoices: 1, maxChoices: 1,
            choices: [choice("medium-rare", "Medium rare", 0), choice("medium", "Medium", 0), choice("well-done", "Well done", 0)])
        return [
            RestaurantPlan(
                ownerEmail: "restaurant@dineswift.example",
                restaurant: place("Pizza Roma", "Wood-fired pizza and fresh pasta on Hamra Street.", street: "Hamra Street 112",
                                  area: "Hamra", 33.8959, 35.4828, ["pizza", "italian"]),
                menu: [
                    item("Margherita Pizza", "Pizza", 900, "Tomato, mozzarella and basil.", groups: [size, extras]),
                    item("Pepperoni Pizza", "Pizza", 1100, "Tomato, mozzarella and spicy pepperoni.", groups: [size, extras]),
                    item("Quattro Formaggi Pizza", "Pizza", 1250, "Mozzarella, gorgonzola, parmesan and fontina.", discount: 1000,
                         groups: [size, extras]),
                    item("Penne Arrabbiata", "Pasta", 850, "Penne in a garlic and chili tomato sauce."),
                    item("Fettuccine Alfredo", "Pasta", 950, "Fettuccine in a parmesan cream sauce."),
                    item("Tiramisu", "Desserts", 550, "Mascarpone, espresso and cocoa."),
                ]),
            RestaurantPlan(
                ownerEmail: "zaatar@dineswift.example",
                restaurant: place("Zaatar Corner", "Manakish baked to order since 1998.", street: "Sassine Square 8",
                                  area: "Achrafieh", 33.8886, 35.5197, ["lebanese", "manakish", "breakfast"]),
                menu: [
                    item("Zaatar Manoushe", "Manakish", 250, "Thyme, sumac, sesame and olive oil."),
                    item("Cheese Manoushe", "Manakish", 350, "Akkawi and mozzarella.", groups: [SoukV1.MenuOptionGroup(
                        id: "add", name: "Add", required: false, minChoices: 0, maxChoices: 2,
                        choices: [choice("tomato", "Tomato", 50), choice("olives", "Olives", 50), choice("mint", "Fresh mint", 25)])]),
                    item("Halloumi Wrap", "Wraps", 500, "Grilled halloumi, tomato and mint."),
                    item("Fattoush", "Salads", 600, "Crisp bread, sumac and pomegranate molasses."),
                ]),
            RestaurantPlan(
                ownerEmail: "burger@dineswift.example",
                restaurant: place("Gemmayzeh Burger Co.", "Smash burgers and shakes on Gouraud Street.", street: "Gouraud Street 41",
                                  area: "Gemmayzeh", 33.8950, 35.5155, ["burgers", "american"]),
                menu: [
                    item("Classic Burger", "Burgers", 1000, "Beef, cheddar, pickles and house sauce.", groups: [doneness]),
                    item("Chicken Burger", "Burgers", 950, "Crispy chicken, slaw and garlic mayo."),
                    item("Curly Fries", "Sides", 400, "Seasoned curly fries."),
                    item("Vanilla Milkshake", "Drinks", 450, "Madagascar vanilla.", discount: 2000),
                ]),
        ]
    }
}
