import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Notifications`: the caller's stored notifications, read marks and their live stream,
/// with the settings and devices of `PushSettingsService` and the push adapter's outbox
/// (`PushAdapterService`).
struct NotificationsService {
    let notifications: Notifications
    var store: Store { notifications.store }
    var push: PushSettingsService { PushSettingsService(store: store) }
    var adapter: PushAdapterService { PushAdapterService(store: store) }

    var declaration: SoukV1Services.Notifications {
        SoukV1Services.Notifications(
            listNotifications: .handler(list),
            markNotificationsRead: .handler(markRead),
            watchAccount: .handler(watch),
            getNotificationSettings: .handler(push.getSettings),
            updateNotificationSettings: .handler(push.updateSettings),
            registerDevice: .handler(push.registerDevice),
            unregisterDevice: .handler(push.unregisterDevice),
            listDevices: .handler(push.listDevices),
            listPushOutbox: .handler(adapter.list),
            completePush: .handler(adapter.complete))
    }

    /// Newest first, with the badge count and the stream position to watch from.
    private func list(_ request: SoukV1.ListNotificationsRequest, _ call: SoukCall) async throws -> SoukV1.ListNotificationsResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let filters = "unread=\(request.unreadOnly)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let index = request.unreadOnly ? NotificationTable.unreadByAccount : NotificationTable.byAccount
        let stream = AccountFeed.stream(caller.accountID.description)
        let last = try store.lastSequence(of: stream)
        let result = try store.list(
            NotificationTable.table, index,
            IndexRange.starting(with: [.string(marketplaceID.description), .string(caller.accountID.description)]),
            direction: .descending, page: page)
        var response = SoukV1.ListNotificationsResponse()
        response.notifications = result.items.map(NotificationProjection.notification)
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        response.unreadCount = try store.get(UnreadCountTable.table, caller.accountID)?.value.count ?? 0
        response.lastSequence = Int64(last)
        return response
    }

    /// Marks the named (or all) unread notifications of the caller read, and tells the caller's
    /// other devices through the stream.
    private func markRead(_ request: SoukV1.MarkNotificationsReadRequest, _ call: SoukCall) async throws -> SoukV1.MarkNotificationsReadResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard request.all || !request.notificationIDs.isEmpty else {
            throw RPCError.invalidField("notification_ids", "name at least one notification, or set all")
        }
        let named = try request.notificationIDs.enumerated().map { try RequestFields.id($1, field: "notification_ids[\($0)]") }
        let account = caller.accountID.description
        let market = marketplaceID.description
        return try await store.write { transaction in
            var marked: [String] = []
            func mark(_ record: StoredRecord<NotificationRecord>) throws {
                guard !record.value.subject.read else { return }
                try transaction.updateMaintainedFields(NotificationTable.table, record.id) {
                    $0.subject.read = true
                    $0.subject.readTime = Timestamp(transaction.now)
                }
                marked.append(record.id.description)
            }
            if request.all {
                // Each batch leaves the unread index as it is marked, so the next one starts after it.
                while true {
                    let batch = try transaction.list(
                        NotificationTable.table, NotificationTable.unreadByAccount, IndexRange.starting(with: [.string(market), .string(account)]),
                        limit: 100)
                    if batch.isEmpty { break }
                    for record in batch { try mark(record) }
                }
            } else {
                for id in named {
                    guard let record = try transaction.get(NotificationTable.table, id), record.value.marketplaceID == market,
                          record.value.subject.accountID == account
                    else { throw RPCError.notFound("notification", id.description) }
                    try mark(record)
                }
            }
            var unread = try transaction.get(UnreadCountTable.table, caller.accountID)?.value.count ?? 0
            if !marked.isEmpty {
                unread = try UnreadCountTable.add(-Int64(marked.count), to: caller.accountID, transaction: transaction)
                try AccountFeed.append(.read(SoukV1.NotificationsRead(notificationIDs: marked)), to: account, transaction: transaction)
            }
            return SoukV1.MarkNotificationsReadResponse(markedCount: Int32(marked.count), unreadCount: unread)
        }
    }

    /// Everything addressed to the caller after `resume_after_sequence` (0: from now on). The
    /// response headers go out once the stream follows the account's events, before any event.
    private func watch(_ request: SoukV1.WatchAccountRequest, _ writer: RPCWriter<SoukV1.AccountEvent>, _ call: SoukCall) async throws {
        let caller = try call.requireCaller()
        guard request.resumeAfterSequence >= 0 else { throw RPCError.invalidField("resume_after_sequence", "must not be negative") }
        let stream = AccountFeed.stream(caller.accountID.description)
        let start = request.resumeAfterSequence == 0 ? try store.lastSequence(of: stream) : UInt64(request.resumeAfterSequence)
        // The headers tell the client that whatever commits from here on reaches it (a watch
        // from 0 means from this point). The event is the same for every stream of the account
        // (the stored one with its sequence set): encoded once for all of them.
        try await writer.follow(stream, in: store, after: start, as: Self.event)
    }

    /// The stored account event as a client gets it: with its sequence.
    private static func event(_ stored: StoredEvent) throws -> SoukV1.AccountEvent {
        var event = try SoukV1.AccountEvent(decoding: stored.payload)
        event.sequence = Int64(stored.sequence)
        if case .notification(var notification)? = event.event {
            notification.sequence = Int64(stored.sequence)
            event.event = .notification(notification)
        }
        return event
    }
}
