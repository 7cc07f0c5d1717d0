import SoukKit
import SoukMessages
import SoukStore

/// A conversation as stored: its own record (`souk.store.v1.Conversation`, without the id,
/// version and times, which the envelope holds) and its marketplace. RPCs answer with
/// `ConversationProjection`.
typealias ConversationRecord = MarketRecord<SoukStoreV1.Conversation>

/// One message as stored (`souk.store.v1.ChatMessage`).
typealias ChatMessageRecord = MarketRecord<SoukStoreV1.ChatMessage>

enum ConversationTable {
    /// One conversation per marketplace, subject (none for support) and pair of accounts: the
    /// unique entry that makes two racing creates meet on one record.
    static let byPair = Index<ConversationRecord>.unique("conversations.pair") { record in
        pairKey(marketplaceID: record.marketplaceID, subject: record.subject.subject, accounts: record.subject.members.map(\.accountID))
    }
    /// Each participant's conversations by the time of the newest message (ListConversations).
    static let byParticipant = Index<ConversationRecord>.nonUnique("conversations.participant", keys: { record in
        record.subject.members.map { [.string(record.marketplaceID), .string($0.accountID), .time(activity(record.subject))] }
    })
    /// The same, only for the participants with unread messages (ListConversations.unread_only).
    static let unreadByParticipant = Index<ConversationRecord>.nonUnique("conversations.unread", keys: { record in
        record.subject.members.filter { $0.unreadCount > 0 }.map {
            [.string(record.marketplaceID), .string($0.accountID), .time(activity(record.subject))]
        }
    })

    static let table = marketTable("conversations", SoukStoreV1.Conversation.self, indexes: [byPair, byParticipant, unreadByParticipant])

    /// The key of `byPair`: the accounts in id order, so either may open it.
    static func pairKey(marketplaceID: String, subject: SoukV1.ResourceRef?, accounts: [String]) -> [KeyPart] {
        let pair = accounts.sorted()
        return [.string(marketplaceID), .enumCase(subject?.type ?? .unspecified), .string(subject?.id ?? "")] + pair.map { .string($0) }
    }

    static func activity(_ conversation: SoukStoreV1.Conversation) -> StoreTime {
        conversation.lastActivityTime.map { StoreTime($0) } ?? StoreTime(microsecondsSinceEpoch: 0)
    }
}

enum ChatMessageTable {
    /// A conversation's messages in sequence order (ListMessages pages it backwards).
    static let byConversation = Index<ChatMessageRecord>.nonUnique("chat_messages.conversation") {
        [.string($0.subject.conversationID), .int($0.subject.sequence)]
    }

    static let table = marketTable("chat_messages", SoukStoreV1.ChatMessage.self, indexes: [byConversation])
}

/// How many messages an account has not read in all its conversations, stored under the
/// account's id and changed in the transactions of the messages and read marks, never counted.
struct UnreadTotal: Sendable {
    var count: Int64
}

enum UnreadTotalTable {
    static let table = Table(
        "conversation_unread_totals",
        codec: FieldCodec<UnreadTotal>(write: { value, writer in writer.int(value.count) }, read: { reader in UnreadTotal(count: try reader.int()) }))

    /// Adds `delta` to the account's total in `transaction`.
    static func add(_ delta: Int64, to accountID: String, transaction: Transaction) throws {
        guard delta != 0, let id = RecordID(accountID) else { return }
        if let current = try transaction.get(table, id) {
            try transaction.updateMaintainedFields(table, id) { $0.count = max(0, current.value.count + delta) }
        } else {
            try transaction.insert(table, UnreadTotal(count: max(0, delta)), id: id)
        }
    }

    static func total(of accountID: RecordID, _ reader: any RecordLookup) throws -> Int64 {
        try reader.get(table, accountID)?.value.count ?? 0
    }
}
