import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukStore

/// The messaging platform: conversations between the parties of an order, a delivery, a laundry
/// job, a booking or a listing, and between any account and its marketplace's support (admins);
/// their messages, read marks and unread counters (`ChatWrites`), and typing indicators kept in
/// memory (`TypingIndicators`). The verticals say who the parties of their records are through
/// the `ConversationSubjects` they register in their `init(mounting:)`: messaging never reads
/// their tables.
public final class Messaging: SoukDomain {
    public let store: Store
    /// The kinds of record conversations may be about, registered by the verticals.
    let subjects: ConversationSubjects
    /// Who is typing where, in memory only.
    let typing: TypingIndicators

    public static var tables: [AnyTable] {
        [ConversationTable.table.erased, ChatMessageTable.table.erased, UnreadTotalTable.table.erased]
    }

    public init(store: Store, subjects: ConversationSubjects = ConversationSubjects()) {
        self.store = store
        self.subjects = subjects
        let clock = store.configuration.clock
        typing = TypingIndicators(clock: { clock() })
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, subjects: context.shared { ConversationSubjects() })
    }

    /// Identity for the participants' accounts; the notifications each message sends.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Notifications.self] }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [MessagingService(messaging: self).declaration.rpcService(kit)]
    }
}
