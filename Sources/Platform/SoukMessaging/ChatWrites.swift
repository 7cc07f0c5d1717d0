import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The changes of a conversation, each in the caller's transaction: a message (with its event,
/// the counters, the notifications and the participants' account streams) and a read mark.
enum ChatWrites {
    /// The event stream of one conversation (WatchConversation follows it).
    static func stream(_ conversationID: RecordID) -> String { "conversation/\(conversationID)" }

    /// Appends `event` to the conversation's stream with its own sequence in it; returns it.
    static func appendEvent(
        _ conversationID: RecordID, _ transaction: Transaction, _ make: (_ sequence: Int64) -> SoukV1.ConversationEvent.Event
    ) throws -> Int64 {
        let stream = stream(conversationID)
        let sequence = try transaction.appendEvent(to: stream, [])
        let event = SoukV1.ConversationEvent(sequence: Int64(sequence), eventTime: Timestamp(transaction.now), event: make(Int64(sequence)))
        try transaction.replaceAppendedEvent(in: stream, sequence: sequence, event.encoded())
        return Int64(sequence)
    }

    /// Stores a message of `sender` in `conversation`: the sender's read mark moves to it, the
    /// other participant's unread counters grow, they are notified, and both account streams get
    /// the conversation as each sees it. Returns the message as sent.
    static func post(
        in conversation: StoredRecord<ConversationRecord>, sender: String, text: String, attachments: [SoukV1.Attachment],
        people: People, transaction: Transaction
    ) throws -> (conversation: StoredRecord<ConversationRecord>, message: SoukV1.Message) {
        let conversationID = conversation.id
        let messageID = RecordID.generate()
        var members = conversation.value.subject.members
        for index in members.indices where members[index].accountID == sender { members[index].sentCount += 1 }
        var stored = SoukStoreV1.ChatMessage()
        stored.conversationID = conversationID.description
        stored.senderAccountID = sender
        stored.text = text
        stored.attachments = attachments
        stored.sentCounts = members.map { SoukStoreV1.SentCount(accountID: $0.accountID, count: $0.sentCount) }
        var shown = SoukV1.Message()
        let sequence = try appendEvent(conversationID, transaction) { sequence in
            stored.sequence = sequence
            shown = SoukV1.Message(
                id: messageID.description, conversationID: conversationID.description, sequence: sequence, senderAccountID: sender,
                text: text, attachments: attachments, createTime: Timestamp(transaction.now))
            return .message(shown)
        }
        try transaction.insert(ChatMessageTable.table, ChatMessageRecord(marketplaceID: conversation.value.marketplaceID, stored), id: messageID)
        var others: [String] = []
        for index in members.indices {
            if members[index].accountID == sender {
                try UnreadTotalTable.add(-members[index].unreadCount, to: sender, transaction: transaction)
                members[index].unreadCount = 0
                members[index].readThroughSequence = sequence
                members[index].readTime = Timestamp(transaction.now)
            } else {
                members[index].unreadCount += 1
                try UnreadTotalTable.add(1, to: members[index].accountID, transaction: transaction)
                others.append(members[index].accountID)
            }
        }
        let updated = try transaction.update(ConversationTable.table, conversationID) { record in
            record.subject.members = members
            record.subject.lastMessageID = messageID.description
            record.subject.lastSequence = sequence
            record.subject.lastActivityTime = Timestamp(transaction.now)
            record.subject.messageCount += 1
        }
        let senderName = try people.name(sender)
        let preview = text.isEmpty ? nil : String(text.unicodeScalars.prefix(140))
        let photo = attachments.allSatisfy { $0.contentType.hasPrefix("image/") }
        try Notifier.send(
            others.map {
                Notifier.Note(
                    to: $0, kind: .message, .chatMessage(sender: senderName, preview: preview, photo: photo),
                    subject: SoukV1.ResourceRef(type: .conversation, id: conversationID.description))
            },
            marketplaceID: conversation.value.marketplaceID, transaction: transaction)
        try feed(updated, lastMessage: shown, people: people, transaction: transaction)
        return (updated, shown)
    }

    /// Moves `reader`'s read mark to `through` (ignored when it is not ahead of the current one):
    /// the unread counters go down by the other participant's messages read, from the counts
    /// stored with the newest message read (one index seek, no count), a receipt event is
    /// appended, and both account streams get the conversation.
    static func markRead(
        _ conversation: StoredRecord<ConversationRecord>, reader: String, through: Int64, people: People, transaction: Transaction
    ) throws -> SoukV1.ReadReceipt {
        let conversationID = conversation.id
        var members = conversation.value.subject.members
        guard let index = members.firstIndex(where: { $0.accountID == reader }) else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only the participants of a conversation read it")
        }
        guard through > members[index].readThroughSequence else {
            return ConversationProjection.receipt(members[index], conversationID: conversationID.description)
        }
        let newest = try transaction.list(
            ChatMessageTable.table, ChatMessageTable.byConversation,
            IndexRange(prefix: [.string(conversationID.description)], lower: nil, upper: RangeBound([.int(through)], inclusive: true)),
            direction: .descending, limit: 1
        ).first
        let othersRead = newest?.value.subject.sentCounts.filter { $0.accountID != reader }.reduce(0) { $0 + $1.count } ?? 0
        let othersSent = conversation.value.subject.messageCount - members[index].sentCount
        let unread = max(0, othersSent - othersRead)
        try UnreadTotalTable.add(unread - members[index].unreadCount, to: reader, transaction: transaction)
        members[index].unreadCount = unread
        members[index].readThroughSequence = through
        members[index].readTime = Timestamp(transaction.now)
        let receipt = ConversationProjection.receipt(members[index], conversationID: conversationID.description)
        let sequence = try appendEvent(conversationID, transaction) { _ in .readReceipt(receipt) }
        let updated = try transaction.update(ConversationTable.table, conversationID) { record in
            record.subject.members = members
            record.subject.lastSequence = sequence
        }
        try feed(updated, lastMessage: nil, people: people, transaction: transaction)
        return receipt
    }

    /// Appends the conversation, as each participant sees it, to each one's account stream
    /// (Notifications.WatchAccount: the conversation list, live).
    static func feed(
        _ conversation: StoredRecord<ConversationRecord>, lastMessage: SoukV1.Message?, people: People, transaction: Transaction
    ) throws {
        var last = lastMessage
        if last == nil, let id = RecordID(conversation.value.subject.lastMessageID), let record = try transaction.get(ChatMessageTable.table, id) {
            last = ConversationProjection.message(record)
        }
        for member in conversation.value.subject.members {
            let shown = try ConversationProjection.conversation(conversation, for: member.accountID, lastMessage: last, people: people)
            try AccountFeed.append(.conversation(shown), to: member.accountID, transaction: transaction)
        }
    }
}
