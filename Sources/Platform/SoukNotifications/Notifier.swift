import SoukAccess
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// One notification as stored: its own record (`souk.store.v1.Notification`, without the id
/// and time, which the envelope holds) and its marketplace. RPCs answer with
/// `NotificationProjection`.
typealias NotificationRecord = MarketRecord<SoukStoreV1.Notification>

/// Notifications per account (platform decision 13). Entries end with the notification's
/// version 7 id, so an account's list is in the order they were written.
enum NotificationTable {
    static let byAccount = Index<NotificationRecord>.nonUnique("notifications.account") {
        [.string($0.marketplaceID), .string($0.subject.accountID)]
    }
    static let unreadByAccount = Index<NotificationRecord>.nonUnique("notifications.unread") {
        $0.subject.read ? nil : [.string($0.marketplaceID), .string($0.subject.accountID)]
    }

    static let table = marketTable("notifications", SoukStoreV1.Notification.self, indexes: [byAccount, unreadByAccount])
}

/// How many notifications of an account are unread, stored under the account's id: the badge
/// count, kept by `Notifier` and the read marks so that reading it never walks the notifications.
struct UnreadCount: Sendable {
    var count: Int64
}

enum UnreadCountTable {
    static let table = Table(
        "notification_unread_counts",
        codec: FieldCodec<UnreadCount>(write: { value, writer in writer.int(value.count) }, read: { reader in UnreadCount(count: try reader.int()) }))

    /// Adds `delta` to the account's count in `transaction`; returns the new count.
    @discardableResult
    static func add(_ delta: Int64, to accountID: RecordID, transaction: Transaction) throws -> Int64 {
        if let current = try transaction.get(table, accountID) {
            return try transaction.updateMaintainedFields(table, accountID) { $0.count = max(0, current.value.count + delta) }.value.count
        }
        return try transaction.insert(table, UnreadCount(count: max(0, delta)), id: accountID).value.count
    }
}

/// Writes notifications in the transaction of the change they tell about, so a change and its
/// notifications commit together. Each is also appended to the account's stream (`AccountFeed`)
/// for `Notifications.WatchAccount`, and, when the account's settings allow it, to the push
/// outbox once per device of the account (`PushOutbox`). Its text is rendered in the
/// recipient's language (the account's locale).
public enum Notifier {
    /// A notification to write: who gets it and what it says (a key with its arguments,
    /// rendered in the recipient's language).
    public struct Note: Sendable {
        public var accountID: String
        public var kind: SoukV1.NotificationKind
        public var text: NotificationText
        public var subject: SoukV1.ResourceRef
        /// When the offer it tells about lapses (`Notification.expire_time`); nil otherwise.
        public var expireTime: StoreTime?

        public init(to accountID: String, kind: SoukV1.NotificationKind, _ text: NotificationText, subject: SoukV1.ResourceRef, expires: StoreTime? = nil) {
            self.accountID = accountID
            self.kind = kind
            self.text = text
            self.subject = subject
            self.expireTime = expires
        }
    }

    /// The push category of a kind (what NotificationSettings.muted_categories switches off).
    static func category(of kind: SoukV1.NotificationKind) -> SoukV1.NotificationCategory {
        kind == .message ? .messages : kind == .announcement ? .announcements : .activity
    }

    /// The language notifications to `accountID` are written in: its locale's, else English.
    static func language(of accountID: String, transaction: Transaction) throws -> ErrorLanguage {
        guard let id = RecordID(accountID) else { return .english }
        return ErrorLanguage(tag: try Identity.locale(of: id, transaction)) ?? .english
    }

    /// Stores each note (once per account: a party named twice is told once) in the recipient's
    /// language, appends it to the account's stream and writes its pushes. Notes to no account
    /// are skipped.
    public static func send(_ notes: [Note], marketplaceID: String, transaction: Transaction) throws {
        var told = Set<String>()
        for note in notes where !note.accountID.isEmpty && told.insert(note.accountID).inserted {
            let (title, body) = note.text.rendered(in: try language(of: note.accountID, transaction: transaction))
            var notification = SoukStoreV1.Notification()
            notification.accountID = note.accountID
            notification.kind = note.kind
            notification.category = category(of: note.kind)
            notification.title = title
            notification.body = body
            notification.subject = note.subject
            notification.expireTime = note.expireTime.map { Timestamp($0) }
            // The stream's event comes first, so the record is stored once, with its sequence.
            let id = RecordID.generate()
            let shown = NotificationProjection.notification(notification, id: id, createdAt: transaction.now)
            notification.sequence = Int64(try AccountFeed.append(.notification(shown), to: note.accountID, transaction: transaction))
            try transaction.insert(NotificationTable.table, NotificationRecord(marketplaceID: marketplaceID, notification), id: id)
            var unread: Int64 = 0
            if let account = RecordID(note.accountID) { unread = try UnreadCountTable.add(1, to: account, transaction: transaction) }
            try PushOutbox.write(notification, id: id, badge: unread, marketplaceID: marketplaceID, transaction: transaction)
        }
    }
}

/// What the account sees of a stored notification: the contract's `Notification`, built field
/// by field (an allow-list: a field added to the stored record reaches no caller until a line
/// here names it).
enum NotificationProjection {
    static func notification(_ record: StoredRecord<NotificationRecord>) -> SoukV1.Notification {
        notification(record.value.subject, id: record.id, createdAt: record.createdAt)
    }

    /// The notification `id`, written at `createdAt` (the stream's event is built before the
    /// record is stored).
    static func notification(_ stored: SoukStoreV1.Notification, id: RecordID, createdAt: StoreTime) -> SoukV1.Notification {
        var shown = SoukV1.Notification()
        shown.id = id.description
        shown.createTime = Timestamp(createdAt)
        shown.accountID = stored.accountID
        shown.kind = stored.kind
        shown.category = stored.category
        shown.title = stored.title
        shown.body = stored.body
        shown.subject = stored.subject
        shown.read = stored.read
        shown.readTime = stored.readTime
        shown.sequence = stored.sequence
        shown.expireTime = stored.expireTime
        return shown
    }
}

/// Each account's live stream (`Notifications.WatchAccount`): everything addressed to the account,
/// appended in the transaction of the change it tells about, so the stream and the stores agree.
/// The one place that names the stream; domains append through `append`.
public enum AccountFeed {
    /// The event stream of one account.
    public static func stream(_ accountID: String) -> String { "account/\(accountID)" }

    /// Appends `event` to the account's stream in `transaction`; returns its sequence.
    @discardableResult
    public static func append(_ event: SoukV1.AccountEvent.Event, to accountID: String, transaction: Transaction) throws -> UInt64 {
        var wrapped = SoukV1.AccountEvent()
        wrapped.eventTime = Timestamp(transaction.now)
        wrapped.event = event
        return try transaction.appendEvent(to: stream(accountID), wrapped.encoded())
    }
}
