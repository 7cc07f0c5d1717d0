import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// Food carts: one restaurant, chosen options and notes, totals from the server.
@Suite struct FoodCartTests {
    @Test func aLineCarriesItsOptionsAndNoteAndTheTotalsAddUp() async throws {
        let food = try await FoodFixture.make(deliveryFee: 300)
        let (restaurant, owner) = try await food.openRestaurant("Pizza Roma")
        let pizza = try await food.createItem(food.pizzaInput(restaurant, price: 1999, discountBps: 1250), token: owner)
        let customer = try await food.harness.token(.customer, in: food.market)
        let cart = try await food.addLine(pizza, [("size", "large"), ("extras", "olives"), ("extras", "cheese")], quantity: 2,
                                          note: "Well done, no basil", token: customer)
        #expect(cart.restaurantID == restaurant.id && cart.restaurantName == "Pizza Roma" && cart.purchasable)
        let line = try #require(cart.lines.first)
        #expect(!line.lineID.isEmpty && line.note == "Well done, no basil" && line.itemType == .menuItem)
        // Options in menu order, with names and prices; unit = 1749 + 400 + 150 + 75.
        #expect(line.options.map(\.choiceName) == ["Large", "Cheese", "Olives"])
        #expect(line.itemPrice?.amountMinor == 1749 && line.unitPrice?.amountMinor == 2374 && line.lineTotal?.amountMinor == 4748)
        let price = try #require(cart.price)
        #expect(price.subtotal?.amountMinor == 4748 && price.tax?.amountMinor == 0)
        #expect(price.fees.map(\.kind) == [.delivery] && price.fees.first?.amount?.amountMinor == 300)
        #expect(price.total?.amountMinor == 5048)
        // The same pizza with other choices is another line; the same choices and note are refused.
        let two = try await food.addLine(pizza, [("size", "small")], token: customer)
        #expect(two.lines.count == 2 && Set(two.lines.map(\.lineID)).count == 2)
        let again = await food.cartError("AddCartLine", food.addRequest(pizza, [("size", "small")], requestID: "again"), token: customer)
        #expect(again?.code == .alreadyExists && again?.soukReason == .cartLineExists)
        // Lines are named by their id.
        let small = try #require(two.lines.first { $0.options.map(\.choiceID) == ["small"] })
        let updated: SoukV1.Cart = try await food.carts("UpdateCartLine", SoukV1.UpdateCartLineRequest(
            marketplaceID: food.market.id, line: .lineID(small.lineID), quantity: 3), token: customer)
        let updatedLine = try #require(updated.lines.first { $0.lineID == small.lineID })
        #expect(updatedLine.quantity == 3 && updatedLine.lineTotal?.amountMinor == 5247)
        let removed: SoukV1.Cart = try await food.carts("RemoveCartLine", SoukV1.RemoveCartLineRequest(
            marketplaceID: food.market.id, line: .lineID(small.lineID)), token: customer)
        #expect(removed.lines.map(\.lineID) == [line.lineID])
        let noLine = await food.cartError("RemoveCartLine", SoukV1.RemoveCartLineRequest(marketplaceID: food.market.id), token: customer)
        #expect(noLine?.code == .invalidArgument && noLine?.message.hasPrefix("line_id") == true)
    }

    @Test func choicesAreCheckedAgainstTheGroups() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Pizza Check")
        let pizza = try await food.createItem(food.pizzaInput(restaurant), token: owner)
        let customer = try await food.harness.token(.customer, in: food.market)
        func refusal(_ options: [(String, String)], note: String = "") async -> String? {
            let error = await food.cartError("AddCartLine", food.addRequest(pizza, options, note: note, requestID: RecordID.generate().description),
                                             token: customer)
            return error?.code == .invalidArgument ? error?.message : "not refused: \(String(describing: error))"
        }
        #expect(await refusal([])?.hasPrefix("options: choose at least 1 of Size") == true)
        #expect(await refusal([("size", "small"), ("size", "large")])?.hasPrefix("options: choose at most 1 of Size") == true)
        #expect(await refusal([("size", "small"), ("extras", "cheese"), ("extras", "olives"), ("extras", "basil")])?
            .hasPrefix("options: choose at most 2 of Extras") == true)
        #expect(await refusal([("size", "huge")])?.hasPrefix("options[0].choice_id") == true)
        #expect(await refusal([("size", "small"), ("sauce", "bbq")])?.hasPrefix("options[1].group_id") == true)
        #expect(await refusal([("size", "small"), ("extras", "cheese"), ("extras", "cheese")])?.hasPrefix("options[2]") == true)
        #expect(await refusal([("size", "small")], note: String(repeating: "x", count: 501))?.hasPrefix("note") == true)
    }

    @Test func aCartHoldsOneRestaurant() async throws {
        let food = try await FoodFixture.make()
        let (roma, romaOwner) = try await food.openRestaurant("Pizza Roma")
        let (zaatar, zaatarOwner) = try await food.openRestaurant("Zaatar Corner", categories: ["lebanese"])
        let pizza = try await food.createItem(food.pizzaInput(roma), token: romaOwner)
        let manoushe = try await food.createItem(SoukV1.MenuItem(
            restaurantID: zaatar.id, name: "Zaatar Manoushe", price: food.money(250), section: "Manakish", available: true), token: zaatarOwner)
        let customer = try await food.harness.token(.customer, in: food.market)
        _ = try await food.addLine(pizza, [("size", "small")], token: customer)
        let other = await food.cartError("AddCartLine", food.addRequest(manoushe, []), token: customer)
        #expect(other?.code == .failedPrecondition && other?.soukReason == .cartOtherRestaurant)
        #expect(other?.message.contains("Pizza Roma") == true && other?.message.contains("Zaatar Corner") == true)
        // Cleared, the cart takes the other restaurant's items.
        let _: SoukV1.Cart = try await food.carts("ClearCart", SoukV1.ClearCartRequest(marketplaceID: food.market.id), token: customer)
        let switched = try await food.addLine(manoushe, [], token: customer, requestID: "after-clear")
        #expect(switched.restaurantID == zaatar.id && switched.lines.count == 1)
    }

    /// Two items of two restaurants added at once to an empty cart: exactly one is kept.
    @Test func concurrentAddsOfTwoRestaurantsKeepOne() async throws {
        let food = try await FoodFixture.make()
        let (roma, romaOwner) = try await food.openRestaurant("Pizza Roma")
        let (zaatar, zaatarOwner) = try await food.openRestaurant("Zaatar Corner")
        let pizza = try await food.createItem(SoukV1.MenuItem(restaurantID: roma.id, name: "Pizza", price: food.money(900), available: true), token: romaOwner)
        let manoushe = try await food.createItem(SoukV1.MenuItem(restaurantID: zaatar.id, name: "Manoushe", price: food.money(250), available: true),
                                                 token: zaatarOwner)
        for round in 0..<3 {
            let customer = try await food.harness.token(.customer, in: food.market, email: "racer\(round)@dineswift.example")
            let kept = try await withThrowingTaskGroup(of: Bool.self) { group in
                for item in [pizza, manoushe] {
                    group.addTask {
                        let error = await food.cartError("AddCartLine", food.addRequest(item, [], requestID: "race-\(item.id)"), token: customer)
                        if let error, error.soukReason != .cartOtherRestaurant && error.soukReason != .staleVersion { throw error }
                        return error == nil
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            let cart: SoukV1.Cart = try await food.carts("GetCart", SoukV1.GetCartRequest(marketplaceID: food.market.id), token: customer)
            #expect(kept == 1 && cart.lines.count == 1)
            #expect(Set(cart.lines.map(\.itemID)).count == 1 && cart.lines.allSatisfy { $0.itemID == (cart.restaurantID == roma.id ? pizza.id : manoushe.id) })
        }
    }

    @Test func unavailableItemsAndAClosedRestaurantAreNotPurchasable() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Pizza Roma")
        let pizza = try await food.createItem(food.pizzaInput(restaurant), token: owner)
        let customer = try await food.harness.token(.customer, in: food.market)
        let cart = try await food.addLine(pizza, [("size", "large")], token: customer)
        #expect(cart.purchasable && cart.unavailableReason.isEmpty)
        func current() async throws -> SoukV1.Cart {
            try await food.carts("GetCart", SoukV1.GetCartRequest(marketplaceID: food.market.id), token: customer)
        }
        // The item becomes unavailable: the line, and so the cart, cannot be bought.
        let _: SoukV1.MenuItem = try await food.catalog("UpdateMenuItem", SoukV1.UpdateMenuItemRequest(
            marketplaceID: food.market.id, menuItem: .init(id: pizza.id, available: false), updateMask: .init(paths: ["available"])), token: owner)
        var seen = try await current()
        #expect(seen.lines.first?.purchasable == false && seen.lines.first?.unavailableReason.contains("unavailable") == true && !seen.purchasable)
        let _: SoukV1.MenuItem = try await food.catalog("UpdateMenuItem", SoukV1.UpdateMenuItemRequest(
            marketplaceID: food.market.id, menuItem: .init(id: pizza.id, available: true), updateMask: .init(paths: ["available"])), token: owner)
        // The size group loses the chosen choice: the line's options no longer fit.
        var groups = food.pizzaInput(restaurant).optionGroups
        groups[0].choices.removeLast()
        let _: SoukV1.MenuItem = try await food.catalog("UpdateMenuItem", SoukV1.UpdateMenuItemRequest(
            marketplaceID: food.market.id, menuItem: .init(id: pizza.id, optionGroups: groups), updateMask: .init(paths: ["option_groups"])),
            token: owner)
        seen = try await current()
        #expect(seen.lines.first?.purchasable == false && seen.lines.first?.unavailableReason.contains("options") == true)
        let _: SoukV1.Cart = try await food.carts("ClearCart", SoukV1.ClearCartRequest(marketplaceID: food.market.id), token: customer)
        _ = try await food.addLine(pizza, [("size", "small")], token: customer, requestID: "small")
        // The restaurant closes: the whole cart waits.
        let _: SoukV1.Restaurant = try await food.catalog("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: restaurant.id, open: false), updateMask: .init(paths: ["open"])), token: owner)
        seen = try await current()
        #expect(seen.lines.first?.purchasable == true && !seen.purchasable && seen.unavailableReason.contains("closed"))
        let closed = await food.cartError("AddCartLine", food.addRequest(pizza, [("size", "large")], requestID: "closed"), token: customer)
        #expect(closed?.code == .failedPrecondition && closed?.soukReason == .restaurantClosed)
        // Checkout's view of the same cart.
        let cartID = try #require(RecordID(seen.id))
        let stored = try #require(try food.harness.store.get(CartTable.table, cartID))
        let quote = try await food.harness.store.write { transaction in
            try FoodCartPricing.price(stored.value.subject, marketplace: food.market, in: transaction)
        }
        #expect(quote.problem?.reason == .restaurantClosed && quote.restaurant?.commissionBps == 1500)
        #expect(quote.lines.first?.orderLine.options.map(\.choiceName) == ["Small"] && quote.lines.first?.orderLine.name == "Margherita Pizza")
    }
}
