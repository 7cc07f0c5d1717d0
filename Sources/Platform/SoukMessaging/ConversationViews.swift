import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// The participants of conversations as other parties see them (DOMAIN.md decision 18 and
/// `Parties`): the name the marketplace's privacy rule allows, the avatar, the rating; never an
/// e-mail address, a phone or (in laundry marketplaces) a family name. Read once per call.
final class People: @unchecked Sendable {
    private let store: Store
    private let marketplaceID: String
    private let vertical: SoukV1.Vertical
    private var known: [String: SoukV1.PersonSummary] = [:]

    init(store: Store, marketplaceID: String, vertical: SoukV1.Vertical) {
        self.store = store
        self.marketplaceID = marketplaceID
        self.vertical = vertical
    }

    /// Account `id` as another party sees it (just the id when the account is gone).
    func summary(_ id: String) throws -> SoukV1.PersonSummary {
        if let summary = known[id] { return summary }
        var summary = SoukV1.PersonSummary(accountID: id)
        if let recordID = RecordID(id), let account = try IdentityRecords.account(recordID, marketplaceID: marketplaceID, store) {
            summary = Parties.summary(of: account, vertical: vertical)
        }
        known[id] = summary
        return summary
    }

    /// The display name alone, for notifications.
    func name(_ id: String) throws -> String {
        let name = try summary(id).displayName
        return name.isEmpty ? "Someone" : name
    }
}

extension SoukV1.Conversation: StampedMessage {}

/// What callers see of stored conversations and messages: contract messages built field by
/// field (an allow-list: a field added to a stored record reaches no caller until a line here
/// names it).
enum ConversationProjection {
    static func message(_ record: StoredRecord<ChatMessageRecord>) -> SoukV1.Message {
        let stored = record.value.subject
        var shown = SoukV1.Message()
        shown.id = record.id.description
        shown.conversationID = stored.conversationID
        shown.sequence = stored.sequence
        shown.senderAccountID = stored.senderAccountID
        shown.text = stored.text
        shown.attachments = stored.attachments  // stored as the contract's Attachment, which holds nothing private
        shown.createTime = Timestamp(record.createdAt)
        return shown
    }

    static func receipt(_ member: SoukStoreV1.ConversationMember, conversationID: String) -> SoukV1.ReadReceipt {
        SoukV1.ReadReceipt(
            conversationID: conversationID, accountID: member.accountID, throughSequence: member.readThroughSequence, readTime: member.readTime)
    }

    /// Conversation `record` as `viewer` sees it: with its last message, the viewer's unread count,
    /// everyone's read position and the participants' summaries.
    static func conversation(
        _ record: StoredRecord<ConversationRecord>, for viewer: String, lastMessage: SoukV1.Message?, people: People
    ) throws -> SoukV1.Conversation {
        let stored = record.value.subject
        var shown = record.stamped(SoukV1.Conversation())
        shown.participantAccountIDs = stored.members.map(\.accountID)
        shown.subject = stored.subject
        shown.title = stored.title
        shown.lastMessage = lastMessage
        shown.unreadCount = Int32(clamping: stored.members.first { $0.accountID == viewer }?.unreadCount ?? 0)
        shown.readReceipts = stored.members.map { receipt($0, conversationID: record.id.description) }
        shown.lastSequence = stored.lastSequence
        shown.participants = try stored.members.map { try people.summary($0.accountID) }
        return shown
    }

    /// The same, reading its last message from `reader`.
    static func conversation(
        _ record: StoredRecord<ConversationRecord>, for viewer: String, people: People, _ reader: any RecordLookup
    ) throws -> SoukV1.Conversation {
        let last = try RecordID(record.value.subject.lastMessageID).flatMap { try reader.get(ChatMessageTable.table, $0) }.map(message)
        return try conversation(record, for: viewer, lastMessage: last, people: people)
    }
}
