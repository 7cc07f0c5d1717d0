import SoukKit
import SoukMessages

/// The lifecycles of MARA's bookings and bills. The Rentals service arrives with the rentals domain.
public enum RentalLifecycles {
    public static let booking = StateMachine<SoukV1.Booking, SoukV1.BookingStatus>(
        "Booking", resource: .booking, state: \.status, initial: [.requested],
        transitions: [
            Transition("confirm", from: [.requested], to: .confirmed, by: [.provider]),
            // By the lessor, or by the server when another request for the listing is confirmed
            // or the listing is archived.
            Transition("decline", from: [.requested], to: .declined, by: [.provider, .system]),
            // The lessee withdraws before the deposit is paid.
            Transition("cancel", from: [.requested, .confirmed], to: .cancelled, by: [.customer, .admin]),
            // The server, when the deposit bill is paid.
            Transition("activate", from: [.confirmed], to: .active, by: [.system]),
            Transition("end", from: [.active], to: .ended, by: [.provider, .admin]),
        ])

    /// A bill is DUE until paid. Only a deposit bill is voided, with its booking's cancellation.
    /// (Overdue is not a state: a DUE bill past its due date, read from `due_date`.)
    public static let bill = StateMachine<SoukV1.Bill, SoukV1.BillStatus>(
        "Bill", resource: .bill, state: \.status, initial: [.due],
        transitions: [
            Transition("pay", from: [.due], to: .paid, by: [.customer]),
            Transition(
                "void", from: [.due], to: .void, by: [.customer, .admin],
                guards: [TransitionGuard("only a deposit bill") { bill, _ in bill.kind == .deposit }]),
        ])
}
