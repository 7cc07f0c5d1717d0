import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// `souk.v1.Support`: tickets from every role (and from guests), answered and closed by the
/// marketplace's admins, moved by `TicketLifecycle`.
struct SupportService {
    let store: Store

    static let maxSubject = 200
    static let maxText = 5000
    static let maxContactName = 100
    static let maxAttachments = 10
    /// What a ticket may be about (`related`).
    static let relatedTypes: Set<SoukV1.ResourceType> = [.order, .job, .booking, .bill, .delivery, .payment]
    /// The roles an author may write in.
    static let authorRoles: Set<SoukV1.Role> = [.customer, .provider, .courier, .admin]

    var declaration: SoukV1Services.Support {
        SoukV1Services.Support(
            createTicket: .handler(create),
            getTicket: .handler(owner: authorOwns { $0.ticketID }, get),
            listTickets: .handler(owner: .account { $0.authorAccountID }, list),
            addTicketMessage: .handler(owner: authorOwns { $0.ticketID }, addMessage),
            listTicketMessages: .handler(owner: authorOwns { $0.ticketID }, listMessages),
            closeTicket: .handler(owner: authorOwns { $0.ticketID }, close))
    }

    /// A caller in an owner role owns a ticket they wrote (NOT_FOUND for an unknown ticket or
    /// one of another marketplace).
    private func authorOwns<Request>(_ ticketID: @escaping @Sendable (Request) -> String) -> Ownership<Request> {
        let store = store
        return Ownership { request, call, caller, _ in
            let (marketplaceID, _) = try call.requireMarketplace()
            let id = try RequestFields.id(ticketID(request), field: "ticket_id")
            let ticket = try store.require(TicketTable.table, id, in: marketplaceID, "ticket")
            return ticket.value.subject.authorAccountID == caller.accountID.description
        }
    }

    /// Whether the caller reads tickets as staff: an admin of the marketplace (the builder has
    /// checked the marketplace) or an operator.
    static func isStaff(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin)
    }

    private func viewer(_ call: SoukCall) -> TicketProjection.Viewer {
        Self.isStaff(call) ? .admin(target: SupportSettings.responseTarget(call.marketplace), now: store.configuration.clock()) : .author
    }

    // MARK: - Field checks

    /// The checks of a message's text and attachments (request fields only; the media are
    /// checked against the store when attached).
    private static func checkMessage(text: String, attachments: [SoukV1.Attachment], into checks: inout FieldChecks) {
        checks.require(text.count <= maxText, "text", "must be at most \(maxText) characters")
        checks.require(
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !attachments.isEmpty, "text",
            "write a message or attach a file")
        checks.require(attachments.count <= maxAttachments, "attachments", "at most \(maxAttachments) files per message")
        var seen = Set<RecordID>()
        for (index, attachment) in attachments.enumerated() {
            let field = "attachments[\(index)].media_id"
            if let id = try? checks.run({ try RequestFields.id(attachment.mediaID, field: field) }) {
                checks.require(seen.insert(id).inserted, field, "is attached twice")
            }
        }
    }

    // MARK: - CreateTicket

    private func create(_ request: SoukV1.CreateTicketRequest, _ call: SoukCall) async throws -> SoukV1.Ticket {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = marketplaceID.description
        let caller = call.caller
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let subject = request.subject.trimmingCharacters(in: .whitespacesAndNewlines)
        checks.require(!subject.isEmpty, "subject", "is required")
        checks.require(subject.count <= Self.maxSubject, "subject", "must be at most \(Self.maxSubject) characters")
        Self.checkMessage(text: request.text, attachments: request.attachments, into: &checks)
        checks.require(
            request.topic != .unspecified && SoukV1.TicketTopic.allCases.contains(request.topic), "topic",
            "must be a known topic (TICKET_TOPIC_ORDER, TICKET_TOPIC_ACCOUNT, ...)")
        if let related = request.related, related.type != .unspecified || !related.id.isEmpty {
            checks.require(
                Self.relatedTypes.contains(related.type), "related.type", "must be an order, job, booking, bill, delivery or payment")
            try checks.check { _ = try RequestFields.id(related.id, field: "related.id") }
        }
        let contactName = request.contactName.trimmingCharacters(in: .whitespacesAndNewlines)
        checks.require(contactName.count <= Self.maxContactName, "contact_name", "must be at most \(Self.maxContactName) characters")
        var role = SoukV1.Role.unspecified
        var contactEmail = request.contactEmail.trimmingCharacters(in: .whitespaces)
        if let caller {
            role = request.actingRole == .unspecified ? .customer : request.actingRole
            checks.require(
                Self.authorRoles.contains(role) && caller.activeRoles.contains(role), "acting_role",
                "must be a role the caller holds active: customer, provider, courier or admin")
        } else {
            checks.require(request.actingRole == .unspecified, "acting_role", "guests write in no role")
            if contactEmail.isEmpty {
                checks.add("contact_email", "is required for guests (where the answers are mailed)")
            } else if let problem = EmailAddress.problem(with: contactEmail) {
                checks.add("contact_email", problem)
            }
            checks.require(request.attachments.isEmpty, "attachments", "guests cannot attach files: sign in to upload them")
        }
        try checks.finish()

        var name = contactName
        if let caller {
            guard let account = try IdentityRecords.account(caller.accountID, marketplaceID: market, store) else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "the caller has no account in this marketplace")
            }
            contactEmail = account.email
            if name.isEmpty { name = account.givenName }
        }
        let authorID = caller?.accountID.description ?? ""
        let ticket = SoukStoreV1.Ticket(
            authorAccountID: authorID, authorRole: role, contactEmail: contactEmail, contactName: name, topic: request.topic,
            subject: subject, related: request.related.flatMap { $0.type == .unspecified && $0.id.isEmpty ? nil : $0 }, status: .open,
            messageCount: 1)
        var author = AuditActor(call, requestID: requestID!)
        if caller != nil { author.role = role }
        let actor = author
        let viewer = viewer(call)
        let key = IdempotencyKey(marketplace: market, account: caller.map { $0.accountID.description } ?? "guest:\(EmailAddress.key(contactEmail))", key: requestID!)
        let text = request.text
        let attachments = request.attachments
        return try await store.write(
            idempotencyKey: key, fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Ticket>()
        ) { transaction in
            let now = Timestamp(transaction.now)
            var opened = ticket
            opened.openTime = now
            opened.activityTime = now
            opened.waitingSince = now
            let id = RecordID.generate()
            let record = try TicketLifecycle.machine.create(
                TicketRecord(marketplaceID: market, opened), in: TicketTable.table, id: id, by: actor, transaction: transaction)
            _ = try TicketMessages.write(
                to: record, author: authorID, fromAdmin: false, text: text, attachments: attachments, uploader: caller?.accountID,
                transaction: transaction)
            try TicketFeed.showAuthor(record, transaction: transaction)
            return TicketProjection.ticket(record, for: viewer)
        }.value
    }

    // MARK: - Reads

    private func get(_ request: SoukV1.GetTicketRequest, _ call: SoukCall) async throws -> SoukV1.Ticket {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.ticketID, field: "ticket_id")
        return TicketProjection.ticket(try store.require(TicketTable.table, id, in: marketplaceID, "ticket"), for: viewer(call))
    }

    private func list(_ request: SoukV1.ListTicketsRequest, _ call: SoukCall) async throws -> SoukV1.ListTicketsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        let target = SupportSettings.responseTarget(marketplace)
        let query = try TicketQuery(
            request, marketplaceID: marketplaceID.description, caller: caller.accountID.description, staff: Self.isStaff(call),
            target: target, now: store.configuration.clock())
        let (items, token) = try query.page(store)
        let viewer = viewer(call)
        return SoukV1.ListTicketsResponse(
            tickets: items.map { TicketProjection.ticket($0, for: viewer) }, nextPageToken: RequestFields.nextPageToken(token, filters: query.stamp),
            responseTarget: target)
    }

    private func listMessages(_ request: SoukV1.ListTicketMessagesRequest, _ call: SoukCall) async throws -> SoukV1.ListTicketMessagesResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(request.ticketID, field: "ticket_id") }
        let filters = "ticket=\(request.ticketID)"
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        _ = try store.require(TicketTable.table, id!, in: marketplaceID, "ticket")
        let result = try store.list(
            TicketMessageTable.table, TicketMessageTable.byTicket,
            .starting(with: [.string(marketplaceID.description), .string(id!.description)]), direction: .ascending, page: page!)
        return SoukV1.ListTicketMessagesResponse(
            messages: result.items.map(TicketProjection.message), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    // MARK: - Writes

    private func addMessage(_ request: SoukV1.AddTicketMessageRequest, _ call: SoukCall) async throws -> SoukV1.TicketMessage {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let ticketID = try checks.run { try RequestFields.id(request.ticketID, field: "ticket_id") }
        Self.checkMessage(text: request.text, attachments: request.attachments, into: &checks)
        try checks.finish()
        let id = ticketID!
        let market = marketplaceID.description
        let staff = Self.isStaff(call)
        let target = SupportSettings.responseTarget(marketplace)
        let callerID = caller.accountID.description
        let baseActor = AuditActor(call, requestID: requestID!)
        let text = request.text
        let attachments = request.attachments
        let machine = TicketLifecycle.machine
        let key = IdempotencyKey(marketplace: market, account: callerID, key: requestID!)
        return try await store.write(
            idempotencyKey: key, fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.TicketMessage>()
        ) { transaction in
            let current = try transaction.require(TicketTable.table, id, in: marketplaceID, "ticket")
            let ticket = current.value.subject
            let isAuthor = ticket.authorAccountID == callerID
            guard isAuthor || staff else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "only the ticket's author or an admin may write to it")
            }
            if !isAuthor, ticket.status == .closed {
                throw RPCError.souk(
                    .failedPrecondition, .ticketClosed, "ticket \(id) is closed: only its author may write to it, which reopens it",
                    metadata: ["ticket_id": id.description])
            }
            let message = try TicketMessages.write(
                to: current, author: callerID, fromAdmin: !isAuthor, text: text, attachments: attachments, uploader: caller.accountID,
                transaction: transaction)
            let now = Timestamp(transaction.now)
            func touch(_ record: inout TicketRecord) {
                record.subject.messageCount += 1
                record.subject.activityTime = now
            }
            /// A message that moves nothing: recorded as a change and shown to the author.
            func unmoved(_ reason: String, _ actor: AuditActor) throws -> StoredRecord<TicketRecord> {
                let record = try transaction.update(TicketTable.table, id) { touch(&$0) }
                try machine.recordChange(record, in: TicketTable.table, by: actor, reason: reason, transaction: transaction)
                try TicketFeed.showAuthor(record, transaction: transaction)
                return record
            }
            if isAuthor {
                var actor = baseActor
                if ticket.authorRole != .unspecified { actor.role = ticket.authorRole }
                if ticket.status == .open {
                    _ = try unmoved("the author wrote again", actor)
                } else {
                    try machine.fire(.reopen, on: id, in: TicketTable.table, marketplaceID: market, by: actor, transaction: transaction) {
                        touch(&$0)
                        $0.subject.waitingSince = now
                    }
                }
            } else {
                let record: StoredRecord<TicketRecord>
                if ticket.status == .open {
                    record = try machine.fire(.answer, on: id, in: TicketTable.table, marketplaceID: market, by: baseActor, transaction: transaction) {
                        touch(&$0)
                        $0.subject.waitingSince = nil
                    }
                } else {
                    record = try unmoved("answered again", baseActor)
                }
                try TicketNews.tellAuthorAnswered(record, text: text, transaction: transaction)
                try TicketFeed.showAdmin(record, adminAccountID: callerID, target: target, transaction: transaction)
            }
            return TicketProjection.message(message)
        }.value
    }

    private func close(_ request: SoukV1.CloseTicketRequest, _ call: SoukCall) async throws -> SoukV1.Ticket {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let ticketID = try checks.run { try RequestFields.id(request.ticketID, field: "ticket_id") }
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let id = ticketID!
        let staff = Self.isStaff(call)
        let target = SupportSettings.responseTarget(marketplace)
        let callerID = caller.accountID.description
        let baseActor = AuditActor(call)
        let viewer = viewer(call)
        return try await store.write { transaction in
            let current = try transaction.require(TicketTable.table, id, in: marketplaceID, "ticket")
            let isAuthor = current.value.subject.authorAccountID == callerID
            guard isAuthor || staff else { throw RPCError.souk(.permissionDenied, .notAllowed, "only the ticket's author or an admin may close it") }
            var actor = baseActor
            if isAuthor, current.value.subject.authorRole != .unspecified { actor.role = current.value.subject.authorRole }
            let now = Timestamp(transaction.now)
            let record = try TicketLifecycle.machine.fire(
                .close, on: id, in: TicketTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected ?? nil,
                transaction: transaction
            ) {
                $0.subject.waitingSince = nil
                $0.subject.activityTime = now
                $0.subject.closedByAccountID = callerID
                $0.subject.closeTime = now
            }
            if !isAuthor { try TicketFeed.showAdmin(record, adminAccountID: callerID, target: target, transaction: transaction) }
            return TicketProjection.ticket(record, for: viewer)
        }
    }
}

/// Ticket messages and their attachments.
enum TicketMessages {
    /// Stores a message of ticket `ticket`: each attachment must be media of the marketplace
    /// that `uploader` uploaded (an image or a PDF, checked by content when uploaded); it is
    /// attached to the ticket, readable by its author and the admins. Every bad attachment is
    /// named at once (INVALID_ARGUMENT), and nothing is written then.
    static func write(
        to ticket: StoredRecord<TicketRecord>, author: String, fromAdmin: Bool, text: String, attachments: [SoukV1.Attachment],
        uploader: RecordID?, transaction: Transaction
    ) throws -> StoredRecord<TicketMessageRecord> {
        let market = ticket.value.marketplaceID
        guard let marketplaceID = RecordID(market) else { throw RPCError(.internalError, "ticket without a marketplace") }
        let referrer = MediaReferrer(type: .ticket, id: ticket.id.description, field: "attachments")
        let parties: Set<RecordID> = RecordID(ticket.value.subject.authorAccountID).map { [$0] } ?? []
        var checks = FieldChecks()
        let stored = try MediaReferences.attachments(
            attachments, to: referrer, visibility: .parties(parties), marketplaceID: marketplaceID, uploader: uploader,
            checks: &checks, in: transaction
        ) { type in type.hasPrefix("image/") || type == "application/pdf" ? nil : "must be an image or a PDF, not \(type)" }
        try checks.finish()
        let message = SoukStoreV1.TicketMessage(
            ticketID: ticket.id.description, authorAccountID: author, fromAdmin: fromAdmin, text: text, attachments: stored)
        return try transaction.insert(TicketMessageTable.table, TicketMessageRecord(marketplaceID: market, message))
    }
}

/// Whom an answer tells.
enum TicketNews {
    /// The author, in the app (NotificationKind SUPPORT); a guest, by mail to the contact e-mail.
    static func tellAuthorAnswered(_ record: StoredRecord<TicketRecord>, text: String, transaction: Transaction) throws {
        let ticket = record.value.subject
        let excerpt = text.count > 200 ? String(text.prefix(200)) + "…" : text
        if !ticket.authorAccountID.isEmpty {
            try Notifier.send(
                [Notifier.Note(
                    to: ticket.authorAccountID, kind: .support, .supportAnswered(ticket: ticket.subject, excerpt: excerpt),
                    subject: SoukV1.ResourceRef(type: .ticket, id: record.id.description))],
                marketplaceID: record.value.marketplaceID, transaction: transaction)
        } else if !ticket.contactEmail.isEmpty {
            let greeting = ticket.contactName.isEmpty ? "Hello," : "Hello \(ticket.contactName),"
            try MailOutbox.enqueue(
                in: transaction, marketplaceID: record.value.marketplaceID, kind: .supportReply, to: ticket.contactEmail, accountID: "",
                subject: "Re: \(ticket.subject)",
                body: "\(greeting)\n\n\(text)\n\n(Support ticket \(record.id.description))")
        }
    }
}
