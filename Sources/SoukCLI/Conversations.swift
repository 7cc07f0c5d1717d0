import ArgumentParser
import Foundation

// Support tickets, messaging and notifications: what people write to each other.

let ticketColumns = [
    Column("ID", "id"), Column("TOPIC", "topic"), Column("STATUS", "status"), Column("SUBJECT", "subject"), Column("MESSAGES", "messageCount"),
    Column("UPDATED", "updateTime"),
]
let ticketFields = [
    Column("id", "id"), Column("subject", "subject"), Column("topic", "topic"), Column("status", "status"), Column("about", "related"),
    Column("author", "authorAccountId"), Column("contact", "contactEmail"), Column("messages", "messageCount"), Column("overdue", "overdue"),
    Column("answer due", "responseDueTime"), Column("created", "createTime"), Column("updated", "updateTime"),
]

struct Tickets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support", abstract: "Support tickets (souk.v1.Support): open one, list, show with its replies, reply, close.",
        discussion: """
              TICKET=$(souk support create --subject 'Wrong bottle' --text 'I got a rosé' --topic order --json | jq -r .id)
              souk support reply "$TICKET" --text 'We are sending the right one' --profile admin
              souk support show "$TICKET"
              souk support close "$TICKET"
            """,
        subcommands: [TicketsList.self, TicketsShow.self, TicketsCreate.self, TicketsReply.self, TicketsClose.self],
        defaultSubcommand: TicketsList.self, aliases: ["tickets"])
}

struct TicketsList: ListCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List tickets (your own, or the marketplace's for admins): Support.ListTickets.")
    static let rpc = "souk.v1.Support/ListTickets"
    static let key = "tickets"
    static var columns: [Column] { ticketColumns }
    static let sortable = true
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these statuses (repeatable): open, answered, closed.") var status: [String] = []
    @Option(name: .long, help: "Only these topics (repeatable): account, order, payment, delivery, laundry-job, rental, complaint, other.")
    var topic: [String] = []
    @Flag(name: .long, help: "Only tickets waiting past their answer time (admins).") var overdue = false
    var filters: [String: Any] {
        var request: [String: Any] = ["overdue": overdue]
        if !status.isEmpty { request["statuses"] = status.map { enumName($0, prefix: "TICKET_STATUS_") } }
        if !topic.isEmpty { request["topics"] = topic.map { enumName($0, prefix: "TICKET_TOPIC_") } }
        return request
    }
}

let ticketMessageColumns = [Column("TIME", "createTime"), Column("FROM", "authorAccountId"), Column("ADMIN", "fromAdmin", missing: "no"), Column("TEXT", "text")]

struct TicketsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a ticket and its messages, oldest first: Support.GetTicket and ListTicketMessages.",
        discussion: "--json prints {\"ticket\": ..., \"messages\": [...]}.")
    @Argument(help: "The ticket's id.") var ticketId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            let ticket = try await client.object("souk.v1.Support/GetTicket", ["ticketId": ticketId])
            let messages = try await client.all("souk.v1.Support/ListTicketMessages", ["ticketId": ticketId], key: "messages")
            try printThread(["ticket": ticket, "messages": messages], output, header: ticketFields.map { ($0.header, $0.cell(ticket)) }, ticketMessageColumns)
        }
    }
}

struct TicketsCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Open a ticket: Support.CreateTicket (guests give --contact-email and --contact-name).")
    @Option(name: .long, help: "Its subject.") var subject: String
    @Option(name: .long, help: "The first message.") var text: String
    @Option(name: .long, help: "account, order, payment, delivery, laundry-job, rental, complaint or other.") var topic: String = "other"
    @Option(name: .long, help: "What it is about, as TYPE:ID (e.g. order:ORDER_ID; see `souk describe souk.v1.ResourceType`).") var about: String?
    @Option(name: .long, help: "A guest's e-mail for the answer.") var contactEmail: String?
    @Option(name: .long, help: "A guest's name.") var contactName: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output) { client in
            var request: [String: Any] = [
                "requestId": newRequestId(), "subject": subject, "text": text, "topic": enumName(topic, prefix: "TICKET_TOPIC_"),
            ]
            if let about { request["related"] = try resourceRef(about) }
            if let contactEmail { request["contactEmail"] = contactEmail }
            if let contactName { request["contactName"] = contactName }
            try await client.show("souk.v1.Support/CreateTicket", request, output, ticketFields)
        }
    }
}

/// A `souk.v1.ResourceRef` from `TYPE:ID` (`order:0190...`).
func resourceRef(_ text: String) throws -> [String: Any] {
    guard let colon = text.firstIndex(of: ":") else { throw CLIError("expected TYPE:ID (e.g. order:ORDER_ID), got \"\(text)\"") }
    return ["type": enumName(String(text[..<colon]), prefix: "RESOURCE_TYPE_"), "id": String(text[text.index(after: colon)...])]
}

struct TicketsReply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply", abstract: "Add a message to a ticket (its author or an admin): Support.AddTicketMessage.")
    @Argument(help: "The ticket's id.") var ticketId: String
    @Option(name: .long, help: "The message.") var text: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show(
                "souk.v1.Support/AddTicketMessage", ["requestId": newRequestId(), "ticketId": ticketId, "text": text], output,
                ticketMessageColumns.map { Column($0.header.lowercased(), $0.path, missing: $0.missing) })
        }
    }
}

struct TicketsClose: RecordStep {
    static let configuration = CommandConfiguration(commandName: "close", abstract: "Close a ticket (its author or an admin): Support.CloseTicket.")
    static let rpc = "souk.v1.Support/CloseTicket"
    static let idField = "ticketId"
    static var fields: [Column] { ticketFields }
    @Argument(help: "The ticket's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

/// A list of the caller's own items that can leave out those already read.
protocol UnreadList: ListCommand {
    var unread: Bool { get }
}

extension UnreadList {
    var filters: [String: Any] { ["unreadOnly": unread] }
}

// MARK: Messaging

let conversationColumns = [
    Column("ID", "id"), Column("WITH", "participants"), Column("ABOUT", "subject"), Column("UNREAD", "unreadCount", missing: "0"),
    Column("LAST", "lastMessage.text"), Column("UPDATED", "updateTime"),
]
let conversationFields = [
    Column("id", "id"), Column("title", "title"), Column("with", "participants"), Column("about", "subject"), Column("unread", "unreadCount", missing: "0"),
    Column("last sequence", "lastSequence"), Column("created", "createTime"),
]
let messageColumns = [Column("SEQ", "sequence"), Column("TIME", "createTime"), Column("FROM", "senderAccountId"), Column("TEXT", "text")]

struct Messages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Conversations between accounts (souk.v1.Messaging): list, show the history, start one, send, mark read.",
        discussion: """
              CONVERSATION=$(souk messages start ACCOUNT_ID --text 'Is the flat still free?' --json | jq -r .id)
              souk messages send "$CONVERSATION" --text 'Yes, from March' --profile lessor
              souk messages show "$CONVERSATION"
              souk messages read "$CONVERSATION"
            """,
        subcommands: [MessagesList.self, MessagesShow.self, MessagesStart.self, MessagesSend.self, MessagesRead.self],
        defaultSubcommand: MessagesList.self)
}

struct MessagesList: UnreadList {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your conversations, latest first: Messaging.ListConversations.")
    static let rpc = "souk.v1.Messaging/ListConversations"
    static let key = "conversations"
    static var columns: [Column] { conversationColumns }
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Flag(name: .long, help: "Only those with unread messages.") var unread = false
}

struct MessagesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "A conversation and its messages, oldest first: Messaging.GetConversation and ListMessages.",
        discussion: "--json prints {\"conversation\": ..., \"messages\": [...]}.")
    @Argument(help: "The conversation's id.") var conversationId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            let conversation = try await client.object("souk.v1.Messaging/GetConversation", ["conversationId": conversationId])
            let messages = try await client.all("souk.v1.Messaging/ListMessages", ["conversationId": conversationId], key: "messages")
                .sorted { Int(format($0["sequence"])) ?? 0 < Int(format($1["sequence"])) ?? 0 }
            try printThread(
                ["conversation": conversation, "messages": messages], output,
                header: conversationFields.map { ($0.header, $0.cell(conversation)) }, messageColumns)
        }
    }
}

struct MessagesStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a conversation with accounts, with a first message: Messaging.CreateConversation.")
    @Argument(help: "The other participants' account ids.") var participants: [String]
    @Option(name: .long, help: "The first message.") var text: String
    @Option(name: .long, help: "What it is about, as TYPE:ID (e.g. listing:LISTING_ID).") var about: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["requestId": newRequestId(), "participantAccountIds": participants, "firstMessageText": text]
            if let about { request["subject"] = try resourceRef(about) }
            try await client.show("souk.v1.Messaging/CreateConversation", request, output, conversationFields)
        }
    }
}

struct MessagesSend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message: Messaging.SendMessage.")
    @Argument(help: "The conversation's id.") var conversationId: String
    @Option(name: .long, help: "The message.") var text: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show(
                "souk.v1.Messaging/SendMessage", ["requestId": newRequestId(), "conversationId": conversationId, "text": text], output,
                messageColumns.map { Column($0.header.lowercased(), $0.path) })
        }
    }
}

struct MessagesRead: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Mark a conversation read, up to its latest message or --through: Messaging.MarkConversationRead.")
    @Argument(help: "The conversation's id.") var conversationId: String
    @Option(name: .long, help: "Read up to this message sequence (default: all).") var through: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var upTo = through
            if upTo == nil {
                let conversation = try await client.object("souk.v1.Messaging/GetConversation", ["conversationId": conversationId])
                upTo = Int(format(conversation["lastSequence"])) ?? 0
            }
            try await client.show(
                "souk.v1.Messaging/MarkConversationRead", ["conversationId": conversationId, "throughSequence": upTo ?? 0], output,
                [Column("account", "accountId"), Column("read through", "throughSequence"), Column("time", "readTime")])
        }
    }
}

// MARK: Notifications

struct Notifications: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your notifications: list them, or watch everything that happens to your account (souk.v1.Notifications).",
        subcommands: [NotificationsList.self, NotificationsWatch.self], defaultSubcommand: NotificationsList.self)
}

let notificationColumns = [
    Column("SEQ", "sequence"), Column("KIND", "kind"), Column("TITLE", "title"), Column("ABOUT", "subject"), Column("READ", "read", missing: "no"),
    Column("TIME", "createTime"),
]

struct NotificationsList: UnreadList {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your notifications, newest first: Notifications.ListNotifications.")
    static let rpc = "souk.v1.Notifications/ListNotifications"
    static let key = "notifications"
    static var columns: [Column] { notificationColumns }
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Flag(name: .long, help: "Only unread ones.") var unread = false
}

struct NotificationsWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow your account: notifications, read marks, conversations and tickets as they change (Notifications.WatchAccount).",
        discussion: "Each event is printed as it arrives (--json: one JSON document a line). No deadline unless --deadline.")
    @Option(name: .long, help: "Only events after this sequence (default: from now on).") var after: Int?
    @Option(name: .long, help: "Stop after this many events.") var count: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true, stream: true) { client in
            var request: [String: Any] = [:]
            if let after { request["resumeAfterSequence"] = after }
            try await client.watch("souk.v1.Notifications/WatchAccount", request, output, count: count, [
                Column("SEQ", "sequence"), Column("TIME", "eventTime"), Column("NOTIFICATION", "notification.title"),
                Column("CONVERSATION", "conversation.lastMessage.text"), Column("TICKET", "ticket.subject"), Column("READ", "read"),
            ])
        }
    }
}
