import SoukAccess
import SoukGRPC
import SoukJSON
import SoukKit
import SoukMessages
import SoukStore

/// One push of the platform-wide push outbox (`souk.store.v1.PushMessage`) with the marketplace
/// of its notification. RPCs answer with `PushOutbox.message`.
typealias PushRecord = MarketRecord<SoukStoreV1.PushMessage>

/// The push outbox of every marketplace: one record per notification and device, written by
/// `Notifier.send` in the notification's transaction, drained by the push adapter
/// (`Notifications.ListPushOutbox`, `CompletePush`). Listed by status (PENDING first), each status
/// oldest first (the entries end with the push's version 7 id).
enum PushOutbox {
    static let byStatus = Index<PushRecord>.nonUnique("push_outbox.status") { [.enumCase($0.subject.status)] }
    /// The pending pushes of a device, withdrawn when the device goes (or moves to another account).
    static let pendingByDevice = Index<PushRecord>.nonUnique("push_outbox.pending_device") {
        $0.subject.status == .pending ? [.string($0.subject.deviceID)] : nil
    }
    static let table = marketTable("push_outbox", SoukStoreV1.PushMessage.self, indexes: [byStatus, pendingByDevice])

    /// Devices of one account taken per notification (more are not pushed to).
    static let maxDevices = 20
    /// What a failed push reports when its device was unregistered before it was sent.
    static let deviceGone = "device unregistered"

    /// Writes the pushes of `notification` (stored as `id`): one per device of its account in
    /// `marketplaceID`, unless the account's settings mute it. `badge` is the account's unread
    /// count with it.
    static func write(
        _ notification: SoukStoreV1.Notification, id: RecordID, badge: Int64, marketplaceID: String, transaction: Transaction
    ) throws {
        let key: [KeyPart] = [.string(marketplaceID), .string(notification.accountID)]
        if let settings = try transaction.get(SettingsTable.table, unique: SettingsTable.byAccount, key)?.value.subject {
            guard !settings.pushDisabled, !settings.mutedKinds.contains(notification.kind),
                  !settings.mutedCategories.contains(notification.category)
            else { return }
        }
        let devices = try transaction.list(DeviceTable.table, DeviceTable.byAccount, .starting(with: key), limit: maxDevices)
        guard !devices.isEmpty else { return }
        let collapseID = PushPayload.collapseID(notification.subject, notificationID: id)
        for device in devices {
            let content = PushPayload.make(
                platform: device.value.subject.platform, title: notification.title, body: notification.body,
                fields: PushPayload.Fields(
                    notificationID: id.description, kind: notification.kind, subject: notification.subject ?? SoukV1.ResourceRef(),
                    collapseID: collapseID, badge: badge,
                    expireUnixSeconds: notification.expireTime.map { StoreTime($0).microsecondsSinceEpoch / 1_000_000 }))
            var push = SoukStoreV1.PushMessage()
            push.notificationID = id.description
            push.accountID = notification.accountID
            push.deviceID = device.id.description
            push.platform = device.value.subject.platform
            push.token = device.value.subject.token
            push.appID = device.value.subject.appID
            push.title = content.title
            push.body = content.body
            push.subject = notification.subject
            push.kind = notification.kind
            push.collapseID = collapseID
            push.payload = content.payload
            push.expireTime = notification.expireTime
            push.status = .pending
            try transaction.insert(table, PushRecord(marketplaceID: marketplaceID, push))
        }
    }

    /// Marks the pending pushes of device `deviceID` FAILED: it was unregistered, or its token
    /// moved to another account, before they were sent.
    static func withdrawPending(deviceID: RecordID, transaction: Transaction) throws {
        while true {
            let batch = try transaction.list(table, pendingByDevice, .starting(with: [.string(deviceID.description)]), limit: 100)
            if batch.isEmpty { return }
            for push in batch {
                try transaction.update(table, push.id) {
                    $0.subject.status = .failed
                    $0.subject.lastError = deviceGone
                }
            }
        }
    }

    /// What the push adapter sees of a push: the contract's `PushMessage`, field by field.
    static func message(_ record: StoredRecord<PushRecord>) -> SoukV1.PushMessage {
        let push = record.value.subject
        var shown = SoukV1.PushMessage()
        shown.id = record.id.description
        shown.notificationID = push.notificationID
        shown.accountID = push.accountID
        shown.deviceID = push.deviceID
        shown.platform = push.platform
        shown.token = push.token
        shown.title = push.title
        shown.body = push.body
        shown.subject = push.subject
        shown.status = push.status
        shown.attempts = push.attempts
        shown.lastError = push.lastError
        shown.createTime = Timestamp(record.createdAt)
        shown.sendTime = push.sendTime
        shown.version = Int64(record.version)
        shown.marketplaceID = record.value.marketplaceID
        shown.appID = push.appID
        shown.collapseID = push.collapseID
        shown.payload = push.payload
        shown.kind = push.kind
        shown.expireTime = push.expireTime
        return shown
    }
}

/// The JSON a push sends, within each service's limit: APNs takes 4096 bytes of payload, FCM
/// 4000 bytes of data (kept under its 4 KB). A body that does not fit is cut at a character
/// (grapheme) boundary, so no UTF-8 sequence and no combining mark is split, and ends with "…".
public enum PushPayload {
    public static let apnsLimit = 4096
    public static let fcmLimit = 4000
    /// Titles are short; a longer one (a restaurant's long name) is cut to this many characters.
    public static let maxTitleCharacters = 200
    /// APNs apns-collapse-id holds at most 64 bytes.
    public static let maxCollapseIDBytes = 64

    /// What a payload carries besides the title and body.
    public struct Fields: Sendable {
        public var notificationID: String
        public var kind: SoukV1.NotificationKind
        public var subject: SoukV1.ResourceRef
        public var collapseID: String
        public var badge: Int64
        public var expireUnixSeconds: Int64?

        public init(
            notificationID: String, kind: SoukV1.NotificationKind, subject: SoukV1.ResourceRef, collapseID: String, badge: Int64,
            expireUnixSeconds: Int64? = nil
        ) {
            self.notificationID = notificationID
            self.kind = kind
            self.subject = subject
            self.collapseID = collapseID
            self.badge = badge
            self.expireUnixSeconds = expireUnixSeconds
        }
    }

    /// The collapse id of every push about `subject` ("order-<id>"), so the newest update of one
    /// order replaces the older ones on the phone; the notification's own id when it has none.
    public static func collapseID(_ subject: SoukV1.ResourceRef?, notificationID: RecordID) -> String {
        guard let subject, !subject.id.isEmpty else { return "notification-\(notificationID)" }
        var type = subject.type.protoName
        if type.hasPrefix("RESOURCE_TYPE_") { type.removeFirst("RESOURCE_TYPE_".count) }
        let id = "\(type.lowercased())-\(subject.id)"
        return String(decoding: id.utf8.prefix(maxCollapseIDBytes), as: UTF8.self)
    }

    public static func limit(of platform: SoukV1.DevicePlatform) -> Int {
        platform == .fcm ? fcmLimit : apnsLimit
    }

    /// The payload for `platform`, with the title and body it carries (cut to fit).
    public static func make(platform: SoukV1.DevicePlatform, title: String, body: String, fields: Fields)
        -> (payload: String, title: String, body: String)
    {
        let title = title.count > maxTitleCharacters ? String(title.prefix(maxTitleCharacters - 1)) + "…" : title
        let limit = limit(of: platform)
        let full = json(platform, title, body, fields)
        if full.utf8.count <= limit { return (full, title, body) }
        // The longest prefix of the body (in characters) whose payload fits.
        let characters = Array(body)
        var (fits, fails) = (0, characters.count)
        while fails - fits > 1 {
            let middle = (fits + fails) / 2
            if json(platform, title, String(characters[..<middle]) + "…", fields).utf8.count <= limit { fits = middle } else { fails = middle }
        }
        let cut = String(characters[..<fits]) + "…"
        return (json(platform, title, cut, fields), title, cut)
    }

    private static func json(_ platform: SoukV1.DevicePlatform, _ title: String, _ body: String, _ fields: Fields) -> String {
        let subjectType = fields.subject.type.protoName
        if platform == .fcm {
            // FCM's data map: string values only.
            var pairs: [(String, String)] = [
                ("title", title), ("body", body), ("notification_id", fields.notificationID), ("kind", fields.kind.protoName),
                ("subject_type", subjectType), ("subject_id", fields.subject.id), ("collapse_id", fields.collapseID),
                ("badge", String(fields.badge)),
            ]
            if let expire = fields.expireUnixSeconds { pairs.append(("expire_unix", String(expire))) }
            return "{" + pairs.map { "\(quoted($0.0)):\(quoted($0.1))" }.joined(separator: ",") + "}"
        }
        var text = "{\"aps\":{\"alert\":{\"title\":\(quoted(title)),\"body\":\(quoted(body))},\"badge\":\(fields.badge),"
        text += "\"sound\":\"default\",\"thread-id\":\(quoted(fields.collapseID))},"
        text += "\"notification_id\":\(quoted(fields.notificationID)),\"kind\":\(quoted(fields.kind.protoName)),"
        text += "\"subject_type\":\(quoted(subjectType)),\"subject_id\":\(quoted(fields.subject.id))"
        if let expire = fields.expireUnixSeconds { text += ",\"expire_unix\":\(expire)" }
        return text + "}"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, everything
    /// else as its UTF-8 (as APNs and FCM count it).
    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
