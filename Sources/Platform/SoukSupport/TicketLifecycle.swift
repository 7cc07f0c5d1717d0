import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// A ticket's transitions.
public enum TicketMove: String, TransitionName {
    case answer, reopen, close
}

/// The lifecycle of a support ticket, declared once: `SupportService` fires `answer` on an
/// admin's message to an OPEN ticket, `reopen` on its author's message to an ANSWERED or CLOSED
/// one (other messages leave the status as it is and are recorded as changes), and `close` on
/// `CloseTicket`. Each move is shown on the author's account stream; a close by someone else
/// than the author tells the author.
public enum TicketLifecycle {
    /// The author writes in whatever role they opened the ticket in; any role may close its own ticket.
    static let authorRoles: [TransitionRole] = [.customer, .provider, .courier, .admin]

    static let author = TransitionGuard<SoukStoreV1.Ticket>("only its author") { ticket, actor in
        actor.isServer || (!actor.accountID.isEmpty && actor.accountID == ticket.authorAccountID)
    }
    static let authorOrAdmin = TransitionGuard<SoukStoreV1.Ticket>("its author or an admin") { ticket, actor in
        actor.isServer || actor.role == .admin || actor.role == .operator
            || (!actor.accountID.isEmpty && actor.accountID == ticket.authorAccountID)
    }

    public static let machine = StateMachine<SoukStoreV1.Ticket, SoukV1.TicketStatus, TicketMove>(
        "Support ticket", resource: .ticket, state: \.status, initial: [.open],
        transitions: [
            Transition(.answer, from: [.open], to: .answered, by: [.admin], effects: [TicketEffects.showAuthor]),
            Transition(
                .reopen, from: [.answered, .closed], to: .open, by: authorRoles, guards: [author], effects: [TicketEffects.showAuthor]),
            Transition(
                .close, from: [.open, .answered], to: .closed, by: authorRoles, guards: [authorOrAdmin], refusal: .ticketClosed,
                effects: [TicketEffects.showAuthor, TicketEffects.tellAuthorClosed]),
        ])
}

/// What the ticket's moves do besides moving it, in the move's transaction.
enum TicketEffects {
    /// The author's account stream gets the ticket as the author sees it.
    static let showAuthor = TransitionEffect<SoukStoreV1.Ticket>("show the author") { move, transaction in
        try TicketFeed.showAuthor(move.after, id: move.id, version: move.version, transaction: transaction)
    }

    /// A close by an admin tells the author (in the app; guests are not mailed about a close).
    static let tellAuthorClosed = TransitionEffect<SoukStoreV1.Ticket>("tell the author when closed by an admin") { move, transaction in
        let ticket = move.after
        guard !ticket.authorAccountID.isEmpty, move.actor.accountID != ticket.authorAccountID else { return }
        try Notifier.send(
            [Notifier.Note(
                to: ticket.authorAccountID, kind: .support, .supportTicketClosed(ticket: ticket.subject), subject: move.ref(.ticket))],
            marketplaceID: move.marketplaceID, transaction: transaction)
    }
}
