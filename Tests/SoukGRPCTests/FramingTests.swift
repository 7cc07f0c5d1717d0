import NIOCore
import Testing

@testable import SoukGRPC

@Suite struct FramingTests {
    private func framed(_ bytes: [UInt8], compressed: Bool = false) -> [UInt8] {
        let buffer = GRPCFraming.frame(ByteBuffer(bytes: bytes), compressed: compressed)
        return Array(buffer.readableBytesView)
    }

    @Test func frameWritesFlagAndBigEndianLength() {
        #expect(framed([0xAA, 0xBB, 0xCC]) == [0, 0, 0, 0, 3, 0xAA, 0xBB, 0xCC])
        #expect(framed([0x01], compressed: true) == [1, 0, 0, 0, 1, 0x01])
        #expect(framed([]) == [0, 0, 0, 0, 0])
        let large = [UInt8](repeating: 7, count: 70_000)
        #expect(Array(framed(large).prefix(5)) == [0, 0, 1, 0x11, 0x70])
    }

    @Test func framePrefixesInPlaceWhenThereIsRoom() {
        var payload = GRPCFraming.bufferWithPrefixRoom(capacity: 3)
        payload.writeBytes([9, 8, 7])
        let result = GRPCFraming.frame(payload, compressed: false)
        #expect(Array(result.readableBytesView) == [0, 0, 0, 0, 3, 9, 8, 7])
        #expect(result.readerIndex == 0)
    }

    @Test func deframerSplitsMessagesAcrossAnyChunkBoundary() throws {
        let messages: [[UInt8]] = [[1, 2, 3], [], Array(repeating: 0x5A, count: 300), [42]]
        let stream = messages.flatMap { framed($0) }
        for chunkSize in [1, 2, 3, 4, 5, 6, 7, 64, stream.count] {
            var deframer = GRPCMessageDeframer(maxMessageSize: 1024)
            var received: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                let end = min(offset + chunkSize, stream.count)
                deframer.append(ByteBuffer(bytes: stream[offset..<end]))
                while let message = try deframer.next() {
                    #expect(!message.compressed)
                    received.append(Array(message.payload.readableBytesView))
                }
                offset = end
            }
            #expect(received == messages, "chunk size \(chunkSize)")
            try deframer.finish()
        }
    }

    @Test func deframerReportsTheCompressedFlag() throws {
        var deframer = GRPCMessageDeframer(maxMessageSize: 16)
        deframer.append(ByteBuffer(bytes: framed([1], compressed: true) + framed([2])))
        #expect(try deframer.next()?.compressed == true)
        #expect(try deframer.next()?.compressed == false)
        #expect(try deframer.next() == nil)
    }

    @Test func deframerRefusesAnOversizedMessageFromItsPrefix() {
        var deframer = GRPCMessageDeframer(maxMessageSize: 10)
        // Only the prefix of an 11-byte message has arrived: it is refused before its body.
        deframer.append(ByteBuffer(bytes: [0, 0, 0, 0, 11]))
        #expect(statusCode { try deframer.next() } == .resourceExhausted)
    }

    @Test func deframerAcceptsAMessageExactlyAtTheLimit() throws {
        var deframer = GRPCMessageDeframer(maxMessageSize: 4)
        deframer.append(ByteBuffer(bytes: framed([1, 2, 3, 4])))
        #expect(try deframer.next()?.payload.readableBytes == 4)
    }

    @Test func deframerRejectsAnUnknownFlag() {
        var deframer = GRPCMessageDeframer(maxMessageSize: 10)
        deframer.append(ByteBuffer(bytes: [2, 0, 0, 0, 0]))
        #expect(throws: RPCError(.internalError, "invalid compressed flag 2 in message prefix")) { try deframer.next() }
    }

    @Test func deframerReportsATruncatedMessage() throws {
        var deframer = GRPCMessageDeframer(maxMessageSize: 100)
        deframer.append(ByteBuffer(bytes: Array(framed([1, 2, 3, 4]).dropLast())))
        #expect(try deframer.next() == nil)
        #expect(deframer.hasPartialMessage)
        #expect(statusCode { try deframer.finish() } == .internalError)

        var prefixOnly = GRPCMessageDeframer(maxMessageSize: 100)
        prefixOnly.append(ByteBuffer(bytes: [0, 0]))
        #expect(try prefixOnly.next() == nil)
        #expect(statusCode { try prefixOnly.finish() } == .internalError)
    }
}
