@testable import SoukHTTP2
import Testing

/// A batch of requests read at once stops for a flush after `answersPerEarlyFlush` answers; nothing of
/// the batch may be lost or left unprocessed by that pause.
@Suite("HTTP/2 server: flushing during a read batch")
struct HTTP2EarlyFlushTests {
    static func responses(_ snapshot: RawHTTP2Connection.Snapshot, streamID: UInt32) -> [RawFrame] {
        snapshot.frames.filter { $0.streamID == streamID && ($0.type == RawFrame.headers || $0.type == RawFrame.data) }
    }

    static func ended(_ snapshot: RawHTTP2Connection.Snapshot, streamID: UInt32) -> Bool {
        responses(snapshot, streamID: streamID).contains { $0.flags & RawFrame.endStream != 0 }
    }

    @Test func everyRequestOfALargeBatchIsAnswered() async throws {
        try await withServer({ $0.answersPerEarlyFlush = 4 }) { _, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            let ids = (0 ..< 60).map { UInt32(2 * $0 + 1) }
            // All header blocks first, then all bodies, as HTTP/2 clients batch them.
            var batch = Wire.preface + Wire.settings()
            for id in ids {
                batch += Wire.headers(streamID: id, block: Wire.requestBlock(path: "/echo"), endStream: false)
            }
            for id in ids {
                batch += Wire.data(streamID: id, count: Int(id), endStream: true)
            }
            try await raw.send(batch)
            let snapshot = try await raw.waitFor { snapshot in ids.allSatisfy { Self.ended(snapshot, streamID: $0) } }
            for id in ids {
                let body = Self.responses(snapshot, streamID: id).filter { $0.type == RawFrame.data }.flatMap(\.payload)
                #expect(body == Array(repeating: 0x62, count: Int(id)), "stream \(id)")
            }
            #expect(!snapshot.frames.contains { $0.type == RawFrame.goAway || $0.type == RawFrame.rstStream })
        }
    }

    /// The pause falls on the last bytes of the batch: nghttp2 still owes the end of that DATA frame,
    /// which is delivered by reading on with no bytes left.
    @Test func aPauseOnTheLastBytesStillEndsTheirRequest() async throws {
        try await withServer({ $0.answersPerEarlyFlush = 4 }) { _, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            // Stream 1 is answered at its headers (1), streams 3, 5, 7 at theirs (4 waiting); then
            // stream 1's body arrives and its data callback pauses.
            var batch = Wire.preface + Wire.settings()
            batch += Wire.headers(streamID: 1, block: Wire.requestBlock(path: "/echo"), endStream: false)
            for id: UInt32 in [3, 5, 7] {
                batch += Wire.headers(streamID: id, block: Wire.requestBlock(path: "/echo"), endStream: true)
            }
            batch += Wire.data(streamID: 1, count: 100, endStream: true)
            try await raw.send(batch)
            let snapshot = try await raw.waitFor { snapshot in
                [1, 3, 5, 7].allSatisfy { Self.ended(snapshot, streamID: $0) }
            }
            let body = Self.responses(snapshot, streamID: 1).filter { $0.type == RawFrame.data }.flatMap(\.payload)
            #expect(body == Array(repeating: 0x62, count: 100))
        }
    }
}
