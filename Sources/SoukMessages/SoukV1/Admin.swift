import CProtobufC
import SoukProtoC

// souk/v1/admin.proto (mail outbox and audit log; announcements, policies and advertisements come with their service).
extension SoukV1 {
    /// Kinds of outgoing mail.
    public enum MailKind: ProtoEnum, CaseIterable {
        case unspecified
        /// Carries a single-use reset token (redacted for admins).
        case passwordReset
        /// A reply to a support ticket.
        case supportReply
        /// Account notices: role decision, block, deletion.
        case accountNotice
        /// Receipts for payments and refunds.
        case receipt
        case other
        case unrecognized(Int32)

        public static let allCases: [MailKind] = [
            .unspecified, .passwordReset, .supportReply, .accountNotice, .receipt, .other,
        ]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .passwordReset
            case 2: self = .supportReply
            case 3: self = .accountNotice
            case 4: self = .receipt
            case 5: self = .other
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .passwordReset: 1
            case .supportReply: 2
            case .accountNotice: 3
            case .receipt: 4
            case .other: 5
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `MAIL_KIND_PASSWORD_RESET`.
        public var protoName: String {
            switch self {
            case .unspecified: "MAIL_KIND_UNSPECIFIED"
            case .passwordReset: "MAIL_KIND_PASSWORD_RESET"
            case .supportReply: "MAIL_KIND_SUPPORT_REPLY"
            case .accountNotice: "MAIL_KIND_ACCOUNT_NOTICE"
            case .receipt: "MAIL_KIND_RECEIPT"
            case .other: "MAIL_KIND_OTHER"
            case .unrecognized(let value): "MAIL_KIND_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// Where a mail in the outbox stands.
    public enum MailStatus: ProtoEnum, CaseIterable {
        case unspecified
        /// Waiting for the adapter.
        case pending
        case sent
        case failed
        case unrecognized(Int32)

        public static let allCases: [MailStatus] = [.unspecified, .pending, .sent, .failed]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .pending
            case 2: self = .sent
            case 3: self = .failed
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .pending: 1
            case .sent: 2
            case .failed: 3
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `MAIL_STATUS_PENDING`.
        public var protoName: String {
            switch self {
            case .unspecified: "MAIL_STATUS_UNSPECIFIED"
            case .pending: "MAIL_STATUS_PENDING"
            case .sent: "MAIL_STATUS_SENT"
            case .failed: "MAIL_STATUS_FAILED"
            case .unrecognized(let value): "MAIL_STATUS_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// One mail to send.
    public struct MailMessage: Sendable, Hashable {
        public var id: String
        public var kind: SoukV1.MailKind
        /// Recipient address.
        public var toAddress: String
        /// Recipient account, if any.
        public var accountID: String
        public var subject: String
        /// Plain-text body; "[redacted]" for secret-bearing kinds when read by admins.
        public var body: String
        public var status: SoukV1.MailStatus
        public var attempts: Int32
        public var lastError: String
        public var version: Int64
        public var createTime: Timestamp?
        public var sendTime: Timestamp?

        public init(
            id: String = "",
            kind: SoukV1.MailKind = .unspecified,
            toAddress: String = "",
            accountID: String = "",
            subject: String = "",
            body: String = "",
            status: SoukV1.MailStatus = .unspecified,
            attempts: Int32 = 0,
            lastError: String = "",
            version: Int64 = 0,
            createTime: Timestamp? = nil,
            sendTime: Timestamp? = nil
        ) {
            self.id = id
            self.kind = kind
            self.toAddress = toAddress
            self.accountID = accountID
            self.subject = subject
            self.body = body
            self.status = status
            self.attempts = attempts
            self.lastError = lastError
            self.version = version
            self.createTime = createTime
            self.sendTime = sendTime
        }
    }
}

extension SoukV1.MailMessage: CProtoMessage {
    public static var protoName: String { "souk.v1.MailMessage" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__MailMessage>) { souk__v1__mail_message__init(c) }

    init(c: Souk__V1__MailMessage) throws {
        id = try Unpacked.string(c.id, "id")
        kind = .init(cValue: c.kind)
        toAddress = try Unpacked.string(c.to_address, "to_address")
        accountID = try Unpacked.string(c.account_id, "account_id")
        subject = try Unpacked.string(c.subject, "subject")
        body = try Unpacked.string(c.body, "body")
        status = .init(cValue: c.status)
        attempts = c.attempts
        lastError = try Unpacked.string(c.last_error, "last_error")
        version = c.version
        createTime = try Unpacked.message(c.create_time, "create_time")
        sendTime = try Unpacked.message(c.send_time, "send_time")
    }

    func fill(_ c: inout Souk__V1__MailMessage, _ arena: inout EncodingArena) {
        c.id = arena.string(id)
        c.kind = kind.cValue()
        c.to_address = arena.string(toAddress)
        c.account_id = arena.string(accountID)
        c.subject = arena.string(subject)
        c.body = arena.string(body)
        c.status = status.cValue()
        c.attempts = attempts
        c.last_error = arena.string(lastError)
        c.version = version
        c.create_time = arena.message(createTime)
        c.send_time = arena.message(sendTime)
    }
}

extension SoukV1 {
    /// Request of Admin.ListAuditEntries.
    public struct ListAuditEntriesRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var pageSize: Int32
        public var pageToken: String
        /// At most one of resource and actor_account_id.
        public var resource: SoukV1.ResourceRef?
        public var actorAccountID: String

        public init(
            marketplaceID: String = "",
            pageSize: Int32 = 0,
            pageToken: String = "",
            resource: SoukV1.ResourceRef? = nil,
            actorAccountID: String = ""
        ) {
            self.marketplaceID = marketplaceID
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.resource = resource
            self.actorAccountID = actorAccountID
        }
    }
}

extension SoukV1.ListAuditEntriesRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAuditEntriesRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAuditEntriesRequest>) { souk__v1__list_audit_entries_request__init(c) }

    init(c: Souk__V1__ListAuditEntriesRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        pageSize = c.page_size
        pageToken = try Unpacked.string(c.page_token, "page_token")
        resource = try Unpacked.message(c.resource, "resource")
        actorAccountID = try Unpacked.string(c.actor_account_id, "actor_account_id")
    }

    func fill(_ c: inout Souk__V1__ListAuditEntriesRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.page_size = pageSize
        c.page_token = arena.string(pageToken)
        c.resource = arena.message(resource)
        c.actor_account_id = arena.string(actorAccountID)
    }
}

extension SoukV1.ListAuditEntriesRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Admin.ListAuditEntries.
    public struct ListAuditEntriesResponse: Sendable, Hashable {
        public var entries: [SoukV1.AuditEntry]
        public var nextPageToken: String

        public init(entries: [SoukV1.AuditEntry] = [], nextPageToken: String = "") {
            self.entries = entries
            self.nextPageToken = nextPageToken
        }
    }
}

extension SoukV1.ListAuditEntriesResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAuditEntriesResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAuditEntriesResponse>) { souk__v1__list_audit_entries_response__init(c) }

    init(c: Souk__V1__ListAuditEntriesResponse) throws {
        entries = try Unpacked.messages(c.n_entries, c.entries, "entries")
        nextPageToken = try Unpacked.string(c.next_page_token, "next_page_token")
    }

    func fill(_ c: inout Souk__V1__ListAuditEntriesResponse, _ arena: inout EncodingArena) {
        c.n_entries = entries.count
        c.entries = arena.messages(entries)
        c.next_page_token = arena.string(nextPageToken)
    }
}

extension SoukV1 {
    /// Request of Admin.ListMailOutbox.
    public struct ListMailOutboxRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var pageSize: Int32
        public var pageToken: String
        /// Only this status (the adapter asks for PENDING); unspecified means any.
        public var status: SoukV1.MailStatus

        public init(
            marketplaceID: String = "",
            pageSize: Int32 = 0,
            pageToken: String = "",
            status: SoukV1.MailStatus = .unspecified
        ) {
            self.marketplaceID = marketplaceID
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.status = status
        }
    }
}

extension SoukV1.ListMailOutboxRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ListMailOutboxRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListMailOutboxRequest>) { souk__v1__list_mail_outbox_request__init(c) }

    init(c: Souk__V1__ListMailOutboxRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        pageSize = c.page_size
        pageToken = try Unpacked.string(c.page_token, "page_token")
        status = .init(cValue: c.status)
    }

    func fill(_ c: inout Souk__V1__ListMailOutboxRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.page_size = pageSize
        c.page_token = arena.string(pageToken)
        c.status = status.cValue()
    }
}

extension SoukV1.ListMailOutboxRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Admin.ListMailOutbox.
    public struct ListMailOutboxResponse: Sendable, Hashable {
        public var messages: [SoukV1.MailMessage]
        public var nextPageToken: String

        public init(messages: [SoukV1.MailMessage] = [], nextPageToken: String = "") {
            self.messages = messages
            self.nextPageToken = nextPageToken
        }
    }
}

extension SoukV1.ListMailOutboxResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ListMailOutboxResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListMailOutboxResponse>) { souk__v1__list_mail_outbox_response__init(c) }

    init(c: Souk__V1__ListMailOutboxResponse) throws {
        messages = try Unpacked.messages(c.n_messages, c.messages, "messages")
        nextPageToken = try Unpacked.string(c.next_page_token, "next_page_token")
    }

    func fill(_ c: inout Souk__V1__ListMailOutboxResponse, _ arena: inout EncodingArena) {
        c.n_messages = messages.count
        c.messages = arena.messages(messages)
        c.next_page_token = arena.string(nextPageToken)
    }
}

extension SoukV1 {
    /// Request of Admin.CompleteMail.
    public struct CompleteMailRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var mailID: String
        /// SENT or FAILED.
        public var status: SoukV1.MailStatus
        /// Error text for FAILED.
        public var error: String
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            mailID: String = "",
            status: SoukV1.MailStatus = .unspecified,
            error: String = "",
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.mailID = mailID
            self.status = status
            self.error = error
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.CompleteMailRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.CompleteMailRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__CompleteMailRequest>) { souk__v1__complete_mail_request__init(c) }

    init(c: Souk__V1__CompleteMailRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        mailID = try Unpacked.string(c.mail_id, "mail_id")
        status = .init(cValue: c.status)
        error = try Unpacked.string(c.error, "error")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__CompleteMailRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.mail_id = arena.string(mailID)
        c.status = status.cValue()
        c.error = arena.string(error)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.CompleteMailRequest: MarketplaceScopedRequest {}

