import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Retail carts: one per customer, stored under the customer's account id, one line per
/// product. Lines store only the product and quantity; names, prices, purchasability and the
/// totals are computed on every read.
extension CartsService {
    func getCart(_ request: SoukV1.GetCartRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let stored = try CartView.stored(caller.accountID, in: marketplaceID, store: store)
        return try CartView.view(stored, accountID: caller.accountID, marketplace: marketplace, store: store)
    }

    func addCartLine(_ request: SoukV1.AddCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        try await CartView.addOnce(request, call, store: store) { adding, transaction in
            let (caller, marketplaceID, marketplace) = (adding.caller, adding.marketplaceID, adding.marketplace)
            let (productID, quantity, expected) = (adding.itemID, adding.quantity, adding.expected)
            // Not locked: the stock is decided at checkout; a cart line only names the product.
            let product = try transaction.reference(ProductTable.table, productID, in: marketplaceID, "product").value.subject
            try CartView.checkPurchasable(product, id: productID, quantity: quantity)
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            if cart.subject.lines.contains(where: { $0.itemID == productID.description }) {
                throw RPCError.souk(
                    .alreadyExists, .cartLineExists,
                    "\(product.name) (\(productID)) is already in the cart: change the quantity of its line instead",
                    field: "item_id", metadata: ["product_id": productID.description])
            }
            try RetailPricing.checkRoom(forLineAfter: cart.subject.lines.count)
            var line = SoukStoreV1.CartLine()
            line.lineID = productID.description
            line.itemID = productID.description
            line.itemType = .product
            line.quantity = quantity
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.append(line) }
            return try CartView.view(saved, accountID: caller.accountID, marketplace: marketplace, transaction: transaction)
        }
    }

    func updateCartLine(_ request: SoukV1.UpdateCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let quantityField = try checks.run { try CartView.checkQuantity(request.quantity, marketplace) }
        let expectedField = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (quantity, expected) = (quantityField!, expectedField!)
        let (lineID, itemID) = CartView.named(request.line)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let index = try CartView.lineIndex(in: cart.subject, lineID: lineID, itemID: itemID)
            let productID = try RequestFields.id(cart.subject.lines[index].itemID, field: "item_id")
            if let product = try transaction.get(ProductTable.table, productID)?.value.subject, product.stock < quantity {
                throw CartView.outOfStock(product, id: productID, wanted: quantity)
            }
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines[index].quantity = quantity }
            return try CartView.view(saved, accountID: caller.accountID, marketplace: marketplace, transaction: transaction)
        }
    }

    func removeCartLine(_ request: SoukV1.RemoveCartLineRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let (lineID, itemID) = CartView.named(request.line)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let index = try CartView.lineIndex(in: cart.subject, lineID: lineID, itemID: itemID)
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.remove(at: index) }
            return try CartView.view(saved, accountID: caller.accountID, marketplace: marketplace, transaction: transaction)
        }
    }

    func clearCart(_ request: SoukV1.ClearCartRequest, _ call: SoukCall) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        return try await store.write { transaction in
            let cart = try CartView.current(caller.accountID, marketplaceID: marketplaceID, expected: expected, transaction: transaction)
            let saved = try CartView.save(cart, accountID: caller.accountID, transaction: transaction) { $0.lines.removeAll() }
            return try CartView.view(saved, accountID: caller.accountID, marketplace: marketplace, transaction: transaction)
        }
    }
}

/// Checking and showing retail carts (the carts' common part is the shared orders', `CartView`).
extension CartView {
    static func checkPurchasable(_ product: SoukStoreV1.Product, id: RecordID, quantity: Int32) throws {
        guard !product.archived, product.available else {
            throw RPCError.souk(
                .failedPrecondition, .itemUnavailable, "\(product.name) (\(id)) is not available", metadata: ["product_id": id.description])
        }
        guard product.stock >= quantity else { throw outOfStock(product, id: id, wanted: quantity) }
    }

    static func outOfStock(_ product: SoukStoreV1.Product, id: RecordID, wanted: Int32) -> RPCError {
        RPCError.souk(
            .failedPrecondition, .outOfStock,
            "\(product.name) (\(id)): only \(max(0, product.stock)) in stock, \(wanted) wanted",
            metadata: ["product_id": id.description, "in_stock": "\(max(0, product.stock))"])
    }

    /// The cart as its customer sees it, read from the store.
    static func view(_ stored: StoredRecord<CartRecord>?, accountID: RecordID, marketplace: SoukV1.Marketplace, store: Store) throws
        -> SoukV1.Cart
    {
        let ids = (stored?.value.subject.lines ?? []).compactMap { RecordID($0.itemID) }
        let products = try store.get(ProductTable.table, ids: ids)
        return show(stored, accountID: accountID, marketplace: marketplace, products: products)
    }

    /// The cart as its customer sees it, read in a transaction.
    static func view(_ stored: StoredRecord<CartRecord>, accountID: RecordID, marketplace: SoukV1.Marketplace, transaction: Transaction)
        throws -> SoukV1.Cart
    {
        // Read, not locked: a view decides nothing.
        let products = try stored.value.subject.lines.map { line in try RecordID(line.itemID).flatMap { try transaction.read(ProductTable.table, $0) } }
        return show(stored, accountID: accountID, marketplace: marketplace, products: products)
    }

    /// Refreshes each line from its product (`products`, in line order) and computes the totals.
    private static func show(
        _ stored: StoredRecord<CartRecord>?, accountID: RecordID, marketplace: SoukV1.Marketplace, products: [StoredRecord<ProductRecord>?]
    ) -> SoukV1.Cart {
        var cart = CartProjection.cart(stored, accountID: accountID)
        let currency = marketplace.currencyCode
        var subtotal: Int64 = 0
        for (index, product) in zip(cart.lines.indices, products) {
            let unit = product?.value.subject.price.minor ?? 0
            cart.lines[index].name = product?.value.subject.name ?? ""
            cart.lines[index].unitPrice = SoukV1.Money(amountMinor: unit, currencyCode: currency)
            cart.lines[index].lineTotal = SoukV1.Money(amountMinor: unit * Int64(cart.lines[index].quantity), currencyCode: currency)
            cart.lines[index].imageMediaID = product?.value.subject.imageMediaIDs.first ?? ""
            cart.lines[index].purchasable = product.map {
                ProductRules.isListed($0.value.subject) && $0.value.subject.stock >= cart.lines[index].quantity
            } ?? false
            subtotal += unit * Int64(cart.lines[index].quantity)
        }
        cart.price = RetailPricing.breakdown(subtotal: subtotal, hasLines: !cart.lines.isEmpty, marketplace: marketplace)
        cart.purchasable = !cart.lines.isEmpty && cart.lines.allSatisfy(\.purchasable)
        cart.unavailableReason = cart.lines.isEmpty ? "the cart is empty"
            : cart.purchasable ? "" : "a line is unavailable or short of stock: change or remove it"
        return cart
    }
}
