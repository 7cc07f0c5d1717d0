import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A cart as stored, under its customer's account id (one cart per customer).
public typealias CartRecord = MarketRecord<SoukV1.Cart>

/// Carts.
enum CartTable {
    static let table = marketTable("carts", SoukV1.Cart.self)

    static var all: [AnyTable] { [table.erased] }
}
