import SoukKit
import SoukMessages

/// The lifecycle of a support ticket. The Support service, when it is served (`Support`), will
/// fire `answer` on an admin's message to an open ticket and `reopen` on its author's message
/// to an answered or closed one (other messages leave the status as it is).
/// A ticket's transitions.
public enum TicketMove: String, TransitionName {
    case answer, reopen, close
}

public enum TicketLifecycle {
    public static let machine = StateMachine<SoukV1.Ticket, SoukV1.TicketStatus, TicketMove>(
        "Support ticket", resource: .ticket, state: \.status, initial: [.open],
        transitions: [
            Transition(.answer, from: [.open], to: .answered, by: [.admin]),
            Transition(.reopen, from: [.answered, .closed], to: .open, by: [.customer]),
            Transition(.close, from: [.open, .answered], to: .closed, by: [.customer, .admin]),
        ])
}
