import NIOCore
import SoukHTTP2
import Synchronization
import Testing

@testable import SoukGRPC

/// Calls handed over by their handlers (`RPCWriter.detach`): they stay open without a task, go
/// out as their holder queues them, and tell the holder how they ended.
@Suite struct DetachedCallTests {
    /// The call the "Park" method's handler handed over.
    final class Parked: Sendable {
        let call = Mutex<DetachedCall?>(nil)
    }

    /// A "Park" call whose handler has handed it over and returned.
    static func parkedCall() async throws -> (CallDriver, Journal, DetachedCall) {
        let parked = Parked()
        let journal = Journal()
        let driver = Self.driver(parked, journal: journal)
        try await driver.open(path: "/souk.test.Test/Park")
        try await driver.send(messages: [[]])
        await journal.wait(for: "parked")
        return (driver, journal, try #require(parked.call.withLock { $0 }))
    }

    static func driver(_ parked: Parked, journal: Journal) -> CallDriver {
        let methods: [RPCMethod] = [
            RPCMethod(name: "Park", handler: .serverStreaming { _, writer, _ in
                try await writer.sendHeaders()
                let call = try #require(writer.detach())
                call.onEnd { status in journal.add("ended \(status.map { "\($0.code)" } ?? "OK")") }
                parked.call.withLock { $0 = call }
                journal.add("parked")
            }),
        ]
        let router = GRPCRouter(services: [TestService(methods: methods)], logger: quietLogger)
        return CallDriver(router: router)
    }

    static func message(_ bytes: [UInt8]) -> ByteBuffer {
        RPCWriter<ByteBuffer>.encode(RawMessage(bytes))
    }

    @Test func aDetachedCallStaysOpenUntilItsHolderFinishesIt() async throws {
        let (driver, journal, call) = try await Self.parkedCall()
        // The handler has returned; the call is still open.
        #expect(driver.stream.events.count == 1)
        let queued = try await driver.loop.submit {
            [call.queue(Self.message([1])), call.queue(Self.message([2]))].map { "\($0)" }
        }.get()
        #expect(queued == ["queued(delivered: 1)", "queued(delivered: 2)"])
        try await driver.loop.submit { call.finish(nil) }.get()
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[1], [2]])
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
        await journal.wait(for: "ended OK")
    }

    @Test func aDetachedCallTheClientLeavesTellsItsHolder() async throws {
        let (driver, journal, call) = try await Self.parkedCall()
        try await driver.close(.resetByPeer(errorCode: 8))
        await journal.wait(for: "ended CANCELLED")
        let queued = try await driver.loop.submit { "\(call.queue(Self.message([1])))" }.get()
        #expect(queued == "ended")
        // An observer that comes after the end learns it at once.
        call.onEnd { status in journal.add("late \(status.map { "\($0.code)" } ?? "OK")") }
        await journal.wait(for: "late CANCELLED")
    }
}
