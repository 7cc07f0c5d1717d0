import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Messaging`: conversations, messages, read marks and the bidirectional watch with
/// typing indicators.
struct MessagingService {
    let messaging: Messaging
    var store: Store { messaging.store }

    static let maxText = 4000
    static let maxAttachments = 10

    var declaration: SoukV1Services.Messaging {
        SoukV1Services.Messaging(
            createConversation: .handler(create),
            getConversation: .handler(owner: participant { $0.conversationID }, get),
            listConversations: .handler(list),
            sendMessage: .handler(owner: participant { $0.conversationID }, send),
            listMessages: .handler(owner: participant { $0.conversationID }, listMessages),
            markConversationRead: .handler(owner: participant { $0.conversationID }, markRead),
            watchConversation: .handler(owner: participant { $0.conversationID }, watch))
    }

    /// Participants own a conversation. A request whose id is not a conversation of the
    /// marketplace passes here, so its body names every bad field first (then NOT_FOUND).
    private func participant<Request>(_ conversationID: @escaping @Sendable (Request) -> String) -> Ownership<Request> {
        let store = store
        return Ownership { request, call, caller, _ in
            guard let id = RecordID(conversationID(request)), let marketplaceID = call.marketplaceID,
                  let record = try store.get(ConversationTable.table, id), record.value.marketplaceID == marketplaceID.description
            else { return true }
            return record.value.subject.members.contains { $0.accountID == caller.accountID.description }
        }
    }

    private func people(_ call: SoukCall) throws -> People {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        return People(store: store, marketplaceID: marketplaceID.description, vertical: marketplace.vertical)
    }

    /// The conversation `id` of the call's marketplace with the caller in it: NOT_FOUND, or
    /// PERMISSION_DENIED for anyone else.
    private func conversation(_ id: RecordID, _ call: SoukCall, _ reader: any RecordLookup) throws -> StoredRecord<ConversationRecord> {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard let record = try reader.get(ConversationTable.table, id), record.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("conversation", id.description)
        }
        guard record.value.subject.members.contains(where: { $0.accountID == caller.accountID.description }) else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only the participants of conversation \(id) may read or write it")
        }
        return record
    }

    // MARK: - CreateConversation

    private func create(_ request: SoukV1.CreateConversationRequest, _ call: SoukCall) async throws -> SoukV1.Conversation {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let me = caller.accountID.description
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        var other: RecordID?
        if request.participantAccountIDs.count != 1 {
            checks.add("participant_account_ids", "must name exactly one other account (the caller is added)")
        } else {
            other = try checks.run { try RequestFields.id(request.participantAccountIDs[0], field: "participant_account_ids") }
            if other == caller.accountID {
                checks.add("participant_account_ids", "must name another account than the caller's")
                other = nil
            }
        }
        var subjectID: RecordID?
        var resolver: (any ConversationSubject)?
        let subject = request.subject.flatMap { $0.type == .unspecified && $0.id.isEmpty ? nil : $0 }
        if let subject {
            resolver = messaging.subjects.subject(subject.type)
            if resolver == nil {
                let names = messaging.subjects.types.map(\.protoName).joined(separator: ", ")
                checks.add("subject.type", "conversations are about one of: \(names); leave subject unset for support")
            }
            subjectID = try checks.run { try RequestFields.id(subject.id, field: "subject.id") }
        }
        checks.require(
            request.firstMessageText.unicodeScalars.count <= Self.maxText, "first_message_text", "must be at most \(Self.maxText) characters")
        try checks.finish()
        let them = other!.description

        guard let account = try IdentityRecords.account(other!, marketplaceID: marketplaceID.description, store) else {
            throw RPCError.notFound("participant", them)
        }
        let callerIsAdmin = caller.activeRoles.contains(.admin)
        var named = "Support"
        if let resolver, let subjectID {
            let parties = try resolver.parties(of: subjectID, marketplaceID: marketplaceID, reader: store)
            named = parties.title
            if callerIsAdmin, parties.accountIDs.contains(them) {
                // An admin may talk with any party of the subject.
            } else if !parties.accountIDs.contains(me), !(parties.openToAnyone && parties.accountIDs.contains(them)) {
                throw RPCError.souk(.permissionDenied, .notAParty, "the caller is not a party of \(subject!.type.protoName) \(subjectID)")
            } else if !parties.allowsPair(me, them) {
                throw RPCError.invalidField(
                    "participant_account_ids", "account \(them) is not a party of \(subject!.type.protoName) \(subjectID)", reason: .notAParty)
            }
        } else {
            let otherIsAdmin = account.roles.contains { $0.role == .admin && $0.status == .active }
            guard callerIsAdmin || otherIsAdmin else {
                throw RPCError.invalidField(
                    "participant_account_ids", "a conversation without a subject is with support: one of the two must be an admin",
                    reason: .supportNeedsAdmin)
            }
        }

        let people = try people(call)
        let market = marketplaceID.description
        let text = request.firstMessageText
        let title = named
        return try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: me, key: requestID!),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Conversation>()
        ) { transaction in
            let key = ConversationTable.pairKey(marketplaceID: market, subject: subject, accounts: [me, them])
            var record: StoredRecord<ConversationRecord>
            if let existing = try transaction.get(ConversationTable.table, unique: ConversationTable.byPair, key) {
                record = existing
            } else {
                var stored = SoukStoreV1.Conversation()
                stored.members = [me, them].sorted().map { SoukStoreV1.ConversationMember(accountID: $0) }
                stored.subject = subject
                stored.title = title
                stored.lastActivityTime = Timestamp(transaction.now)
                record = try transaction.insert(ConversationTable.table, ConversationRecord(marketplaceID: market, stored))
            }
            var last: SoukV1.Message?
            if !text.isEmpty {
                let posted = try ChatWrites.post(in: record, sender: me, text: text, attachments: [], people: people, transaction: transaction)
                record = posted.conversation
                last = posted.message
            }
            if let last { return try ConversationProjection.conversation(record, for: me, lastMessage: last, people: people) }
            return try ConversationProjection.conversation(record, for: me, people: people, transaction)
        }.value
    }

    // MARK: - Reads

    private func get(_ request: SoukV1.GetConversationRequest, _ call: SoukCall) async throws -> SoukV1.Conversation {
        let caller = try call.requireCaller()
        let id = try RequestFields.id(request.conversationID, field: "conversation_id")
        let record = try conversation(id, call, store)
        return try ConversationProjection.conversation(record, for: caller.accountID.description, people: try people(call), store)
    }

    private func list(_ request: SoukV1.ListConversationsRequest, _ call: SoukCall) async throws -> SoukV1.ListConversationsResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let filters = "unread=\(request.unreadOnly)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let me = caller.accountID.description
        let index = request.unreadOnly ? ConversationTable.unreadByParticipant : ConversationTable.byParticipant
        let result = try store.list(
            ConversationTable.table, index, IndexRange.starting(with: [.string(marketplaceID.description), .string(me)]),
            direction: .descending, page: page)
        let lastIDs = result.items.compactMap { RecordID($0.value.subject.lastMessageID) }
        var lastMessages: [String: SoukV1.Message] = [:]
        for case let record? in try store.get(ChatMessageTable.table, ids: lastIDs) {
            lastMessages[record.id.description] = ConversationProjection.message(record)
        }
        let people = try people(call)
        var response = SoukV1.ListConversationsResponse()
        response.conversations = try result.items.map { record in
            try ConversationProjection.conversation(
                record, for: me, lastMessage: lastMessages[record.value.subject.lastMessageID], people: people)
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        response.totalUnreadCount = try UnreadTotalTable.total(of: caller.accountID, store)
        return response
    }

    private func listMessages(_ request: SoukV1.ListMessagesRequest, _ call: SoukCall) async throws -> SoukV1.ListMessagesResponse {
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(request.conversationID, field: "conversation_id") }
        let filters = "conversation=\(request.conversationID)"
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let record = try conversation(id!, call, store)
        let result = try store.list(
            ChatMessageTable.table, ChatMessageTable.byConversation, IndexRange.starting(with: [.string(record.id.description)]),
            direction: .descending, page: page!)
        return SoukV1.ListMessagesResponse(
            messages: result.items.map(ConversationProjection.message),
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    // MARK: - Writes

    private func send(_ request: SoukV1.SendMessageRequest, _ call: SoukCall) async throws -> SoukV1.Message {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let me = caller.accountID.description
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(request.conversationID, field: "conversation_id") }
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        if request.text.isEmpty && request.attachments.isEmpty {
            checks.add("text", "send a text, attachments or both")
        }
        checks.require(request.text.unicodeScalars.count <= Self.maxText, "text", "must be at most \(Self.maxText) characters")
        checks.require(request.attachments.count <= Self.maxAttachments, "attachments", "at most \(Self.maxAttachments) per message")
        for (index, attachment) in request.attachments.enumerated() {
            _ = try checks.run { try RequestFields.id(attachment.mediaID, field: "attachments[\(index)].media_id") }
        }
        try checks.finish()
        let existing = try conversation(id!, call, store)
        let people = try people(call)
        let market = marketplaceID.description
        return try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: me, key: requestID!),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Message>()
        ) { transaction in
            let current = try conversation(existing.id, call, transaction)
            let readers = Set(current.value.subject.members.compactMap { RecordID($0.accountID) })
            // Each attachment is the sender's own upload in the marketplace (as Media checks it),
            // readable by the participants through this conversation; every bad one is named.
            var attachmentChecks = FieldChecks()
            let attachments = try MediaReferences.attachments(
                request.attachments, to: MediaReferrer(type: .conversation, id: current.id.description, field: "attachments"),
                visibility: .parties(readers), marketplaceID: marketplaceID, uploader: caller.accountID, checks: &attachmentChecks,
                in: transaction)
            try attachmentChecks.finish()
            return try ChatWrites.post(
                in: current, sender: me, text: request.text, attachments: attachments, people: people, transaction: transaction
            ).message
        }.value
    }

    private func markRead(_ request: SoukV1.MarkConversationReadRequest, _ call: SoukCall) async throws -> SoukV1.ReadReceipt {
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(request.conversationID, field: "conversation_id") }
        checks.require(request.throughSequence > 0, "through_sequence", "must be the sequence of a message (positive)")
        try checks.finish()
        _ = try conversation(id!, call, store)
        let people = try people(call)
        return try await store.write { transaction in
            let current = try conversation(id!, call, transaction)
            guard request.throughSequence <= current.value.subject.lastSequence else {
                throw RPCError.invalidField(
                    "through_sequence", "is after the conversation's last event (\(current.value.subject.lastSequence))")
            }
            return try ChatWrites.markRead(
                current, reader: caller.accountID.description, through: request.throughSequence, people: people, transaction: transaction)
        }
    }

    // MARK: - WatchConversation

    /// The conversation's stored events after the resume point, the other participants' typing
    /// indicators, and the caller's own indicators read from the requests, all at once until the
    /// call ends.
    private func watch(
        _ requests: RPCReader<SoukV1.WatchConversationRequest>, _ writer: RPCWriter<SoukV1.ConversationEvent>, _ call: SoukCall
    ) async throws {
        let caller = try call.requireCaller()
        let me = caller.accountID.description
        var iterator = requests.makeAsyncIterator()
        guard let first = try await iterator.next() else { return }
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(first.conversationID, field: "conversation_id") }
        checks.require(first.resumeAfterSequence >= 0, "resume_after_sequence", "must not be negative")
        try checks.check { _ = try Self.typing(first.typing) }
        try checks.finish()
        let conversationID = id!
        _ = try conversation(conversationID, call, store)
        let stream = ChatWrites.stream(conversationID)
        let start = first.resumeAfterSequence == 0 ? try store.lastSequence(of: stream) : UInt64(first.resumeAfterSequence)
        if start > 0, first.resumeAfterSequence > 0 {
            // A resume point past the stream's end is a client's mistake, not a wait.
            let last = try store.lastSequence(of: stream)
            guard start <= last else { throw RPCError.invalidField("resume_after_sequence", "is after the conversation's last event (\(last))") }
        }
        let indicators = messaging.typing
        let (token, typingEvents) = indicators.join(conversationID, as: me)
        defer { indicators.leave(conversationID, token: token) }
        if let typing = try Self.typing(first.typing) { indicators.publish(conversationID, from: me, typing: typing) }
        let store = store
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The caller's requests after the first: typing on or off. A client that
                // half-closes keeps watching.
                var rest = requests.makeAsyncIterator()
                _ = try await rest.next()
                while let request = try await rest.next() {
                    guard request.conversationID.isEmpty || request.conversationID == first.conversationID else {
                        throw RPCError.invalidField("conversation_id", "must be empty or name the watched conversation in later requests")
                    }
                    if let typing = try Self.typing(request.typing) { indicators.publish(conversationID, from: me, typing: typing) }
                }
                try await Task.sleep(for: .seconds(365 * 86_400))
            }
            group.addTask {
                for await event in typingEvents { try await writer.write(event) }
            }
            group.addTask {
                for try await stored in store.follow(stream, after: start) {
                    var event = try SoukV1.ConversationEvent(decoding: stored.payload)
                    event.sequence = Int64(stored.sequence)
                    try await writer.write(event)
                }
            }
            // The first task to end (the call's end, an error, the store closing) ends the others.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// A request's typing state: nil for no news.
    private static func typing(_ state: SoukV1.TypingState) throws -> Bool? {
        switch state {
        case .unspecified: nil
        case .typing: true
        case .stopped: false
        case .unrecognized: throw RPCError.invalidField("typing", "must be TYPING_STATE_TYPING or TYPING_STATE_STOPPED")
        }
    }
}
