import SoukKit
import SoukMessages

/// The lifecycles of MARA's bookings and bills.
/// A booking's transitions.
public enum BookingMove: String, TransitionName {
    case confirm, decline, cancel, activate, end
}

/// A bill's transitions.
public enum BillMove: String, TransitionName {
    case pay, void
}

public enum RentalLifecycles {
    static let lessor = TransitionGuard<SoukStoreV1.Booking>.only(.provider, "only the lessor") { $0.lessorAccountID }
    static let lessee = TransitionGuard<SoukStoreV1.Booking>.only(.customer, "only the lessee") { $0.lesseeAccountID }

    public static let booking = StateMachine<SoukStoreV1.Booking, SoukV1.BookingStatus, BookingMove>(
        "Booking", resource: .booking, state: \.status, initial: [.requested], streamed: true,
        transitions: [
            // The listing is marked rented in the same transaction: of two confirmations for one
            // listing, the second finds it held (LISTING_LEASED).
            Transition(
                .confirm, from: [.requested], to: .confirmed, by: [.provider], guards: [lessor], effects: [RentalEffects.tellLesseeConfirmed]),
            // By the lessor, or by the server when another request for the listing is confirmed
            // or the listing is archived.
            Transition(
                .decline, from: [.requested], to: .declined, by: [.provider, .system], guards: [lessor],
                effects: [RentalEffects.tellLesseeDeclined]),
            // The lessee withdraws before the deposit is paid.
            Transition(
                .cancel, from: [.requested, .confirmed], to: .cancelled, by: [.customer, .admin], guards: [lessee],
                effects: [RentalEffects.releaseConfirmed, RentalEffects.tellLessorWithdrawn]),
            // The server, when the deposit bill is paid.
            Transition(.activate, from: [.confirmed], to: .active, by: [.system], effects: [RentalReports.leaseStarted]),
            Transition(
                .end, from: [.active], to: .ended, by: [.provider, .admin], guards: [lessor],
                effects: [RentalEffects.freeListing, RentalEffects.tellLesseeEnded, RentalReports.leaseEnded]),
        ])

    static let payer = TransitionGuard<SoukStoreV1.Bill>.only(.customer, "only the lessee") { $0.lesseeAccountID }

    /// A bill is DUE until paid. Only a deposit bill is voided, with its booking's cancellation.
    /// (Overdue is not a state: a DUE bill past its due date is marked `overdue` once.)
    public static let bill = StateMachine<SoukStoreV1.Bill, SoukV1.BillStatus, BillMove>(
        "Bill", resource: .bill, state: \.status, initial: [.due],
        transitions: [
            Transition(
                .pay, from: [.due], to: .paid, by: [.customer], guards: [payer],
                effects: [
                    RentalEffects.showOnBooking("bill paid"), RentalEffects.activateBooking, RentalEffects.tellLessorPaid,
                    RentalEffects.addToLessorIncome, RentalReports.billPaid,
                ]),
            Transition(.void, from: [.due], to: .void, by: [.customer, .admin],
                guards: [TransitionGuard("only a deposit bill") { bill, _ in bill.kind == .deposit }],
                effects: [RentalEffects.showOnBooking("deposit bill voided"), RentalReports.billVoided]),
        ])
}
