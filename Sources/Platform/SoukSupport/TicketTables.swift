import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// A support ticket as stored (`souk.store.v1.Ticket`) with its marketplace. RPCs answer with
/// `TicketProjection`.
typealias TicketRecord = MarketRecord<SoukStoreV1.Ticket>
/// One message of a ticket (`souk.store.v1.TicketMessage`).
typealias TicketMessageRecord = MarketRecord<SoukStoreV1.TicketMessage>

/// Tickets and their indexes. Lists with a filter on several statuses or topics read the
/// entries under 0 ("any") and keep the records asked for; one value (or none) is one exact
/// range. Every index is kept by the store in the transaction that writes the ticket.
enum TicketTable {
    /// 0 ("any") and the value itself.
    private static func slots(_ value: Int32) -> [KeyPart] {
        value == 0 ? [.enumCase(0)] : [.enumCase(0), .enumCase(value)]
    }

    private static func time(_ timestamp: Timestamp?) -> KeyPart { .time(StoreTime(timestamp ?? Timestamp(seconds: 0, nanos: 0))) }

    /// An author's tickets: (marketplace, author, status, time) with 0 for any status.
    private static func byAuthor(_ record: TicketRecord, _ sort: KeyPart) -> [[KeyPart]] {
        let ticket = record.subject
        guard !ticket.authorAccountID.isEmpty else { return [] }
        return slots(ticket.status.rawValue).map { [.string(record.marketplaceID), .string(ticket.authorAccountID), $0, sort] }
    }

    /// Everyone's tickets: (marketplace, author role, topic, status, time) with 0 for any value.
    private static func byFacets(_ record: TicketRecord, _ sort: KeyPart) -> [[KeyPart]] {
        let ticket = record.subject
        var keys: [[KeyPart]] = []
        for role in slots(ticket.authorRole.rawValue) {
            for topic in slots(ticket.topic.rawValue) {
                for status in slots(ticket.status.rawValue) { keys.append([.string(record.marketplaceID), role, topic, status, sort]) }
            }
        }
        return keys
    }

    static let authorActivity = Index<TicketRecord>.nonUnique("support_tickets.author_activity", keys: { byAuthor($0, time($0.subject.activityTime)) })
    static let authorCreated = Index<TicketRecord>.nonUnique("support_tickets.author_created", keys: { byAuthor($0, time($0.subject.openTime)) })
    static let activity = Index<TicketRecord>.nonUnique("support_tickets.activity", keys: { byFacets($0, time($0.subject.activityTime)) })
    static let created = Index<TicketRecord>.nonUnique("support_tickets.created", keys: { byFacets($0, time($0.subject.openTime)) })
    /// Tickets waiting for an admin's answer, by the time they started waiting: the overdue
    /// list is the range before now minus the response target.
    static let waiting = Index<TicketRecord>.nonUnique("support_tickets.waiting") { record in
        record.subject.waitingSince.map { [.string(record.marketplaceID), .time(StoreTime($0))] }
    }

    static let table = marketTable(
        "support_tickets", SoukStoreV1.Ticket.self, indexes: [authorActivity, authorCreated, activity, created, waiting])
}

/// Ticket messages, per ticket in the order they were written (version 7 ids).
enum TicketMessageTable {
    static let byTicket = Index<TicketMessageRecord>.nonUnique("support_ticket_messages.ticket") {
        [.string($0.marketplaceID), .string($0.subject.ticketID)]
    }
    static let table = marketTable("support_ticket_messages", SoukStoreV1.TicketMessage.self, indexes: [byTicket])
}

/// What a caller sees of a ticket, field by field (an allow-list): its author sees the ticket;
/// admins also see how long it has waited for an answer against the response target.
enum TicketProjection {
    /// Who looks: the author (or another account in an owner role), or an admin with the marketplace's target.
    enum Viewer: Sendable {
        case author
        case admin(target: Duration, now: StoreTime)
    }

    static func ticket(_ record: StoredRecord<TicketRecord>, for viewer: Viewer) -> SoukV1.Ticket {
        var shown = ticket(record.value.subject, id: record.id, version: record.version, for: viewer)
        if shown.createTime == nil { shown.createTime = Timestamp(record.createdAt) }
        if shown.updateTime == nil { shown.updateTime = Timestamp(record.updatedAt) }
        return shown
    }

    /// The ticket `id` at `version` (as a move's effects see it, without the envelope's times:
    /// the stored open and activity times are the ticket's create and update times).
    static func ticket(_ stored: SoukStoreV1.Ticket, id: RecordID, version: UInt64, for viewer: Viewer) -> SoukV1.Ticket {
        var shown = SoukV1.Ticket()
        shown.id = id.description
        shown.version = Int64(version)
        shown.createTime = stored.openTime
        shown.updateTime = stored.activityTime
        shown.authorAccountID = stored.authorAccountID
        shown.authorRole = stored.authorRole
        shown.contactEmail = stored.contactEmail
        shown.contactName = stored.contactName
        shown.topic = stored.topic
        shown.subject = stored.subject
        shown.related = stored.related
        shown.status = stored.status
        shown.messageCount = stored.messageCount
        if case .admin(let target, let now) = viewer, let since = stored.waitingSince {
            let due = StoreTime(since).adding(target)
            shown.waitingSince = since
            shown.responseDueTime = Timestamp(due)
            shown.overdue = now > due
        }
        return shown
    }

    static func message(_ record: StoredRecord<TicketMessageRecord>) -> SoukV1.TicketMessage {
        let stored = record.value.subject
        var shown = SoukV1.TicketMessage()
        shown.id = record.id.description
        shown.ticketID = stored.ticketID
        shown.authorAccountID = stored.authorAccountID
        shown.fromAdmin = stored.fromAdmin
        shown.text = stored.text
        shown.attachments = stored.attachments  // stored as the contract's Attachment, which holds nothing private
        shown.createTime = Timestamp(record.createdAt)
        return shown
    }
}

/// The account streams (`Notifications.WatchAccount`) tickets show on.
enum TicketFeed {
    /// Appends the ticket as its author sees it to the author's stream (guests have none).
    static func showAuthor(_ record: StoredRecord<TicketRecord>, transaction: Transaction) throws {
        try showAuthor(record.value.subject, id: record.id, version: record.version, transaction: transaction)
    }

    static func showAuthor(_ ticket: SoukStoreV1.Ticket, id: RecordID, version: UInt64, transaction: Transaction) throws {
        guard !ticket.authorAccountID.isEmpty else { return }
        try AccountFeed.append(
            .ticket(TicketProjection.ticket(ticket, id: id, version: version, for: .author)), to: ticket.authorAccountID,
            transaction: transaction)
    }

    /// Appends the ticket as an admin sees it to the stream of the admin who changed it (their
    /// other devices), unless that admin is the author (who got the author's view).
    static func showAdmin(_ record: StoredRecord<TicketRecord>, adminAccountID: String, target: Duration, transaction: Transaction) throws {
        guard !adminAccountID.isEmpty, adminAccountID != record.value.subject.authorAccountID else { return }
        try AccountFeed.append(
            .ticket(TicketProjection.ticket(record, for: .admin(target: target, now: transaction.now))), to: adminAccountID,
            transaction: transaction)
    }
}
