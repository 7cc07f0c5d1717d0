import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukSupport
import SoukTesting
import Testing

/// A support ticket's wait for an answer, kept by the ticket's own moves and read against the
/// marketplace's response target at the harness's manual clock: overdue only once it waited
/// longer than the target, to the microsecond; an answer ends the wait, the author's next
/// message after it starts a new one, a message while waiting does not restart it.
@Suite struct TicketWaitTests {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Notifications.self, Support.self], makeDomains: { identity in
            [Notifications(store: identity.store), Support(store: identity.store, identity: identity)]
        })
    }

    func support<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ token: String) async throws -> Response {
        try await harness.call("souk.v1.Support", method, request, token: token)
    }

    func overdue(_ marketplace: SoukV1.Marketplace, _ admin: String) async throws -> [String] {
        let page: SoukV1.ListTicketsResponse = try await support(
            "ListTickets", SoukV1.ListTicketsRequest(marketplaceID: marketplace.id, overdue: true), admin)
        return page.tickets.map(\.id)
    }

    @Test func aTicketIsOverdueOnlyOnceItWaitedLongerThanTheTarget() async throws {
        var settings = SoukV1.MarketplaceSettings()
        settings.support = SoukV1.SupportSettings(responseTarget: .seconds(60))
        let market = try await harness.marketplace(slug: "dineswift-support", vertical: .foodDelivery, settings: settings)
        let admin = try await harness.adminToken(market, email: "admin@dineswift-support.example")
        let customer = try await harness.token(.customer, in: market)
        let opened: SoukV1.Ticket = try await support("CreateTicket", SoukV1.CreateTicketRequest(
            marketplaceID: market.id, requestID: "t1", subject: "Late order", text: "Where is it?", topic: .order), customer)
        let start = harness.clock.now

        harness.clock.advance(.seconds(60))
        #expect(try await overdue(market, admin).isEmpty, "waiting exactly the target is not overdue")
        let onTime: SoukV1.Ticket = try await support("GetTicket", SoukV1.GetTicketRequest(marketplaceID: market.id, ticketID: opened.id), admin)
        #expect(onTime.waitingSince.map(StoreTime.init) == start && onTime.responseDueTime.map(StoreTime.init) == start.adding(.seconds(60)))
        #expect(!onTime.overdue)

        harness.clock.advance(.microseconds(1))
        #expect(try await overdue(market, admin) == [opened.id])
        let _: SoukV1.TicketMessage = try await support("AddTicketMessage", SoukV1.AddTicketMessageRequest(
            marketplaceID: market.id, requestID: "m1", ticketID: opened.id, text: "Hello?"), customer)
        #expect(try await overdue(market, admin) == [opened.id], "a message while waiting does not restart the wait")

        let _: SoukV1.TicketMessage = try await support("AddTicketMessage", SoukV1.AddTicketMessageRequest(
            marketplaceID: market.id, requestID: "m2", ticketID: opened.id, text: "On its way"), admin)
        #expect(try await overdue(market, admin).isEmpty, "an answer ends the wait")

        harness.clock.advance(.seconds(600))
        let _: SoukV1.TicketMessage = try await support("AddTicketMessage", SoukV1.AddTicketMessageRequest(
            marketplaceID: market.id, requestID: "m3", ticketID: opened.id, text: "Still not here"), customer)
        let reopened: SoukV1.Ticket = try await support("GetTicket", SoukV1.GetTicketRequest(marketplaceID: market.id, ticketID: opened.id), admin)
        #expect(reopened.status == .open && reopened.waitingSince.map(StoreTime.init) == harness.clock.now)
        #expect(try await overdue(market, admin).isEmpty)
        harness.clock.advance(.seconds(61))
        #expect(try await overdue(market, admin) == [opened.id])

        let _: SoukV1.Ticket = try await support("CloseTicket", SoukV1.CloseTicketRequest(marketplaceID: market.id, ticketID: opened.id), customer)
        #expect(try await overdue(market, admin).isEmpty, "a closed ticket waits for nobody")
    }
}
