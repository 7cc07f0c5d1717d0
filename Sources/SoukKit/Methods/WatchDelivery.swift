import SoukGRPC
import NIOCore
import SoukMessages
import SoukStore
import Synchronization

/// An event of a Watch RPC: its position in the stream it follows (field 1 of every Watch
/// event), which a client resumes after.
public protocol SequencedEvent: Sendable {
    var sequence: Int64 { get }
}

extension SoukV1.AccountEvent: SequencedEvent {}
extension SoukV1.OrderEvent: SequencedEvent {}
extension SoukV1.JobEvent: SequencedEvent {}
extension SoukV1.BookingEvent: SequencedEvent {}
extension SoukV1.CourierLocationEvent: SequencedEvent {}
extension SoukV1.ConversationEvent: SequencedEvent {}

/// The sequences of a Watch stream's events queued and not known to have gone out (usually one
/// or none), so that a stream ended for a slow reader names the last event it delivered.
struct DeliveredSequences {
    /// Events queued so far.
    private var queued = 0
    /// Sequences of events `queued - sequences.count ..< queued`.
    private var sequences: [Int64] = []
    /// The sequence of the last event known to have gone out (nil: none).
    private(set) var delivered: Int64?

    /// An event with `sequence` was queued.
    mutating func queue(_ sequence: Int64) {
        queued += 1
        sequences.append(sequence)
    }

    /// `sent` events of the call have gone out: forget their sequences.
    mutating func sent(_ sent: Int) {
        let known = queued - sequences.count
        guard sent > known else { return }
        let gone = min(sent - known, sequences.count)
        delivered = sequences[gone - 1]
        sequences.removeFirst(gone)
    }
}

/// The writer of every Watch RPC (a server-streaming RPC whose events are `SequencedEvent`s),
/// made by `SoukMethodBuilder`: events are queued without waiting for the client, up to
/// `StreamLimits.queueBytes` waiting for a client that does not read; past that the stream ends
/// with RESOURCE_EXHAUSTED (READER_TOO_SLOW) and the sequence of the last event it delivered, so
/// the client resumes after it and loses nothing, while the stream's other watchers, which each
/// follow the log on their own, are not held back. What a stream holds is bounded either way.
enum WatchDelivery {
    private final class Box: Sendable {
        let state = Mutex(DeliveredSequences())
    }

    static func writer<Response: ProtoMessage>(_ writer: RPCWriter<Response>, limit: Int) -> RPCWriter<Response> {
        let box = Box()
        @Sendable func deliver(_ sequence: Int64, _ write: () async throws -> Int) async throws {
            box.state.withLock { $0.queue(sequence) }
            do {
                let sent = try await write()
                if sent >= 0 { box.state.withLock { $0.sent(sent) } }
            } catch let overflow as ResponseQueueOverflow {
                let delivered = box.state.withLock { state -> Int64? in
                    state.sent(overflow.deliveredMessages)
                    return state.delivered
                }
                throw tooSlow(delivered)
            }
        }
        return RPCWriter(
            send: { message, compress in
                try await deliver((message as? any SequencedEvent)?.sequence ?? 0) {
                    try await writer.write(message, compress: compress, queueLimit: limit)
                }
            }, queue: nil, headers: { try await writer.sendHeaders() },
            encoded: { message, sequence, compress, _ in
                try await deliver(sequence) {
                    try await writer.write(encoded: message, sequence: sequence, compress: compress, queueLimit: limit) {
                        try message.withUnsafeReadableBytes { try Response(decoding: $0) }
                    }
                }
                return -1
            },
            detach: {
                guard var call = writer.detach() else { return nil }
                call.queueLimit = limit
                return call
            })
    }

    static func tooSlow(_ delivered: Int64?) -> RPCError {
        guard let delivered else {
            return RPCError.souk(
                .resourceExhausted, .readerTooSlow,
                "the stream's reader fell too far behind and the stream ended before delivering an event: watch again from where you were")
        }
        return RPCError.souk(
            .resourceExhausted, .readerTooSlow,
            "the stream's reader fell too far behind: the events after sequence \(delivered) were not sent; watch again with resume_after_sequence \(delivered)",
            metadata: ["last_sequence": "\(delivered)"])
    }
}
