import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// Menu items: option groups checked field by field, the effective price, what guests see.
@Suite struct MenuTests {
    @Test func effectivePriceRoundsTheDiscountHalfAwayFromZero() {
        func item(_ price: Int64, _ bps: Int32) -> SoukStoreV1.MenuItem {
            SoukStoreV1.MenuItem(price: .init(amountMinor: price, currencyCode: "USD"), discountBps: bps)
        }
        #expect(MenuItemRules.effectivePrice(item(1999, 1250)) == 1749)  // discount 249.875 → 250
        #expect(MenuItemRules.effectivePrice(item(1000, 0)) == 1000)
        #expect(MenuItemRules.effectivePrice(item(1000, 10_000)) == 0)
        #expect(MenuItemRules.effectivePrice(item(5, 1000)) == 4)  // discount 0.5 → 1
    }

    @Test func optionGroupsAreCheckedNamingTheField() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Check Pizza")
        func refused(_ change: (inout SoukV1.MenuItem) -> Void) async -> String? {
            var item = food.pizzaInput(restaurant)
            change(&item)
            let error = await food.catalogError("CreateMenuItem", SoukV1.CreateMenuItemRequest(
                marketplaceID: food.market.id, requestID: RecordID.generate().description, menuItem: item), token: owner)
            return error?.code == .invalidArgument ? error?.message : "not refused: \(String(describing: error))"
        }
        #expect(await refused { $0.optionGroups[0].minChoices = 2 }?.hasPrefix("menu_item.option_groups[0].min_choices") == true)
        #expect(await refused { $0.optionGroups[0].maxChoices = 3 }?.hasPrefix("menu_item.option_groups[0].max_choices") == true)
        #expect(await refused { $0.optionGroups[1].required = true }?.hasPrefix("menu_item.option_groups[1].min_choices") == true)
        #expect(await refused { $0.optionGroups[1].name = " " }?.hasPrefix("menu_item.option_groups[1].name") == true)
        #expect(await refused { $0.optionGroups[1].choices[2].name = "" }?.hasPrefix("menu_item.option_groups[1].choices[2].name") == true)
        #expect(await refused { $0.optionGroups[0].choices[1].price = food.money(CatalogLimits.maxPriceMinor + 1) }?
            .hasPrefix("menu_item.option_groups[0].choices[1].price") == true)
        #expect(await refused { $0.optionGroups[0].choices[1].price = .init(amountMinor: 1, currencyCode: "EUR") }?
            .hasPrefix("menu_item.option_groups[0].choices[1].price") == true)
        #expect(await refused { $0.optionGroups[0].choices = [] }?.hasPrefix("menu_item.option_groups[0].choices") == true)
        #expect(await refused { $0.optionGroups[1].choices[1].id = "cheese" }?.hasPrefix("menu_item.option_groups[1].choices[1].id") == true)
        #expect(await refused { $0.discountBps = 10_001 }?.hasPrefix("menu_item.discount_bps") == true)
        #expect(await refused { $0.name = "" }?.hasPrefix("menu_item.name") == true)
        // Missing ids are assigned; given ones are kept.
        var input = food.pizzaInput(restaurant)
        input.optionGroups[1].id = ""
        input.optionGroups[1].choices[0].id = ""
        let item = try await food.createItem(input, token: owner)
        #expect(item.optionGroups[0].id == "size" && !item.optionGroups[1].id.isEmpty && !item.optionGroups[1].choices[0].id.isEmpty)
    }

    @Test func guestsSeeVisibleItemsBySectionThenName() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Menu Place")
        func add(_ name: String, _ section: String, hidden: Bool = false) async throws -> SoukV1.MenuItem {
            try await food.createItem(SoukV1.MenuItem(
                restaurantID: restaurant.id, name: name, price: food.money(500), section: section, available: true, hidden: hidden), token: owner)
        }
        let tiramisu = try await add("Tiramisu", "Desserts")
        let penne = try await add("Penne", "pasta")
        let alfredo = try await add("Alfredo", "Pasta")
        let secret = try await add("Secret Special", "Pasta", hidden: true)
        func menu(_ request: SoukV1.ListMenuItemsRequest, token: String? = nil) async throws -> [String] {
            let response: SoukV1.ListMenuItemsResponse = try await food.catalog("ListMenuItems", request, token: token)
            return response.menuItems.map(\.name)
        }
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id)) == ["Tiramisu", "Alfredo", "Penne"])
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id, section: "PASTA")) == ["Alfredo", "Penne"])
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id, showHidden: true), token: owner)
            == ["Tiramisu", "Alfredo", "Penne", "Secret Special"])
        let peek = await food.catalogError("ListMenuItems", SoukV1.ListMenuItemsRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id, showHidden: true))
        #expect(peek?.code == .permissionDenied)
        let hiddenRead = await food.catalogError("GetMenuItem", SoukV1.GetMenuItemRequest(marketplaceID: food.market.id, menuItemID: secret.id))
        #expect(hiddenRead?.code == .notFound)
        // Deleting archives; the archive lists it; restoring brings it back.
        let _: SoukV1.MenuItem = try await food.catalog("ArchiveMenuItem", SoukV1.ArchiveMenuItemRequest(
            marketplaceID: food.market.id, menuItemID: penne.id), token: owner)
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id)) == ["Tiramisu", "Alfredo"])
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id, showArchived: true), token: owner) == ["Penne"])
        let _: SoukV1.MenuItem = try await food.catalog("RestoreMenuItem", SoukV1.RestoreMenuItemRequest(
            marketplaceID: food.market.id, menuItemID: penne.id), token: owner)
        #expect(try await menu(.init(marketplaceID: food.market.id, restaurantID: restaurant.id)) == ["Tiramisu", "Alfredo", "Penne"])
        // Another restaurant's owner edits nothing here.
        let (_, other) = try await food.openRestaurant("Other Place")
        let foreign = await food.catalogError("UpdateMenuItem", SoukV1.UpdateMenuItemRequest(
            marketplaceID: food.market.id, menuItem: .init(id: tiramisu.id, name: "Mine"), updateMask: .init(paths: ["name"])), token: other)
        #expect(foreign?.code == .permissionDenied)
        // Pages follow the same order.
        let first: SoukV1.ListMenuItemsResponse = try await food.catalog("ListMenuItems", SoukV1.ListMenuItemsRequest(
            marketplaceID: food.market.id, pageSize: 2, restaurantID: restaurant.id))
        let second: SoukV1.ListMenuItemsResponse = try await food.catalog("ListMenuItems", SoukV1.ListMenuItemsRequest(
            marketplaceID: food.market.id, pageSize: 2, pageToken: first.nextPageToken, restaurantID: restaurant.id))
        #expect(first.menuItems.map(\.id) == [tiramisu.id, alfredo.id] && second.menuItems.map(\.id) == [penne.id] && second.nextPageToken.isEmpty)
        // An archived restaurant's menu is gone for guests.
        let _: SoukV1.Restaurant = try await food.catalog("ArchiveRestaurant", SoukV1.ArchiveRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id), token: owner)
        let gone = await food.catalogError("ListMenuItems", SoukV1.ListMenuItemsRequest(marketplaceID: food.market.id, restaurantID: restaurant.id))
        #expect(gone?.code == .notFound)
    }
}
