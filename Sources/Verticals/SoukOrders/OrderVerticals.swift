import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Synchronization

/// What a vertical selling through the shared orders adds to them (the shops: stock and
/// windows; food delivery: restaurants, dispatch and reports). The vertical's domain registers
/// it with `Commerce.verticals` when it is mounted, as domains register account parts and
/// payable kinds; the orders code calls it in its own transactions and never reads the
/// vertical's tables.
public protocol OrderVertical: Sendable {
    /// Whether `cancelled` needs the order's payment as it was before the cancellation settled
    /// it (a read the other verticals skip).
    var needsPaymentBeforeCancel: Bool { get }

    /// Undoes, in the cancelling transaction, what the order holds in the vertical (stock, a
    /// window, an open delivery, report totals). The payment is already settled.
    func cancelled(_ cancellation: OrderCancellation, transaction: Transaction) throws

    /// Whether the caller runs the seller `restaurantID` that `ListOrders` filters by. NOT_FOUND
    /// when there is no such seller in the call's marketplace.
    func ownsSeller(_ restaurantID: String, call: SoukCall, caller: Caller, roles: Set<SoukV1.Role>, store: Store) throws -> Bool

    /// The vertical's records a rating of completed `order` counts in besides its courier (a
    /// restaurant, `restaurantID` when the customer rated it; a service), read in `transaction`.
    func ratedSubjects(of order: SoukStoreV1.Order, restaurantID: String, transaction: Transaction) throws -> [RecordID]

    /// Stores `summary`, the new average of `subject` (one of `ratedSubjects`), on the record,
    /// in the rating's transaction.
    func rated(_ subject: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws

    /// Delivery `deliveryID` of the call's marketplace as the caller sees it (`GetDelivery`,
    /// `ListDeliveries`).
    func deliveryView(_ deliveryID: String, call: SoukCall, store: Store) throws -> SoukV1.Delivery
}

extension OrderVertical {
    /// Reads no payment.
    public var needsPaymentBeforeCancel: Bool { false }

    /// Keeps nothing to undo.
    public func cancelled(_ cancellation: OrderCancellation, transaction: Transaction) throws {}

    /// Has no sellers to filter by.
    public func ownsSeller(_ restaurantID: String, call: SoukCall, caller: Caller, roles: Set<SoukV1.Role>, store: Store) throws -> Bool {
        throw RPCError.notFound("restaurant", restaurantID)
    }

    /// Keeps no averages.
    public func ratedSubjects(of order: SoukStoreV1.Order, restaurantID: String, transaction: Transaction) throws -> [RecordID] { [] }

    /// Keeps no averages.
    public func rated(_ subject: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws {}

    /// Makes no deliveries.
    public func deliveryView(_ deliveryID: String, call: SoukCall, store: Store) throws -> SoukV1.Delivery {
        throw RPCError.notFound("delivery", deliveryID)
    }
}

/// An order being cancelled or rejected, as `OrderVertical.cancelled` sees it.
public struct OrderCancellation: Sendable {
    public let id: RecordID
    /// The order after the transition.
    public let order: SoukStoreV1.Order
    public let marketplaceID: RecordID
    public let marketplace: SoukV1.Marketplace
    public let reason: String
    public let actor: AuditActor
    /// The payment as it was before the cancellation settled it, when the vertical asked for it.
    public let paymentBefore: SoukV1.Payment?
}

/// The verticals registered with the shared orders, one per marketplace vertical.
public final class OrderVerticals: Sendable {
    private let verticals = Mutex<[SoukV1.Vertical: any OrderVertical]>([:])

    public init() {}

    /// Makes `vertical` the hooks of the orders of marketplaces of each of `kinds`.
    public func register(_ vertical: any OrderVertical, for kinds: [SoukV1.Vertical]) {
        verticals.withLock { verticals in
            for kind in kinds { verticals[kind] = vertical }
        }
    }

    /// The hooks of `kind`; nil when no mounted module sells in it.
    func vertical(_ kind: SoukV1.Vertical?) -> (any OrderVertical)? {
        guard let kind else { return nil }
        return verticals.withLock { $0[kind] }
    }
}
