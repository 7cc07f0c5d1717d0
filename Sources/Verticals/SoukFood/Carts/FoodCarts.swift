import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Food carts (DineSwift): one per customer, stored under the customer's account id like retail
/// carts, holding items of one restaurant. A line stores the item, the chosen options (ids), the
/// note and the quantity; names, prices and purchasability come from `FoodCartPricing` on every
/// read.
struct FoodCarts {
    let commerce: Commerce
    var store: Store { commerce.store }

    func get(_ request: SoukV1.GetCartRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let stored = try CartView.stored(caller.accountID, in: marketplaceID, store: store)
        let cart = stored?.value.subject ?? SoukStoreV1.Cart()
        return Self.view(stored, accountID: caller.accountID, quote: try FoodCartPricing.price(cart, marketplace: marketplace, store: store))
    }

    func add(_ request: SoukV1.AddCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let note = request.note.trimmingCharacters(in: .whitespacesAndNewlines)
        let chosen = request.options
        return try await CartView.addOnce(request, call, store: store) { adding, transaction in
            let (caller, marketplaceID, marketplace) = (adding.caller, adding.marketplaceID, adding.marketplace)
            let (itemID, quantity, expected) = (adding.itemID, adding.quantity, adding.expected)
            // Neither is locked: a cart line only names them, and every customer's cart refers to them.
            let item = try transaction.reference(MenuItemTable.table, itemID, in: marketplaceID, "menu item").value.subject
            guard let restaurantID = RecordID(item.restaurantID),
                  let restaurant = try transaction.read(RestaurantTable.table, restaurantID)?.value.subject,
                  RestaurantRules.isVisible(restaurant), MenuItemRules.isVisible(item)
            else { throw RPCError.notFound("menu item", itemID.description) }
            guard item.available else {
                throw RPCError.souk(
                    .failedPrecondition, .itemUnavailable, "\(item.name) (\(itemID)) is unavailable now", metadata: ["menu_item_id": itemID.description])
            }
            guard restaurant.open else {
                throw RPCError.souk(
                    .failedPrecondition, .restaurantClosed, "\(restaurant.name) is closed now", metadata: ["restaurant_id": item.restaurantID])
            }
            let options: [SoukStoreV1.CartLineOption]
            switch MenuOptions.resolve(chosen, of: item) {
            case .success(let resolved): options = resolved.map { SoukStoreV1.CartLineOption(groupID: $0.group.id, choiceID: $0.choice.id) }
            case .failure(let problem): throw problem.rpcError
            }
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            try Self.checkSameRestaurant(cart.subject, adding: restaurant, id: item.restaurantID, transaction: transaction)
            if cart.subject.lines.contains(where: { $0.itemID == itemID.description && $0.options == options && $0.note == note }) {
                throw RPCError.souk(
                    .alreadyExists, .cartLineExists,
                    "\(item.name) with these options and note is already in the cart: change the quantity of its line instead",
                    field: "item_id", metadata: ["menu_item_id": itemID.description])
            }
            try RetailPricing.checkRoom(forLineAfter: cart.subject.lines.count)
            let line = SoukStoreV1.CartLine(
                itemID: itemID.description, itemType: .menuItem, quantity: quantity, lineID: RecordID.generate().description,
                options: options, note: note)
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) {
                $0.restaurantID = item.restaurantID
                $0.lines.append(line)
            }
            return try Self.view(saved, marketplace: marketplace, transaction: transaction)
        }
    }

    func update(_ request: SoukV1.UpdateCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let lineIDField = try checks.run { try Self.lineID(CartView.named(request.line).lineID) }
        let quantityField = try checks.run { try CartView.checkQuantity(request.quantity, marketplace) }
        let expectedField = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (lineID, quantity, expected) = (lineIDField!, quantityField!, expectedField!)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let index = try CartView.lineIndex(in: cart.subject, lineID: lineID, itemID: "")
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines[index].quantity = quantity }
            return try Self.view(saved, marketplace: marketplace, transaction: transaction)
        }
    }

    func remove(_ request: SoukV1.RemoveCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let lineID = try Self.lineID(CartView.named(request.line).lineID)
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let index = try CartView.lineIndex(in: cart.subject, lineID: lineID, itemID: "")
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.remove(at: index) }
            return try Self.view(saved, marketplace: marketplace, transaction: transaction)
        }
    }

    func clear(_ request: SoukV1.ClearCartRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.removeAll() }
            return try Self.view(saved, marketplace: marketplace, transaction: transaction)
        }
    }

    private static func lineID(_ text: String) throws -> String {
        guard !text.isEmpty else { throw RPCError.invalidField("line_id", "is required: food cart lines are named by their line_id") }
        return text
    }

    /// FAILED_PRECONDITION (CART_OTHER_RESTAURANT) naming the restaurant whose items the cart
    /// holds, when it is not `restaurant`.
    private static func checkSameRestaurant(
        _ cart: SoukStoreV1.Cart, adding restaurant: SoukStoreV1.Restaurant, id: String, transaction: Transaction
    ) throws {
        guard !cart.lines.isEmpty, !cart.restaurantID.isEmpty, cart.restaurantID != id else { return }
        let current = try RecordID(cart.restaurantID).flatMap { try transaction.get(RestaurantTable.table, $0) }
        let name = current?.value.subject.name ?? "another restaurant"
        throw RPCError.souk(
            .failedPrecondition, .cartOtherRestaurant,
            "the cart holds items of \(name): a cart holds one restaurant's items; clear it to order from \(restaurant.name)",
            metadata: ["restaurant_id": cart.restaurantID, "restaurant_name": name])
    }

    /// The cart as its customer sees it, priced in a transaction.
    private static func view(_ saved: StoredRecord<CartRecord>, marketplace: SoukV1.Marketplace, transaction: Transaction) throws -> SoukV1.Cart {
        view(saved, accountID: saved.id, quote: try FoodCartPricing.price(saved.value.subject, marketplace: marketplace, in: transaction))
    }

    /// The stored cart with every line and the totals from `quote`.
    static func view(_ stored: StoredRecord<CartRecord>?, accountID: RecordID, quote: FoodCartPricing.Quote) -> SoukV1.Cart {
        var cart = CartProjection.cart(stored, accountID: accountID)
        cart.restaurantName = quote.restaurant?.name ?? ""
        for (index, line) in zip(cart.lines.indices, quote.lines) {
            let order = line.orderLine
            cart.lines[index].name = order.name
            cart.lines[index].itemPrice = SoukV1.Money(amountMinor: line.itemPrice, currencyCode: order.unitPrice?.currencyCode ?? "")
            cart.lines[index].unitPrice = order.unitPrice
            cart.lines[index].lineTotal = order.lineTotal
            cart.lines[index].imageMediaID = line.imageMediaID
            cart.lines[index].purchasable = line.purchasable
            cart.lines[index].unavailableReason = line.unavailableReason
            cart.lines[index].options = order.options.map {
                SoukV1.CartLineOption(groupID: $0.groupID, choiceID: $0.choiceID, groupName: $0.groupName, choiceName: $0.choiceName, price: $0.price)
            }
        }
        cart.price = quote.price
        cart.purchasable = quote.problem == nil
        cart.unavailableReason = quote.problem?.message ?? ""
        return cart
    }
}
