import Foundation
import Synchronization
@testable import SoukClient
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Testing

@Suite("Streams resumed, creates retried, errors decoded, sessions refreshed", .serialized, .timeLimit(.minutes(2)), .enabled(if: soukServerBinary != nil, "souk-server is not built"))
struct ResilienceTests {
    /// Watches a tank cleaning order through `watcher` while the admin (over its own channel)
    /// approves it, then `breakStream` cuts the watcher's connection, and the order is moved twice
    /// while it is cut: the watch delivers every change once, in order, with no sequence skipped
    /// (a watch restarted from 0 would get only the current state, skipping the first move).
    func watchAcrossABreak(
        server: SoukServerProcess, watcherChannel: GRPCChannel, adminChannel: GRPCChannel, breakStream: () async throws -> Void
    ) async throws {
        let english = try await SoukClient(channel: adminChannel, marketplaceID: try server.login("Aqua Hub", "customer").marketplaceID).catalog.listServices().services
        let cleaning = try #require(english.first { $0.name == "Tank Cleaning" })
        let customer = try await server.session("Aqua Hub", "customer", over: watcherChannel).client
        let admin = try await server.session("Aqua Hub", "admin", over: adminChannel).client
        let windows = try await admin.orders.listServiceWindows(SoukV1.ListServiceWindowsRequest(date: riyadhDay(2))).windows
        let order = try await customer.orders.placeServiceOrder(serviceOrder(cleaning, windows[0].window))

        var events = customer.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)).makeAsyncIterator()
        let first = try #require(try await events.next())
        #expect(first.order?.status == .pending)
        var approved = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: order.id))
        let second = try #require(try await events.next())
        #expect(second.order?.status == .approved && second.sequence > first.sequence)

        try await breakStream()
        // A read is retried while the admin's own connection comes back; the moves below are not.
        _ = try await admin.orders.getOrder(SoukV1.GetOrderRequest(orderID: order.id))
        approved = try await admin.orders.rescheduleOrder(SoukV1.RescheduleOrderRequest(
            orderID: order.id, scheduledWindow: windows[1].window, reason: "moved once", expectedVersion: approved.version))
        _ = try await admin.orders.rescheduleOrder(SoukV1.RescheduleOrderRequest(
            orderID: order.id, scheduledWindow: windows[2].window, reason: "moved twice", expectedVersion: approved.version))

        let third = try #require(try await events.next())
        let fourth = try #require(try await events.next())
        #expect(third.sequence == second.sequence + 1 && fourth.sequence == third.sequence + 1)
        #expect(third.order?.scheduledWindow == windows[1].window)
        #expect(fourth.order?.scheduledWindow == windows[2].window)
    }

    @Test("A Watch stream resumes after its connection is dropped, delivering every event once")
    func watchResumesAfterADroppedConnection() async throws {
        try await withServer { server in
            let proxy = try await DroppingProxy(upstreamPort: server.port)
            let watcherChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: proxy.port))
            let adminChannel = server.channel()
            try await watchAcrossABreak(server: server, watcherChannel: watcherChannel, adminChannel: adminChannel) {
                proxy.dropAll()
            }
            await watcherChannel.close()
            await adminChannel.close()
            await proxy.close()
        }
    }

    @Test("A Watch stream resumes across a server restart on the same data")
    func watchResumesAcrossARestart() async throws {
        try await withServer { server in
            var configuration = GRPCChannel.Configuration()
            configuration.backoff = ConnectionBackoff(initial: .milliseconds(50), maximum: .milliseconds(500))
            let watcherChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port), configuration: configuration)
            let adminChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port), configuration: configuration)
            try await watchAcrossABreak(server: server, watcherChannel: watcherChannel, adminChannel: adminChannel) {
                server.kill()
                try await server.start()
            }
            await watcherChannel.close()
            await adminChannel.close()
        }
    }

    @Test("A checkout whose answer is lost with its connection is retried with its request id: one order, one payment")
    func checkoutRetriedAfterADroppedConnection() async throws {
        try await withServer { server in
            let proxy = try await DroppingProxy(upstreamPort: server.port)
            let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: proxy.port))
            let staff = try await server.session("Chateau Du Nox", "provider", over: channel).client
            let session = try await server.session("Chateau Du Nox", "customer", over: channel)
            let customer = session.client
            let customerID = try #require(await session.account).id
            let wine = try await staff.catalog.createProduct(SoukV1.CreateProductRequest(
                product: SoukV1.Product(name: "Retry Rosé", category: .rose, price: myr(12900), stock: 10, available: true)))
            _ = try await customer.carts.addCartLine(SoukV1.AddCartLineRequest(itemID: wine.id, quantity: 2))
            let paymentsBefore = try await customer.payments.listPayments(SoukV1.ListPaymentsRequest(payerAccountID: customerID)).payments.count

            proxy.armDropAtNextResponse()
            let order = try await customer.orders.checkout(SoukV1.CheckoutRequest(
                address: wineAddress(), addressConfirmed: true, payment: SoukV1.PaymentMethodInput(method: .cardToken("tok_visa"))))
            #expect(proxy.drops == 1, "the first answer was dropped with its connection")

            let orders = try await customer.orders.listOrders(SoukV1.ListOrdersRequest(customerAccountID: customerID)).orders
            #expect(orders.filter { $0.lines.contains { $0.itemID == wine.id } }.map(\.id) == [order.id])
            let payments = try await customer.payments.listPayments(SoukV1.ListPaymentsRequest(payerAccountID: customerID)).payments
            #expect(payments.count == paymentsBefore + 1 && payments.contains { $0.id == order.paymentID })
            #expect(try await staff.catalog.getProduct(SoukV1.GetProductRequest(productID: wine.id)).stock == 8)

            // A change without a request id is not repeated: its lost answer surfaces as UNAVAILABLE.
            proxy.armDropAtNextResponse()
            let lost = await refusal { try await staff.orders.shipOrder(SoukV1.ShipOrderRequest(orderID: order.id, shippingCarrier: "Pos Laju")) }
            #expect(lost?.code == .unavailable && proxy.drops == 2)
            await channel.close()
            await proxy.close()
        }
    }

    @Test("Errors carry the reason, every field violation and the localized message (Arabic by accept-language)")
    func errorsAreDecoded() async throws {
        try await withServer { server in
            let channel = server.channel()
            let marketplaceID = try server.login("Aqua Hub", "customer").marketplaceID
            let guest = SoukClient(channel: channel, marketplaceID: marketplaceID, acceptLanguage: "ar")
            let error = try #require(await refusal {
                try await guest.accounts.signUp(SoukV1.SignUpRequest(email: "not-an-email", password: "short", givenName: "Huda", familyName: "A"))
            })
            #expect(error.code == .invalidArgument && error.reason == .fieldInvalid && error.reasonName == "FIELD_INVALID")
            #expect(Set(error.fieldViolations.map(\.field)).isSuperset(of: ["email", "password"]), "\(error)")
            #expect(error.locale == "ar")
            let message = try #require(error.localizedMessage)
            #expect(message.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) }, "not Arabic: \(message)")

            let english = SoukClient(channel: channel, marketplaceID: marketplaceID, acceptLanguage: "en")
            let unsigned = try #require(await refusal { try await english.carts.getCart() })
            #expect(unsigned.code == .unauthenticated && unsigned.locale == "en" && unsigned.localizedMessage?.isEmpty == false)
            await channel.close()
        }
    }

    @Test("A Watch stream outlives its session's short-lived token: refreshed and resumed, every event once")
    func watchOutlivesItsToken() async throws {
        try await withServer(accessTokenTTL: 2) { server in
            let channel = server.channel()
            // Without the background refresh, so the token does expire under the open stream.
            let session = try await server.session("Aqua Hub", "customer", over: channel, refreshInBackground: false)
            let customer = session.client
            let admin = try await server.session("Aqua Hub", "admin", over: channel).client
            let cleaning = try #require(try await customer.catalog.listServices().services.first { $0.name == "Tank Cleaning" })
            let windows = try await customer.orders.listServiceWindows(SoukV1.ListServiceWindowsRequest(date: riyadhDay(2))).windows
            let order = try await customer.orders.placeServiceOrder(serviceOrder(cleaning, windows[0].window))

            var events = customer.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)).makeAsyncIterator()
            let first = try #require(try await events.next())
            // Past the token's lifetime (no call refreshed it meanwhile): the server ends the stream.
            try await Task.sleep(for: .milliseconds(2500))
            _ = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: order.id))
            let second = try #require(try await events.next())
            #expect(second.sequence == first.sequence + 1 && second.order?.status == .approved)
            // The server ended the stream with TOKEN_EXPIRED; the watch refreshed the token and resumed.
            let rejected = await session.tokens.rejectedTokens
            let refreshes = await session.tokens.refreshes
            #expect(rejected >= 1 && refreshes >= 1)
            await channel.close()
        }
    }

    @Test("A call refreshes its session's short-lived token before it expires, and a refresh survives a lost answer")
    func sessionRefreshes() async throws {
        try await withServer(accessTokenTTL: 2) { server in
            let channel = server.channel()
            // The refresh a call makes itself (the background one is SessionRenewalTests').
            let session = try await server.session("Aqua Hub", "customer", over: channel, refreshInBackground: false)
            let me = try await session.client.accounts.getMe()
            let firstToken = await session.current.accessToken

            // Past the token's lifetime: the next call refreshes first instead of being refused.
            try await Task.sleep(for: .milliseconds(2300))
            #expect(try await session.client.accounts.getMe().id == me.id)
            #expect(await session.current.accessToken != firstToken)
            let refreshes = await session.tokens.refreshes
            let rejected = await session.tokens.rejectedTokens
            #expect(refreshes >= 1 && rejected == 0)

            // The answer of a refresh is lost once: the retry with the same refresh token gets the same pair.
            let lost = LostAnswer()
            await session.tokens.setRefreshHook { answer in try lost.loseFirst(answer) }
            try await session.refresh()
            let kept = await session.current
            #expect(lost.lostTokens == [kept.accessToken], "the retried refresh answered the pair that was lost")
            #expect(try await session.client.accounts.getMe().id == me.id)
            await session.tokens.setRefreshHook(nil)
            try await session.refresh()
            #expect(await session.current.accessToken != kept.accessToken)
            #expect(try await session.client.accounts.getMe().id == me.id)

            // The operator signs in without a marketplace.
            let operatorSession = try await SoukSession.signIn(
                channel: channel, marketplaceID: "", email: SoukServerProcess.operatorEmail, password: SoukServerProcess.operatorPassword)
            #expect(try await operatorSession.client.marketplaces.listMarketplaces().marketplaces.count >= 5)
            await channel.close()
        }
    }
}

/// Drops the first refresh answer it sees, as a lost connection would.
final class LostAnswer: Sendable {
    private let state = Mutex<[String]>([])

    var lostTokens: [String] { state.withLock { $0 } }

    func loseFirst(_ answer: SoukV1.Session) throws {
        let lose = state.withLock { tokens in
            guard tokens.isEmpty else { return false }
            tokens.append(answer.accessToken)
            return true
        }
        if lose { throw SoukError(RPCError(.unavailable, "the connection closed before the call ended")) }
    }
}
