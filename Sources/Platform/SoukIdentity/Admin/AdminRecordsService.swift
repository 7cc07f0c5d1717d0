import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

/// The part of `souk.v1.Admin` that identity keeps: the audit log and the mail outbox.
/// Announcements, policies and advertisements are the content module's (`SoukContent`).
public struct AdminRecordsService: RPCService {
    public let serviceName = "souk.v1.Admin"
    let identity: Identity
    let build: SoukMethodBuilder

    public init(identity: Identity, rules: AccessRules) {
        self.identity = identity
        build = SoukMethodBuilder(service: serviceName, rules: rules, marketplaces: identity.marketplaces, logger: identity.logger)
    }

    var store: Store { identity.store }

    public var methods: [RPCMethod] { declaration.methods(build) }

    /// The audit log and the mail outbox; the rest of Admin is the content module's.
    var declaration: SoukV1Services.Admin {
        SoukV1Services.Admin(
            createAnnouncement: .unimplemented, getAnnouncement: .unimplemented, listAnnouncements: .unimplemented,
            updateAnnouncement: .unimplemented, archiveAnnouncement: .unimplemented, restoreAnnouncement: .unimplemented,
            createPolicy: .unimplemented, getPolicy: .unimplemented, listPolicies: .unimplemented,
            updatePolicy: .unimplemented, archivePolicy: .unimplemented, restorePolicy: .unimplemented,
            createAdvertisement: .unimplemented, getAdvertisement: .unimplemented, listAdvertisements: .unimplemented,
            updateAdvertisement: .unimplemented, archiveAdvertisement: .unimplemented, restoreAdvertisement: .unimplemented,
            listAuditEntries: .handler(listAuditEntries),
            listMailOutbox: .handler(listMailOutbox),
            completeMail: .handler(completeMail))
    }

    /// Newest first: of one resource, of one type of resource, by one actor, or all.
    func listAuditEntries(_ request: SoukV1.ListAuditEntriesRequest, _ call: SoukCall) async throws -> SoukV1.ListAuditEntriesResponse {
        let scope = AccountsService.scopeKey(call)
        let resource = request.resource
        var checks = FieldChecks()
        checks.require(resource == nil || request.actorAccountID.isEmpty, "actor_account_id", "cannot be combined with resource")
        let resourceID = try checks.run { try RequestFields.optionalID(resource?.id ?? "", field: "resource.id") } ?? nil
        if let resource, resource.id.isEmpty, resource.type == .unspecified { checks.add("resource", "must name an id or a type") }
        let actorID = try checks.run { try RequestFields.optionalID(request.actorAccountID, field: "actor_account_id") } ?? nil
        let filters = "type=\(resource?.type.rawValue ?? 0);id=\(resource?.id ?? "");actor=\(request.actorAccountID)"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let page = checkedPage ?? PageRequest()
        let result: Page<AuditRecord>
        if let id = resourceID {
            result = try store.list(
                AuditTable.table, AuditTable.byResource, .starting(with: [.string(scope), .string(id.description)]),
                direction: .descending, page: page)
        } else if let resource {
            result = try store.list(
                AuditTable.table, AuditTable.byResourceType, .starting(with: [.string(scope), .enumCase(resource.type)]),
                direction: .descending, page: page)
        } else if let actor = actorID {
            result = try store.list(
                AuditTable.table, AuditTable.byActor, .starting(with: [.string(scope), .string(actor.description)]),
                direction: .descending, page: page)
        } else {
            result = try store.list(AuditTable.table, AuditTable.byMarketplace, .starting(with: [.string(scope)]), direction: .descending, page: page)
        }
        return SoukV1.ListAuditEntriesResponse(
            entries: result.items.map(AuditProjection.entry), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// Oldest first; secret-bearing bodies only for operators (the mail adapter runs as one).
    /// The page comes from the index of the most selective filter (recipient, one kind, one
    /// status); the other filters are checked on its mails.
    func listMailOutbox(_ request: SoukV1.ListMailOutboxRequest, _ call: SoukCall) async throws -> SoukV1.ListMailOutboxResponse {
        let scope = AccountsService.scopeKey(call)
        let statuses = Set(request.statuses)
        let kinds = Set(request.kinds)
        let recipient = request.toAddress
        let filters = [
            "status=\(statuses.map(\.rawValue).sorted())", "kind=\(kinds.map(\.rawValue).sorted())",
            "to=\(MailTable.recipientKey(recipient))",
        ].joined(separator: ";")
        var checks = FieldChecks()
        for (index, status) in request.statuses.enumerated() {
            switch status {
            case .unspecified, .unrecognized: checks.add("statuses[\(index)]", "must be a mail status")
            default: break
            }
        }
        for (index, kind) in request.kinds.enumerated() {
            switch kind {
            case .unspecified, .unrecognized: checks.add("kinds[\(index)]", "must be a mail kind")
            default: break
            }
        }
        if !recipient.isEmpty, let problem = EmailAddress.problem(with: recipient) { checks.add("to_address", problem) }
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let market = KeyPart.string(scope)
        let (index, range): (Index<MailRecord>, IndexRange) =
            if !recipient.isEmpty {
                (MailTable.byRecipient, .starting(with: [market, .string(MailTable.recipientKey(recipient))]))
            } else if kinds.count == 1, let kind = kinds.first {
                (MailTable.byKind, .starting(with: [market, .enumCase(kind)]))
            } else if statuses.count == 1, let status = statuses.first {
                (MailTable.byStatus, .starting(with: [market, .enumCase(status)]))
            } else {
                (MailTable.byMarketplace, .starting(with: [market]))
            }
        let result = try store.list(MailTable.table, index, range, page: page ?? PageRequest())
        let reveal = call.caller?.isOperator == true
        let matching = result.items.filter {
            (statuses.isEmpty || statuses.contains($0.value.subject.status)) && (kinds.isEmpty || kinds.contains($0.value.subject.kind))
        }
        return SoukV1.ListMailOutboxResponse(
            messages: matching.map { MailProjection.message($0, revealSecrets: reveal) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// The mail adapter's report on one mail: SENT or FAILED, once, from PENDING.
    func completeMail(_ request: SoukV1.CompleteMailRequest, _ call: SoukCall) async throws -> SoukV1.MailMessage {
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.id(request.mailID, field: "mail_id") }
        checks.require(request.status == .sent || request.status == .failed, "status", "must be MAIL_STATUS_SENT or MAIL_STATUS_FAILED")
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        try checks.finish()
        guard let id = checkedID else { throw RPCError.invalidField("mail_id", "is required") }
        let scope = AccountsService.scopeKey(call)
        let actor = AuditActor(call)
        let (status, errorText) = (request.status, String(request.error.prefix(1000)))
        let record = try await store.write { transaction in
            guard let current = try transaction.get(MailTable.table, id), current.value.marketplaceID == scope else {
                throw RPCError.notFound("mail", request.mailID)
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("mail", id.description, expected: expected, actual: current.version)
            }
            guard current.value.subject.status == .pending else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, "the mail is not pending", metadata: ["state": current.value.subject.status.protoName])
            }
            let record = try transaction.update(MailTable.table, id) { value in
                value.subject.status = status
                value.subject.attempts += 1
                value.subject.lastError = status == .failed ? errorText : ""
                if status == .sent { value.subject.sendTime = Timestamp(transaction.now) }
            }
            try AuditLog.record(
                in: transaction, marketplaceID: scope, resource: .init(type: .unspecified, id: id.description), actor: actor,
                from: SoukV1.MailStatus.pending.protoName, to: status.protoName, reason: errorText, resourceVersion: record.version)
            return record
        }
        identity.logger.info("mail completed", metadata: ["mail_id": "\(id)", "status": "\(status.protoName)"])
        return MailProjection.message(record, revealSecrets: true)
    }
}
