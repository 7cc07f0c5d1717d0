import SoukMessages

/// A state of a lifecycle, named as the contract names it.
///
/// Usually a value of one of the contract's status enums. Where a resource's position spans two
/// fields (a laundry job's stage, and whether it was cancelled), the domain declares a small type
/// over them whose names are still the contract's.
public protocol LifecycleState: Hashable, Sendable {
    /// The contract's name of the value, for example `ORDER_STATUS_PENDING`: what the audit log,
    /// the errors and the diagrams show.
    var protoName: String { get }
}

// The contract's status enums that lifecycles are declared over. Their generated `protoName`
// is the requirement, so conforming is all there is to it.
extension SoukV1.OrderStatus: LifecycleState {}
extension SoukV1.DeliveryStatus: LifecycleState {}
extension SoukV1.PaymentStatus: LifecycleState {}
extension SoukV1.ListingStatus: LifecycleState {}
extension SoukV1.BookingStatus: LifecycleState {}
extension SoukV1.BillStatus: LifecycleState {}
extension SoukV1.TicketStatus: LifecycleState {}
