import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A cart as stored, under its customer's account id (one cart per customer): its own record
/// (`souk.store.v1.Cart`, only what the customer chose) and its marketplace.
package typealias CartRecord = MarketRecord<SoukStoreV1.Cart>

/// Carts.
enum CartTable {
    static let table = marketTable("carts", SoukStoreV1.Cart.self)

    static var all: [AnyTable] { [table.erased] }
}

/// What the customer sees of a stored cart before pricing: the contract's `Cart` built field by
/// field from the stored one (an allow-list). Names, prices and whether it can be bought are
/// added by the retail and food views from the catalog.
package enum CartProjection {
    /// The stored cart of `accountID` (an empty one when none is stored) with the envelope's id
    /// (the account's), version and times.
    package static func cart(_ stored: StoredRecord<CartRecord>?, accountID: RecordID) -> SoukV1.Cart {
        var cart = stored.map { $0.stamped(SoukV1.Cart()) } ?? SoukV1.Cart()
        let subject = stored?.value.subject ?? SoukStoreV1.Cart()
        cart.id = accountID.description
        cart.customerAccountID = accountID.description
        cart.restaurantID = subject.restaurantID
        cart.lines = subject.lines.map { line in
            SoukV1.CartLine(
                itemID: line.itemID, itemType: line.itemType, quantity: line.quantity,
                // A retail line's id is its product's.
                lineID: line.lineID.isEmpty ? line.itemID : line.lineID,
                options: line.options.map { SoukV1.CartLineOption(groupID: $0.groupID, choiceID: $0.choiceID) }, note: line.note)
        }
        return cart
    }
}
