import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import Testing
@testable import SoukContent

/// The content module over a store with a hand-moved clock: the exact publish and expiry
/// boundaries (publish_time <= now < expire_time), the expiry sweep and the audience fan-out a
/// page of accounts per transaction.
@Suite struct ContentTests {
    let harness: DomainHarness
    let content: Content

    init() throws {
        var made: Content?
        harness = try DomainHarness(domainTypes: [Notifications.self, Content.self], makeDomains: { identity in
            let content = Content(store: identity.store)
            made = content
            return [Notifications(store: identity.store), content]
        })
        content = made!
    }

    var now: StoreTime { harness.clock.now }

    func admin<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String?) async throws -> Response {
        try await harness.call("souk.v1.Admin", method, request, token: token)
    }

    func announcements(_ market: SoukV1.Marketplace, token: String?) async throws -> [String] {
        let list: SoukV1.ListAnnouncementsResponse = try await admin(
            "ListAnnouncements", SoukV1.ListAnnouncementsRequest(marketplaceID: market.id), token: token)
        return list.announcements.map(\.id)
    }

    @Test func anItemIsVisibleFromItsPublishTimeUntilJustBeforeItsExpireTime() async throws {
        let market = try await harness.marketplace(slug: "dine", vertical: .foodDelivery)
        let adminToken = try await harness.adminToken(market, email: "admin@dine.example")
        let customer = try await harness.token(.customer, in: market)
        let publish = now.adding(.seconds(10))
        let expire = now.adding(.seconds(20))
        let created: SoukV1.Announcement = try await admin("CreateAnnouncement", SoukV1.CreateAnnouncementRequest(
            marketplaceID: market.id, requestID: "a1",
            announcement: .init(title: "Soon", body: "Body", audienceRoles: [.customer], publishTime: Timestamp(publish), expireTime: Timestamp(expire))),
            token: adminToken)
        #expect(created.state == .scheduled)
        #expect(try await announcements(market, token: customer).isEmpty)

        harness.clock.advance(.seconds(10) - .microseconds(1))
        #expect(try await announcements(market, token: customer).isEmpty, "one microsecond before its publish time")
        harness.clock.advance(.microseconds(1))
        #expect(try await announcements(market, token: customer) == [created.id], "at its publish time, without a write")
        let read: SoukV1.Announcement = try await admin(
            "GetAnnouncement", SoukV1.GetAnnouncementRequest(marketplaceID: market.id, announcementID: created.id), token: customer)
        #expect(read.state == .published && read.version == created.version)

        harness.clock.advance(.seconds(10) - .microseconds(1))
        #expect(try await announcements(market, token: customer) == [created.id], "one microsecond before its expire time")
        harness.clock.advance(.microseconds(1))
        #expect(try await announcements(market, token: customer).isEmpty, "at its expire time")
        let gone = await harness.error(
            "souk.v1.Admin", "GetAnnouncement", SoukV1.GetAnnouncementRequest(marketplaceID: market.id, announcementID: created.id),
            token: customer, as: SoukV1.Announcement.self)
        #expect(gone?.code == .notFound)
    }

    @Test func theSweepTakesExpiredItemsOutOfTheLiveIndexAndAChangedWindowBringsThemBack() async throws {
        let market = try await harness.marketplace(slug: "dine", vertical: .foodDelivery)
        let adminToken = try await harness.adminToken(market, email: "admin@dine.example")
        let customer = try await harness.token(.customer, in: market)
        let created: SoukV1.Policy = try await admin("CreatePolicy", SoukV1.CreatePolicyRequest(
            marketplaceID: market.id, requestID: "p1",
            policy: .init(kind: .faq, title: "FAQ", body: "Q and A", effectiveTime: Timestamp(now), expireTime: Timestamp(now.adding(.seconds(5))))),
            token: adminToken)
        func liveEntries() throws -> Int {
            try harness.store.list(
                ContentTable.table, ContentTable.live, .starting(with: [.string(market.id), .enumCase(SoukStoreV1.ContentKind.policy), .string("")])
            ).items.count
        }
        #expect(try liveEntries() == 1)
        #expect(try await content.sweepExpired() == 0, "nothing expired yet")
        harness.clock.advance(.seconds(5))
        #expect(try await content.sweepExpired() == 1)
        #expect(try liveEntries() == 0)
        let swept = try harness.store.get(ContentTable.table, RecordID(created.id)!)
        #expect(swept?.version == UInt64(created.version), "the sweep keeps the version admins edit")

        let extended: SoukV1.Policy = try await admin("UpdatePolicy", SoukV1.UpdatePolicyRequest(
            marketplaceID: market.id, policy: .init(id: created.id, expireTime: Timestamp(now.adding(.seconds(60)))),
            updateMask: .init(paths: ["expire_time"]), expectedVersion: created.version), token: adminToken)
        #expect(extended.state == .published && extended.version == created.version + 1)
        #expect(try liveEntries() == 1)
        #expect(try await content.sweepExpired() == 0)
        let listed: SoukV1.ListPoliciesResponse = try await admin(
            "ListPolicies", SoukV1.ListPoliciesRequest(marketplaceID: market.id, kind: .faq), token: customer)
        #expect(listed.policies.map(\.id) == [created.id])
    }

    @Test func theAudienceIsToldAPageOfAccountsPerTransactionAndOnlyOnce() async throws {
        let market = try await harness.marketplace(slug: "dine", vertical: .foodDelivery)
        let adminToken = try await harness.adminToken(market, email: "admin@dine.example")
        var couriers: [String] = []
        for n in 0..<5 {
            couriers.append(try await harness.token(.courier, in: market, email: "courier\(n)@dine.example"))
        }
        let customer = try await harness.token(.customer, in: market)
        let created: SoukV1.Announcement = try await admin("CreateAnnouncement", SoukV1.CreateAnnouncementRequest(
            marketplaceID: market.id, requestID: "a1",
            announcement: .init(title: "New zone", body: "North district", audienceRoles: [.courier], publishTime: Timestamp(now))),
            token: adminToken)
        let id = RecordID(created.id)!
        let fanOut = ContentBackground(store: harness.store, accountsPerTransaction: 2)

        // One page: two accounts told (or none when the page holds no courier), the position kept.
        let first = try await fanOut.notifyPage(of: id)
        #expect(first.finished == false)
        #expect(try harness.store.get(ContentTable.table, id)?.value.subject.notifyCursor.isEmpty == false)
        #expect(try await fanOut.notifyAudiences() + first.told == 5)
        #expect(try await fanOut.notifyAudiences() == 0, "told once")
        let record = try harness.store.get(ContentTable.table, id)
        #expect(record?.value.subject.audienceNotified == true && record?.version == UInt64(created.version))

        for token in couriers {
            let inbox: SoukV1.ListNotificationsResponse = try await harness.call(
                "souk.v1.Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: market.id), token: token)
            #expect(inbox.notifications.map(\.subject?.id) == [created.id])
            #expect(inbox.notifications.first?.kind == .announcement)
        }
        let customerInbox: SoukV1.ListNotificationsResponse = try await harness.call(
            "souk.v1.Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: market.id), token: customer)
        #expect(customerInbox.notifications.isEmpty)
    }

    @Test func anItemArchivedOrExpiredBeforeItsTurnIsNeverTold() async throws {
        let market = try await harness.marketplace(slug: "dine", vertical: .foodDelivery)
        let adminToken = try await harness.adminToken(market, email: "admin@dine.example")
        let customer = try await harness.token(.customer, in: market)
        let expiring: SoukV1.Announcement = try await admin("CreateAnnouncement", SoukV1.CreateAnnouncementRequest(
            marketplaceID: market.id, requestID: "a1",
            announcement: .init(title: "Brief", body: "Body", publishTime: Timestamp(now), expireTime: Timestamp(now.adding(.seconds(1))))),
            token: adminToken)
        let archived: SoukV1.Announcement = try await admin("CreateAnnouncement", SoukV1.CreateAnnouncementRequest(
            marketplaceID: market.id, requestID: "a2", announcement: .init(title: "Withdrawn", body: "Body", publishTime: Timestamp(now))),
            token: adminToken)
        let _: SoukV1.Announcement = try await admin(
            "ArchiveAnnouncement", SoukV1.ArchiveAnnouncementRequest(marketplaceID: market.id, announcementID: archived.id), token: adminToken)
        harness.clock.advance(.seconds(1))
        #expect(try await content.notifyAudiences() == 0)
        #expect(try harness.store.get(ContentTable.table, RecordID(expiring.id)!)?.value.subject.audienceNotified == true)
        let inbox: SoukV1.ListNotificationsResponse = try await harness.call(
            "souk.v1.Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: market.id), token: customer)
        #expect(inbox.notifications.isEmpty)
    }
}
