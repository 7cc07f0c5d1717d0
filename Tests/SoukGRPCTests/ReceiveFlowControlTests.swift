import NIOCore
import SoukHTTP2
import Testing

@testable import SoukGRPC

/// Which received bytes a call reports to the transport as consumed, and when.
@Suite struct ReceiveFlowControlTests {
    /// A router with `Gated`, a bidirectional method that takes message N only once the journal
    /// has "read N", and `Echo`, a unary method.
    static func router(journal: Journal, configuration: GRPCRouter.Configuration = GRPCRouter.Configuration()) -> GRPCRouter {
        let methods: [RPCMethod] = [
            .bidirectionalStreaming("Gated") { (requests: RPCReader<RawMessage>, _: RPCWriter<RawMessage>, _: ServerContext) in
                var iterator = requests.makeAsyncIterator()
                var index = 0
                while true {
                    await journal.wait(for: "read \(index)")
                    guard let message = try await iterator.next() else { break }
                    journal.add("took \(message.bytes)")
                    index += 1
                }
                journal.add("ended")
            },
            .unary("Echo") { (request: RawMessage, _: ServerContext) in request },
        ]
        return GRPCRouter(
            services: [TestService(methods: methods)], configuration: configuration, logger: quietLogger)
    }

    @Test func unaryRequestBytesAreConsumedAsTheyArrive() async throws {
        let driver = CallDriver(router: Self.router(journal: Journal()))
        try await driver.open(path: "/souk.test.Test/Echo")
        let framed = frame([1, 2, 3, 4, 5, 6])
        try await driver.send(Array(framed[..<4]))
        #expect(driver.stream.consumedBytes == 4)
        try await driver.send(Array(framed[4...]), endStream: true)
        #expect(driver.stream.consumedBytes == framed.count)
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[1, 2, 3, 4, 5, 6]])
    }

    @Test func aSlowReaderHoldsTheBytesOfMessagesItHasNotTaken() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        try await driver.open(path: "/souk.test.Test/Gated")
        let sent = [[1], [2, 2], [3, 3, 3]].map { frame($0) }
        for message in sent { try await driver.send(message) }
        // The handler has not read: every byte is held, so the client's window stays shut.
        #expect(driver.stream.consumedBytes == 0)

        journal.add("read 0")
        await journal.wait(for: "took [1]")
        await driver.stream.waitForConsumed(sent[0].count)
        try await driver.loop.executeInContext {}
        #expect(driver.stream.consumedBytes == sent[0].count)

        journal.add("read 1")
        journal.add("read 2")
        await journal.wait(for: "took [3, 3, 3]")
        let all = sent.map(\.count).reduce(0, +)
        await driver.stream.waitForConsumed(all)
        #expect(driver.stream.consumedBytes == all)

        // A reader that is ahead of the client gets each message as it arrives.
        journal.add("read 3")
        let fourth = frame([4, 4, 4, 4])
        try await driver.send(fourth)
        await journal.wait(for: "took [4, 4, 4, 4]")
        await driver.stream.waitForConsumed(all + fourth.count)
        #expect(driver.stream.consumedBytes == all + fourth.count)

        journal.add("read 4")
        try await driver.send([], endStream: true)
        await journal.wait(for: "ended")
        let events = await driver.stream.waitForEnd()
        #expect(events.last?.headerBlock?["grpc-status"] == "0")
    }

    @Test func bytesOfAnIncompleteMessageAreConsumedSoItCanComplete() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        try await driver.open(path: "/souk.test.Test/Gated")
        let message = frame([UInt8](repeating: 7, count: 100))
        try await driver.send(Array(message[..<40]))
        #expect(driver.stream.consumedBytes == 40)
        try await driver.send(Array(message[40...]))
        // Complete and not taken: the rest is held.
        #expect(driver.stream.consumedBytes == 40)
        journal.add("read 0")
        await driver.stream.waitForConsumed(message.count)
        #expect(driver.stream.consumedBytes == message.count)

        journal.add("read 1")
        try await driver.send([], endStream: true)
        await journal.wait(for: "ended")
    }

    @Test func aCallThatEndsGivesBackEveryByteItHeld() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal, configuration: .init(maxReceiveMessageSize: 8)))
        try await driver.open(path: "/souk.test.Test/Gated")
        let held = frame([1, 2, 3]) + frame([4, 5])
        try await driver.send(held)
        #expect(driver.stream.consumedBytes == 0)
        // A message over the limit ends the call with RESOURCE_EXHAUSTED.
        let oversized = frame([UInt8](repeating: 0, count: 9))
        try await driver.send(oversized)
        let events = await driver.stream.waitForEnd()
        #expect(events.first?.headerBlock?["grpc-status"] == "8")
        #expect(driver.stream.consumedBytes == held.count + oversized.count)
        // Whatever the client still sends is consumed at once.
        try await driver.send(frame([9]), endStream: true)
        #expect(driver.stream.consumedBytes == held.count + oversized.count + 6)
        // Let the handler find out that its reader failed.
        journal.add("read 0")
    }
}

@Suite struct RequestMessagesTests {
    @Test func cancellingAWaitingReaderThrowsCancellationError() async throws {
        let messages = RequestMessages(onTaken: {})
        let reader = Task { try await messages.next() }
        reader.cancel()
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        // The messages themselves are not ended by it.
        #expect(messages.append(ByteBuffer(bytes: [1]), size: 6))
    }

    @Test func bufferedMessagesComeBeforeTheEndAndAreDroppedOnFailure() async throws {
        let messages = RequestMessages(onTaken: {})
        #expect(messages.append(ByteBuffer(bytes: [1]), size: 6))
        #expect(messages.append(ByteBuffer(bytes: [2]), size: 6))
        messages.finish()
        #expect(try await messages.next() == ByteBuffer(bytes: [1]))
        #expect(messages.takeTakenBytes() == 6)
        #expect(try await messages.next() == ByteBuffer(bytes: [2]))
        #expect(try await messages.next() == nil)
        #expect(messages.takeTakenBytes() == 6)

        let failing = RequestMessages(onTaken: {})
        #expect(failing.append(ByteBuffer(bytes: [1]), size: 6))
        failing.fail(RPCError(.cancelled, "gone"))
        await #expect(throws: RPCError.self) { _ = try await failing.next() }
        #expect(!failing.append(ByteBuffer(bytes: [2]), size: 6))
    }

    @Test func takesAreReportedOncePerBatch() async throws {
        let reports = Journal()
        let messages = RequestMessages(onTaken: { reports.add("report") })
        for value in 1 ... 3 { #expect(messages.append(ByteBuffer(bytes: [UInt8(value)]), size: 6)) }
        for _ in 1 ... 3 { _ = try await messages.next() }
        #expect(reports.all == ["report"])
        #expect(messages.takeTakenBytes() == 18)
        #expect(messages.append(ByteBuffer(bytes: [4]), size: 6))
        _ = try await messages.next()
        #expect(reports.all == ["report", "report"])
    }
}
