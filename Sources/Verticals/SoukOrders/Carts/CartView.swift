import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading, checking, storing and showing carts: the shops' and food delivery's way to the
/// carts, whose table is the shared orders' own (`CartTable`, internal).
package enum CartView {
    /// The longest note of a cart line (food carts).
    static let maxNoteLength = 500

    /// A cart as read in a transaction: the stored one (locked), or an empty one at version 0.
    package struct Current {
        package var subject: SoukStoreV1.Cart
        package var version: UInt64
        package var marketplaceID: RecordID
    }

    /// A checked AddCartLine request: who adds which item, how many, to which cart version.
    package struct Addition: Sendable {
        package var caller: Caller
        package var marketplaceID: RecordID
        package var marketplace: SoukV1.Marketplace
        package var itemID: RecordID
        package var quantity: Int32
        package var expected: UInt64?
    }

    /// Checks an AddCartLine request's common fields and runs `add` once per its request id: a
    /// retry of the same request gets the first cart.
    package static func addOnce(
        _ request: SoukV1.AddCartLineRequest, _ call: SoukCall, store: Store,
        _ add: @escaping @Sendable (Addition, Transaction) throws -> SoukV1.Cart
    ) async throws -> SoukV1.Cart {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let itemID = try checks.run { try RequestFields.id(request.itemID, field: "item_id") }
        let quantity = try checks.run { try checkQuantity(request.quantity, marketplace) }
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        checks.require(request.note.count <= maxNoteLength, "note", "must be at most \(maxNoteLength) characters")
        try checks.finish()
        let adding = Addition(
            caller: caller, marketplaceID: marketplaceID, marketplace: marketplace, itemID: itemID!, quantity: quantity!, expected: expected!)
        return try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID!),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Cart>()
        ) { transaction in try add(adding, transaction) }.value
    }

    /// The stored cart of `accountID` in `marketplaceID`, read without locking; nil when there is
    /// none, or when it is in another marketplace.
    package static func stored(_ accountID: RecordID, in marketplaceID: RecordID, store: Store) throws -> StoredRecord<CartRecord>? {
        try store.get(CartTable.table, accountID).flatMap { $0.value.marketplaceID == marketplaceID.description ? $0 : nil }
    }

    /// The cart of `accountID` to change in `transaction`, read and locked (an empty one when none
    /// is stored): NOT_FOUND when it is in another marketplace, ABORTED when it is not at
    /// `expected` (when given).
    package static func current(_ accountID: RecordID, marketplaceID: RecordID, expected: UInt64?, transaction: Transaction) throws -> Current {
        let stored = try transaction.get(CartTable.table, accountID)
        if let stored, stored.value.marketplaceID != marketplaceID.description {
            throw RPCError.notFound("cart", accountID.description)
        }
        let version = stored?.version ?? 0
        if let expected, expected != version {
            throw RPCError.staleVersion("cart", accountID.description, expected: expected, actual: version)
        }
        var cart = stored?.value.subject ?? SoukStoreV1.Cart()
        cart.customerAccountID = accountID.description
        return Current(subject: cart, version: version, marketplaceID: marketplaceID)
    }

    /// Stores the changed cart (created on its first write).
    package static func save(_ cart: Current, accountID: RecordID, transaction: Transaction, _ change: (inout SoukStoreV1.Cart) -> Void)
        throws -> StoredRecord<CartRecord>
    {
        var subject = cart.subject
        change(&subject)
        if subject.lines.isEmpty { subject.restaurantID = "" }
        if cart.version == 0 {
            return try transaction.insert(CartTable.table, CartRecord(marketplaceID: cart.marketplaceID.description, subject), id: accountID)
        }
        return try transaction.update(CartTable.table, accountID) { $0.subject = subject }
    }

    package static func checkQuantity(_ quantity: Int32, _ marketplace: SoukV1.Marketplace) throws -> Int32 {
        guard quantity >= 1 else { throw RPCError.invalidField("quantity", "must be at least 1") }
        let cap = RetailPricing.maxQuantity(marketplace)
        guard quantity <= cap else {
            let carton = marketplace.vertical == .retail ? " (one carton); place a second order for more" : ""
            throw RPCError.invalidField("quantity", "must be at most \(cap) per line\(carton)", reason: .quantityLimit)
        }
        return quantity
    }

    /// The line id, or the product id, an update names (the request's `line` oneof).
    package static func named(_ line: SoukV1.UpdateCartLineRequest.Line?) -> (lineID: String, itemID: String) {
        switch line {
        case .lineID(let id)?: (id, "")
        case .itemID(let id)?: ("", id)
        case nil: ("", "")
        }
    }

    /// The line id, or the product id, a removal names (the request's `line` oneof).
    package static func named(_ line: SoukV1.RemoveCartLineRequest.Line?) -> (lineID: String, itemID: String) {
        switch line {
        case .lineID(let id)?: (id, "")
        case .itemID(let id)?: ("", id)
        case nil: ("", "")
        }
    }

    /// The line `lineID` names, else (retail) the line of product `itemID`; NOT_FOUND otherwise.
    package static func lineIndex(in cart: SoukStoreV1.Cart, lineID: String, itemID: String) throws -> Int {
        if !lineID.isEmpty {
            guard let index = cart.lines.firstIndex(where: { ($0.lineID.isEmpty ? $0.itemID : $0.lineID) == lineID }) else {
                throw RPCError.notFound("cart line", lineID)
            }
            return index
        }
        let id = try RequestFields.id(itemID, field: "item_id")
        let matching = cart.lines.indices.filter { cart.lines[$0].itemID == id.description }
        guard let index = matching.first else { throw RPCError.notFound("cart line", id.description) }
        guard matching.count == 1 else {
            throw RPCError.invalidField("line_id", "is required: the cart holds \(matching.count) lines of item \(id)")
        }
        return index
    }
}
