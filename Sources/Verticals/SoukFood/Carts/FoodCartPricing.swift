import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// What a food cart costs now, read from the menu: the one place that prices food, for the cart
/// views and for checkout.
///
/// Checkout (food) calls `FoodCartPricing.price(_:marketplace:in:)` inside its transaction (the
/// records it reads are then locked until commit) and gets a `FoodCartQuote`:
/// - `restaurant`: id, owner, name, address snapshot and commission_bps, and whether it takes
///   orders now (approved, not archived, open);
/// - `lines`: per cart line the snapshot an `OrderLine` keeps (`orderLine`: name, list unit
///   price, discount_bps, chosen options with group/choice names and prices, unit price
///   = effective price + options, quantity, line total, note), whether it is purchasable and why not;
/// - `price`: subtotal, tax (only when the marketplace sets tax_rate_bps), the marketplace's
///   delivery fee (FEE_KIND_DELIVERY) and total;
/// - `problem`: nil when checkout may proceed (lines present, all purchasable, restaurant
///   taking orders), else the reason and message to refuse with.
/// The commission is `restaurant.commissionBps` of `price.subtotal` (checkout computes and stores
/// it, rounding with `RetailPricing.tax`).
public enum FoodCartPricing {
    /// The restaurant of a quote, as an order snapshots it.
    public struct Restaurant: Sendable {
        public var id: String
        public var ownerAccountID: String
        public var name: String
        public var address: SoukV1.Address?
        public var commissionBps: Int32
        /// Approved, not archived, open.
        public var takesOrders: Bool
    }

    /// One priced line.
    public struct Line: Sendable {
        public var lineID: String
        /// The order line to store: price snapshots, options with names, note.
        public var orderLine: SoukV1.OrderLine
        public var imageMediaID: String
        /// The item's price after discount, before options.
        public var itemPrice: Int64
        public var purchasable: Bool
        /// Why not, when it is not.
        public var unavailableReason: String
    }

    /// Why checkout must refuse the cart.
    public struct Problem: Sendable, Equatable {
        public var reason: SoukV1.ErrorReason
        public var message: String
    }

    /// A food cart priced now.
    public struct Quote: Sendable {
        public var restaurant: Restaurant?
        public var lines: [Line]
        public var price: SoukV1.PriceBreakdown
        public var problem: Problem?
    }

    /// Prices `cart` (its stored lines) in `transaction`. The restaurant and its menu items are
    /// read, not locked: every order of a restaurant refers to them, and locking them made all its
    /// checkouts wait for one another.
    public static func price(_ cart: SoukStoreV1.Cart, marketplace: SoukV1.Marketplace, in transaction: Transaction) throws -> Quote {
        try price(cart, marketplace: marketplace) { try transaction.read(RestaurantTable.table, $0) } item: { try transaction.read(MenuItemTable.table, $0) }
    }

    /// Prices `cart` from the store, without locking (cart views).
    static func price(_ cart: SoukStoreV1.Cart, marketplace: SoukV1.Marketplace, store: Store) throws -> Quote {
        try price(cart, marketplace: marketplace) { try store.get(RestaurantTable.table, $0) } item: { try store.get(MenuItemTable.table, $0) }
    }

    private static func price(
        _ cart: SoukStoreV1.Cart, marketplace: SoukV1.Marketplace,
        restaurant readRestaurant: (RecordID) throws -> StoredRecord<RestaurantRecord>?,
        item readItem: (RecordID) throws -> StoredRecord<MenuItemRecord>?
    ) throws -> Quote {
        let currency = marketplace.currencyCode
        let market = marketplace.id
        let restaurant = try RecordID(cart.restaurantID).flatMap(readRestaurant).flatMap { $0.value.marketplaceID == market ? $0 : nil }
        var lines: [Line] = []
        var subtotal: Int64 = 0
        for stored in cart.lines {
            let item = try RecordID(stored.itemID).flatMap(readItem)
                .flatMap { $0.value.marketplaceID == market && $0.value.subject.restaurantID == cart.restaurantID ? $0 : nil }
            let line = priced(stored, item: item, currency: currency)
            subtotal += line.orderLine.lineTotal.minor
            lines.append(line)
        }
        let snapshot = restaurant.map {
            Restaurant(
                id: $0.id.description, ownerAccountID: $0.value.subject.ownerAccountID, name: $0.value.subject.name,
                address: $0.value.subject.address, commissionBps: $0.value.subject.commissionBps,
                takesOrders: RestaurantRules.takesOrders($0.value.subject))
        }
        return Quote(
            restaurant: snapshot, lines: lines, price: breakdown(subtotal: subtotal, hasLines: !lines.isEmpty, marketplace: marketplace),
            problem: problem(restaurant: restaurant?.value.subject, lines: lines))
    }

    /// One line priced from its item (nil: the item is gone or not of the cart's restaurant).
    private static func priced(_ stored: SoukStoreV1.CartLine, item record: StoredRecord<MenuItemRecord>?, currency: String) -> Line {
        var order = SoukV1.OrderLine()
        order.itemID = stored.itemID
        order.itemType = .menuItem
        order.quantity = stored.quantity
        order.note = stored.note
        guard let record else {
            order.unitPrice = SoukV1.Money(amountMinor: 0, currencyCode: currency)
            order.lineTotal = SoukV1.Money(amountMinor: 0, currencyCode: currency)
            return Line(lineID: stored.lineID, orderLine: order, imageMediaID: "", itemPrice: 0, purchasable: false,
                        unavailableReason: "this item is no longer on the menu")
        }
        let item = record.value.subject
        let effective = MenuItemRules.effectivePrice(item)
        order.name = item.name
        order.listUnitPrice = SoukV1.Money(amountMinor: item.price?.amountMinor ?? 0, currencyCode: currency)
        order.discountBps = item.discountBps
        var reason = item.archived ? "\(item.name) was removed from the menu"
            : item.hidden ? "\(item.name) is not on the menu now"
            : !item.available ? "\(item.name) is unavailable now" : ""
        var optionsPrice: Int64 = 0
        switch MenuOptions.resolve(stored.options.map { SoukV1.CartLineOption(groupID: $0.groupID, choiceID: $0.choiceID) }, of: item) {
        case .success(let chosen):
            order.options = chosen.map {
                SoukV1.OrderLineOption(
                    groupID: $0.group.id, groupName: $0.group.name, choiceID: $0.choice.id, choiceName: $0.choice.name,
                    price: SoukV1.Money(amountMinor: $0.choice.price?.amountMinor ?? 0, currencyCode: currency))
            }
            optionsPrice = chosen.reduce(0) { $0 + ($1.choice.price?.amountMinor ?? 0) }
        case .failure(let problem):
            // The menu changed since the line was added: show the choices as stored.
            order.options = stored.options.map { SoukV1.OrderLineOption(groupID: $0.groupID, choiceID: $0.choiceID) }
            if reason.isEmpty { reason = "the options of \(item.name) changed: \(problem.message)" }
        }
        let unit = effective + optionsPrice
        order.unitPrice = SoukV1.Money(amountMinor: unit, currencyCode: currency)
        order.lineTotal = SoukV1.Money(amountMinor: unit * Int64(stored.quantity), currencyCode: currency)
        return Line(
            lineID: stored.lineID, orderLine: order, imageMediaID: item.pictureMediaID, itemPrice: effective, purchasable: reason.isEmpty,
            unavailableReason: reason)
    }

    /// Subtotal, tax when the marketplace sets a rate, the delivery fee when the cart has lines,
    /// total.
    static func breakdown(subtotal: Int64, hasLines: Bool, marketplace: SoukV1.Marketplace) -> SoukV1.PriceBreakdown {
        var fees: [SoukV1.Fee] = []
        if hasLines, let fee = marketplace.settings?.commerce?.deliveryFee, fee.amountMinor > 0 {
            fees.append(SoukV1.Fee(kind: .delivery, label: "Delivery", amount: SoukV1.Money(amountMinor: fee.amountMinor, currencyCode: marketplace.currencyCode)))
        }
        return RetailPricing.breakdown(subtotal: subtotal, fees: fees, marketplace: marketplace)
    }

    private static func problem(restaurant: SoukStoreV1.Restaurant?, lines: [Line]) -> Problem? {
        guard !lines.isEmpty else { return Problem(reason: .cartEmpty, message: "the cart is empty") }
        guard let restaurant, RestaurantRules.isVisible(restaurant) else {
            return Problem(reason: .itemUnavailable, message: "the restaurant no longer takes orders here")
        }
        guard restaurant.open else { return Problem(reason: .restaurantClosed, message: "\(restaurant.name) is closed now") }
        if let line = lines.first(where: { !$0.purchasable }) { return Problem(reason: .itemUnavailable, message: line.unavailableReason) }
        return nil
    }
}
