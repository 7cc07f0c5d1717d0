import NIOCore
@testable import SoukHTTP2
import Testing

/// Receive flow control: windows reopen only for request bytes the handler consumed.
@Suite("HTTP/2 server: receive windows")
struct HTTP2ReceiveWindowTests {
    static let streamWindow = 64 * 1024

    /// WINDOW_UPDATE frames for `streamID` received so far.
    static func windowUpdates(_ raw: RawHTTP2Connection, streamID: UInt32) -> [UInt32] {
        raw.snapshot.frames.filter { $0.type == RawFrame.windowUpdate && $0.streamID == streamID }.compactMap(\.windowIncrement)
    }

    @Test func streamWindowReopensOnlyForConsumedBytes() async throws {
        try await withServer({ $0.initialStreamWindowSize = Self.streamWindow }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            let received = 40 * 1024  // more than half the window, which would earn a WINDOW_UPDATE at once
            await raw.trySend(Wire.preface + Wire.settings()
                + Wire.headers(streamID: 1, block: Wire.requestBlock(path: "/unread"), endStream: false)
                + Wire.data(streamID: 1, count: received))
            try await waitUntil { router.unreadBytes(1) == received }
            // Two round trips: whatever the server wrote while reading the DATA has arrived.
            try await raw.roundTrip(1)
            try await raw.roundTrip(2)
            #expect(Self.windowUpdates(raw, streamID: 1).isEmpty)

            try await router.consumeUnread(1, received)
            try await raw.waitFor { _ in !Self.windowUpdates(raw, streamID: 1).isEmpty }
            #expect(Self.windowUpdates(raw, streamID: 1) == [UInt32(received)])
            #expect(raw.snapshot.frames.allSatisfy { $0.type != RawFrame.goAway && $0.type != RawFrame.rstStream })
        }
    }

    @Test func aSlowStreamHoldsBackOnlyItself() async throws {
        try await withServer({
            $0.initialStreamWindowSize = Self.streamWindow
            $0.connectionWindowSize = 1 << 20
        }) { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let slowBody = 100 * 1024
            let (slow, _) = try await client.start(TestRequest(path: "/unread", body: testBytes(count: slowBody, seed: 1)))
            try await waitUntil { router.unreadBytes(slow) == Self.streamWindow }

            // Twice the connection's window flows on another stream meanwhile.
            let body = testBytes(count: 2 << 20, seed: 2)
            let echoed = try await client.send(TestRequest(path: "/echo", body: body))
            #expect(echoed.body == body)
            // The slow stream got no more than its window.
            #expect(router.unreadBytes(slow) == Self.streamWindow)

            try await router.consumeUnread(slow, Self.streamWindow)
            try await waitUntil { router.unreadBytes(slow) == slowBody }
        }
    }

    @Test func closedStreamsGiveTheirUnconsumedBytesBackToTheConnection() async throws {
        // Each stream leaves 48 KiB unconsumed; six of them are more than twice the connection's window.
        let connectionWindow = 128 * 1024
        try await withServer({
            $0.initialStreamWindowSize = Self.streamWindow
            $0.connectionWindowSize = connectionWindow
        }) { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let count = 48 * 1024
            for index in 0 ..< 6 {
                let (id, response) = try await client.start(TestRequest(path: "/unread", body: testBytes(count: count, seed: UInt64(index))))
                try await waitUntil { router.unreadBytes(id) == count }
                try await client.reset(streamID: id, errorCode: 8)
                _ = try await response.get()
                try await waitUntil { router.closeReasons[id] != nil }
            }
            let body = testBytes(count: connectionWindow, seed: 9)
            let echoed = try await client.send(TestRequest(path: "/echo", body: body))
            #expect(echoed.body == body)
        }
    }

    @Test func bodiesOfRefusedRequestsGoBackToTheConnection() async throws {
        try await withServer({
            $0.connectionWindowSize = 65535  // the protocol's default: no WINDOW_UPDATE at the start
            $0.maxHeaderListSize = 256
        }) { _, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(Wire.preface + Wire.settings())
            let oversized = Wire.requestBlock(path: "/echo", extra: [("x-big", String(repeating: "a", count: 300))])
            // Each request is answered 431; its body arrives with its headers (one small write), before
            // the stream is closed, so nobody reads it. 22 bodies are more than half the window.
            for index in 0 ..< 22 {
                let id = UInt32(2 * index + 1)
                await raw.trySend(Wire.headers(streamID: id, block: oversized, endStream: false)
                    + Wire.data(streamID: id, count: 1500, endStream: true))
                try await raw.waitFor { $0.frames.contains { $0.type == RawFrame.headers && $0.streamID == id } }
            }
            try await raw.waitFor { _ in !Self.windowUpdates(raw, streamID: 0).isEmpty }
            #expect(Self.windowUpdates(raw, streamID: 0).reduce(0, +) >= 65535 / 2)
            #expect(!raw.snapshot.frames.contains { $0.type == RawFrame.goAway })
        }
    }
}
