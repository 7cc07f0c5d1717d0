import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The content's two scheduled jobs. Neither decides what anyone sees: every read compares the
/// item's times with now, so a scheduled item is visible at its publish time without a write.
///
/// - The expiry sweep takes items whose expire time passed out of the live index (a maintained
///   field, `expiry_swept`: the version admins edit does not change), so reads of what is
///   published never walk through what expired long ago.
/// - The audience fan-out tells the audience of each announcement and policy once it is
///   published: a page of accounts per transaction (never every account in one), with the
///   position kept on the item (`notify_cursor`), so a restart goes on where it stopped and a
///   page is never told twice.
struct ContentBackground: Sendable {
    let store: Store
    /// Accounts told per transaction.
    var accountsPerTransaction = 100

    var now: StoreTime { store.configuration.clock() }

    /// Marks every item whose expire time has passed as swept; returns how many.
    func sweepExpired() async throws -> Int {
        var swept = 0
        while true {
            let now = self.now
            let due = try store.list(
                ContentTable.table, ContentTable.toSweep, .prefix([], before: [.time(now.adding(.microseconds(1)))]), page: PageRequest(size: 100))
            if due.items.isEmpty { return swept }
            var sweptNow = 0
            for record in due.items {
                sweptNow += try await store.write { transaction in
                    guard let current = try transaction.get(ContentTable.table, record.id), !current.value.subject.expirySwept,
                          let expire = current.value.subject.expireTime, StoreTime(expire) <= transaction.now
                    else { return 0 }
                    try transaction.updateMaintainedFields(ContentTable.table, read: current) { $0.subject.expirySwept = true }
                    return 1
                }
            }
            swept += sweptNow
            // Each item swept leaves the range; one not swept changed meanwhile: look again later.
            if due.nextPageToken == nil || sweptNow == 0 { return swept }
        }
    }

    /// Tells the audience of every published announcement and policy not told yet, a page of
    /// accounts per transaction; returns how many accounts were told.
    func notifyAudiences() async throws -> Int {
        var told = 0
        var done = Set<RecordID>()
        while true {
            let now = self.now
            let due = try store.list(
                ContentTable.table, ContentTable.toNotify, .prefix([], before: [.time(now.adding(.microseconds(1)))]), page: PageRequest(size: 20))
            let ids = due.items.map(\.id).filter { !done.contains($0) }
            if ids.isEmpty { return told }
            for id in ids {
                told += try await notifyAudience(of: id)
                done.insert(id)
            }
        }
    }

    /// Tells the audience of item `id`, a page of accounts per transaction, until every page is told.
    func notifyAudience(of id: RecordID) async throws -> Int {
        var told = 0
        while true {
            let step = try await notifyPage(of: id)
            told += step.told
            if step.finished { return told }
        }
    }

    /// Tells the next page of the audience of item `id` in one transaction, and keeps where it
    /// stopped on the item; `finished` when nothing is left to tell (or nothing to tell now).
    func notifyPage(of id: RecordID) async throws -> (told: Int, finished: Bool) {
        guard let record = try store.get(ContentTable.table, id), !record.value.subject.audienceNotified else { return (0, true) }
        let cursor = record.value.subject.notifyCursor
        let page = try IdentityRecords.accountPage(
            marketplaceID: record.value.marketplaceID, token: cursor.isEmpty ? nil : cursor, size: accountsPerTransaction, store: store)
        return try await store.write { transaction -> (told: Int, finished: Bool) in
            // Another page was told meanwhile: this one is not told twice.
            guard let current = try transaction.get(ContentTable.table, id), !current.value.subject.audienceNotified,
                  current.value.subject.notifyCursor == cursor
            else { return (0, true) }
            let item = current.value.subject
            let state = ContentStates.state(item, at: transaction.now)
            // An item that expired before its turn is never told; one archived or moved back to
            // a draft or a later time is told once it is published again.
            if state == .expired {
                try transaction.updateMaintainedFields(ContentTable.table, read: current) { $0.subject.audienceNotified = true }
                return (0, true)
            }
            guard state == .published else { return (0, true) }
            let notes = page.accounts.filter { Self.isAudience($0, of: item) }.map { account in
                Notifier.Note(
                    to: account.id, kind: .announcement, .published(title: item.title, summary: Self.summary(item.body)),
                    subject: SoukV1.ResourceRef(type: item.kind == .policy ? .policy : .announcement, id: id.description))
            }
            try Notifier.send(notes, marketplaceID: current.value.marketplaceID, transaction: transaction)
            try transaction.updateMaintainedFields(ContentTable.table, read: current) { record in
                record.subject.notifyCursor = page.nextToken ?? ""
                record.subject.audienceNotified = page.nextToken == nil
            }
            return (notes.count, page.nextToken == nil)
        }
    }

    /// An active account holding an active role the item is aimed at (any role when it is aimed at everyone).
    static func isAudience(_ account: SoukV1.Account, of item: SoukStoreV1.ContentItem) -> Bool {
        guard account.state == .active else { return false }
        let active = account.roles.filter { $0.status == .active }.map(\.role)
        if item.audienceRoles.isEmpty { return !active.isEmpty }
        return active.contains(where: item.audienceRoles.contains)
    }

    /// The start of a body, for a notification (the item itself has the whole text).
    static func summary(_ body: String) -> String {
        body.count <= 280 ? body : String(body.prefix(279)) + "…"
    }
}
