import Foundation
@testable import SoukClient
import SoukGRPC
import SoukGRPCClient
import SoukHTTP2
import SoukMessages
import Testing

/// Waits until `condition` holds, checking every 50 ms (the suite's time limit ends a wait that never does).
func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    while try await !condition() {
        try await Task.sleep(for: .milliseconds(50))
    }
}

@Suite("Sessions renewed in the background; Watch streams past a slow reader and past retention", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: soukServerBinary != nil, "souk-server is not built"))
struct SessionRenewalTests {
    /// A tank cleaning order of the Aqua Hub customer `customer` and the day's windows.
    func cleaningOrder(_ customer: SoukClient) async throws -> (SoukV1.Order, [SoukV1.ServiceWindow]) {
        let cleaning = try #require(try await customer.catalog.listServices().services.first { $0.name == "Tank Cleaning" })
        let windows = try await customer.orders.listServiceWindows(SoukV1.ListServiceWindowsRequest(date: riyadhDay(2))).windows
        return (try await customer.orders.placeServiceOrder(serviceOrder(cleaning, windows[0].window)), windows)
    }

    // The renewing task runs on the shared cooperative pool, which the whole suite running at once
    // on two cores can hold up for seconds: this test checks what the client sees (no call fails,
    // the Watch delivers each event once, the refreshes happen in the background), not that no
    // stream was ever resumed. Run alone, none is (`watchResumes` stays empty).
    @Test("A session kept across three lifetimes of 5-second tokens refreshes in the background: no call fails, its Watch delivers each event once")
    func backgroundRefresh() async throws {
        try await withServer(accessTokenTTL: 5) { server in
            let channel = server.channel()
            let session = try await server.session("Aqua Hub", "customer", over: channel)
            let customer = session.client
            let admin = try await server.session("Aqua Hub", "admin", over: channel).client
            let (order, _) = try await cleaningOrder(customer)
            let me = try await customer.accounts.getMe()

            // The iterator and its stream end with this scope.
            do {
                var events = customer.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)).makeAsyncIterator()
                let first = try #require(try await events.next())
                let opened = Date()
                // Calls go on meanwhile; each one is answered (a call never waits for nor fails on a token).
                try await eventually("three token lifetimes and four refreshes") {
                    let answered = try await customer.accounts.getMe()
                    #expect(answered.id == me.id)
                    let refreshes = await session.tokens.backgroundRefreshes
                    return refreshes >= 4 && Date().timeIntervalSince(opened) > 3 * 5
                }
                _ = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: order.id))
                let second = try #require(try await events.next())
                #expect(second.sequence == first.sequence + 1 && second.order?.status == .approved)
                // Any resume was for an expired token, never for a lost or repeated event.
                #expect(customer.transport.watchResumes.keys.allSatisfy { $0 == "TOKEN_EXPIRED" }, "\(customer.transport.watchResumes)")
            }

            // Closed, the session refreshes no more; a call still renews the token it needs.
            await session.close()
            let stopped = await session.tokens.backgroundRefreshes
            let token = await session.current.accessToken
            try await eventually("the token expired") {
                let expiry = try #require(await session.current.accessTokenExpireTime)
                return Date().timeIntervalSince1970 > Double(expiry.seconds) + 0.5
            }
            #expect(await session.tokens.backgroundRefreshes == stopped)
            #expect(await session.current.accessToken == token)
            #expect(try await customer.accounts.getMe().id == me.id)
            #expect(await session.current.accessToken != token)
            await channel.close()
        }
    }

    @Test("A background refresh whose answer is lost is repeated with the same refresh token")
    func backgroundRefreshSurvivesALostAnswer() async throws {
        try await withServer(accessTokenTTL: 2) { server in
            let channel = server.channel()
            let session = try await server.session("Aqua Hub", "customer", over: channel)
            let lost = LostAnswer()
            await session.tokens.setRefreshHook { answer in try lost.loseFirst(answer) }
            try await eventually("a background refresh") { await session.tokens.backgroundRefreshes >= 1 }
            // The renewed pair is the one whose answer was lost: the retry got it again.
            #expect(lost.lostTokens == [await session.current.accessToken])
            #expect(try await session.client.accounts.getMe().email == (try server.login("Aqua Hub", "customer").email))
            await session.tokens.setRefreshHook(nil)
            try await eventually("another background refresh") { await session.tokens.backgroundRefreshes >= 2 }
            #expect(await session.tokens.rejectedTokens == 0)
            await session.close()
            await channel.close()
        }
    }

    @Test("Closing a session waits for the background refresh in flight: none lands after the close")
    func closeWaitsForTheRefreshInFlight() async throws {
        try await withServer(accessTokenTTL: 2) { server in
            let channel = server.channel()
            let session = try await server.session("Aqua Hub", "customer", over: channel)
            let gate = HeldAnswer()
            await session.tokens.setRefreshHook { _ in gate.holdFirst() }
            try await eventually("a background refresh waiting for its answer") { gate.isHolding }
            // Closed while the refresh waits; its answer is let through only after that.
            let closed = Task { await session.close(); return await session.tokens.backgroundRefreshes }
            try await Task.sleep(for: .milliseconds(200))
            gate.release()
            let atClose = await closed.value
            #expect(atClose == 1)
            #expect(await session.tokens.backgroundRefreshes == atClose)
            await channel.close()
        }
    }

    @Test("A call whose token refreshes replaced on the way (refused as unknown) is made again with the new one")
    func callWithAReplacedToken() async throws {
        try await withServer { server in
            let channel = server.channel()
            let session = try await server.session("Aqua Hub", "customer", over: channel, refreshInBackground: false)
            let replaced = await session.current.accessToken
            // Two refreshes: the server keeps answering the token the latest one replaced, not older ones.
            try await session.refresh()
            try await session.refresh()
            // The first token asked for is the one the refresh replaced, as for a call sent just before it.
            let stale = StaleFirst(tokens: session.tokens, stale: replaced)
            let client = SoukClient(channel: channel, marketplaceID: try server.login("Aqua Hub", "customer").marketplaceID, credentials: stale)
            #expect(try await client.accounts.getMe().email == (try server.login("Aqua Hub", "customer").email))
            // Asked three times: the stale token sent, the check that the session has another, the retry's.
            #expect(stale.asked == 3)
            await channel.close()
        }
    }

    @Test("A released session's renewing task ends and lets its tokens go")
    func releasedSessionStopsRenewing() async throws {
        try await withServer(accessTokenTTL: 2) { server in
            let channel = server.channel()
            let released = WeakTokens()
            do {
                let session = try await server.session("Aqua Hub", "customer", over: channel)
                released.value = session.tokens
                try await eventually("a background refresh") { await session.tokens.backgroundRefreshes >= 1 }
            }
            try await eventually("the tokens released") { released.value == nil }
            await channel.close()
        }
    }

    @Test("A Watch ended with READER_TOO_SLOW resumes after its last event: none lost, none repeated")
    func watchResumesAfterReaderTooSlow() async throws {
        // The server queues at most 768 bytes for a stream; the client's stream window is 1 KiB, and
        // a proxy stops passing the server's bytes on while the order changes, as a reader that reads nothing.
        try await withServer(arguments: ["--max-stream-queue-bytes", "768"]) { server in
            let proxy = try await DroppingProxy(upstreamPort: server.port)
            var configuration = GRPCChannel.Configuration()
            configuration.http2.initialStreamWindowSize = 1024
            let watcherChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: proxy.port), configuration: configuration)
            let adminChannel = server.channel()
            let customer = try await server.session("Aqua Hub", "customer", over: watcherChannel).client
            let admin = try await server.session("Aqua Hub", "admin", over: adminChannel).client
            let (order, windows) = try await cleaningOrder(customer)

            var events = customer.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)).makeAsyncIterator()
            let first = try #require(try await events.next())
            try await proxy.holdResponses(true)
            // Eleven changes: more than the window and the server's queue hold.
            var changed = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: order.id))
            var expected = [changed]
            for move in 1...10 {
                changed = try await admin.orders.rescheduleOrder(SoukV1.RescheduleOrderRequest(
                    orderID: order.id, scheduledWindow: windows[1 + move % 2].window, reason: "move \(move)", expectedVersion: changed.version))
                expected.append(changed)
            }
            try await proxy.holdResponses(false)
            var seen: [SoukV1.OrderEvent] = []
            for _ in expected {
                seen.append(try #require(try await events.next()))
            }
            #expect(seen.map(\.sequence) == Array(first.sequence + 1 ... first.sequence + Int64(expected.count)))
            #expect(seen.map { $0.order?.version ?? -1 } == expected.map(\.version))
            #expect(seen.map { $0.order?.scheduledWindow } == expected.map(\.scheduledWindow))
            let bytes = seen.reduce(0) { total, event in total + event.withEncodedBytes { $0.count } + 5 }
            #expect(bytes > 1024 + 768, "the events outgrow the window and the queue")
            // At least once: the replay after a resume may outrun the 1 KiB window and the queue again.
            #expect(customer.transport.watchResumes.keys.sorted() == ["READER_TOO_SLOW"], "\(customer.transport.watchResumes)")
            await watcherChannel.close()
            await adminChannel.close()
            await proxy.close()
        }
    }

    @Test("A Watch resumed after the server's event retention passed ends with mustReload (EVENTS_EXPIRED)")
    func watchPastRetentionMustReload() async throws {
        try await withServer(arguments: ["--event-retention-seconds", "1"]) { server in
            let proxy = try await DroppingProxy(upstreamPort: server.port)
            var configuration = GRPCChannel.Configuration()
            configuration.backoff = ConnectionBackoff(initial: .milliseconds(50), maximum: .milliseconds(300))
            let watcherChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: proxy.port), configuration: configuration)
            let directChannel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port), configuration: configuration)
            let customer = try await server.session("Aqua Hub", "customer", over: watcherChannel).client
            let admin = try await server.session("Aqua Hub", "admin", over: directChannel).client
            let (order, _) = try await cleaningOrder(customer)

            var events = customer.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)).makeAsyncIterator()
            let first = try #require(try await events.next())
            // The watcher is cut off; the order changes; the server restarts past the retention and purges those events.
            proxy.refuse()
            _ = try await admin.orders.approveOrder(SoukV1.ApproveOrderRequest(orderID: order.id))
            let changed = Date()
            server.kill()
            try await eventually("the retention passed") { Date().timeIntervalSince(changed) > 1.5 }
            try await server.start()
            let probe = try await server.session("Aqua Hub", "customer", over: directChannel).client
            try await eventually("the events purged") {
                var resumed = probe.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id, resumeAfterSequence: first.sequence))
                    .makeAsyncIterator()
                do {
                    _ = try await resumed.next()
                    return false
                } catch let error as SoukError where error.mustReload {
                    return true
                }
            }
            proxy.accept()
            let error = await refusal { try await events.next() }
            #expect(error?.mustReload == true && error?.reason == .eventsExpired, "\(String(describing: error))")
            await watcherChannel.close()
            await directChannel.close()
            await proxy.close()
        }
    }
}

/// A weak reference to a session's tokens, to see them released.
final class WeakTokens: @unchecked Sendable {
    weak var value: SessionTokens?
}

/// Credentials that hand out a replaced token first, then the session's own.
final class StaleFirst: SoukCredentials, @unchecked Sendable {
    let tokens: SessionTokens
    let stale: String
    private let lock = NSLock()
    private var count = 0

    init(tokens: SessionTokens, stale: String) {
        self.tokens = tokens
        self.stale = stale
    }

    var asked: Int { lock.withLock { count } }

    func accessToken() async throws -> String? {
        let first = lock.withLock {
            count += 1
            return count == 1
        }
        return first ? stale : try await tokens.accessToken()
    }

    func tokenRejected(_ token: String) async {}
}

/// Holds the first Refresh answer (its thread waits) until `release`.
final class HeldAnswer: @unchecked Sendable {
    private let condition = NSCondition()
    private var holding = false
    private var released = false

    var isHolding: Bool {
        condition.lock()
        defer { condition.unlock() }
        return holding
    }

    func holdFirst() {
        condition.lock()
        defer { condition.unlock() }
        guard !holding else { return }
        holding = true
        while !released { condition.wait() }
    }

    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }
}
