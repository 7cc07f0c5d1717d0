import NIOCore

/// The gRPC Length-Prefixed-Message: a compressed-flag byte, a 4-byte big-endian length, the message.
public enum GRPCFraming {
    /// Bytes before each message: the flag and the length.
    public static let prefixLength = 5

    /// Frames one message into a single buffer.
    ///
    /// When `payload` has at least `prefixLength` bytes of room before its reader index (as the
    /// buffers made by `encode` and the compressor have), the prefix is written in place and the
    /// payload is not copied.
    public static func frame(_ payload: consuming ByteBuffer, compressed: Bool) -> ByteBuffer {
        let length = payload.readableBytes
        precondition(length <= Int(UInt32.max), "a gRPC message is at most 4 GiB")
        let start = payload.readerIndex
        if start >= prefixLength {
            payload.moveReaderIndex(to: start - prefixLength)
            // Written already (`RPCWriter.encode`, shared by many calls): taken as it is, as
            // writing it again would copy the shared buffer.
            if !compressed, payload.getInteger(at: payload.readerIndex, as: UInt8.self) == 0,
               payload.getInteger(at: payload.readerIndex + 1, as: UInt32.self) == UInt32(length) {
                return payload
            }
            payload.setInteger(compressed ? UInt8(1) : UInt8(0), at: payload.readerIndex)
            payload.setInteger(UInt32(length), at: payload.readerIndex + 1)
            return payload
        }
        var framed = ByteBufferAllocator().buffer(capacity: prefixLength + length)
        framed.writeInteger(compressed ? UInt8(1) : UInt8(0))
        framed.writeInteger(UInt32(length))
        framed.writeBuffer(&payload)
        return framed
    }

    /// An empty buffer with room for the prefix before its reader index, to fill with a message
    /// that `frame` will then prefix without copying.
    package static func bufferWithPrefixRoom(capacity: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: prefixLength + capacity)
        buffer.moveWriterIndex(forwardBy: prefixLength)
        buffer.moveReaderIndex(forwardBy: prefixLength)
        return buffer
    }
}

/// One message taken out of the request body, still compressed if its flag says so.
public struct GRPCFramedMessage: Sendable, Equatable {
    /// The Compressed-Flag: the bytes are compressed with the call's `grpc-encoding`.
    public var compressed: Bool
    /// The message bytes, without the prefix.
    public var payload: ByteBuffer

    public init(compressed: Bool, payload: ByteBuffer) {
        self.compressed = compressed
        self.payload = payload
    }
}

/// Splits a request body into gRPC messages, whatever the DATA frame boundaries.
///
/// A message longer than `maxMessageSize` is refused (RESOURCE_EXHAUSTED) as soon as its length
/// prefix arrives, before its bytes are buffered. A whole message within one chunk is returned as
/// a slice of that chunk, without copying.
public struct GRPCMessageDeframer: Sendable {
    /// The largest message accepted, in bytes.
    public let maxMessageSize: Int
    private var buffer: ByteBuffer?

    public init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Adds one chunk of the body.
    public mutating func append(_ chunk: ByteBuffer) {
        guard chunk.readableBytes > 0 else { return }
        if var buffer = self.buffer, buffer.readableBytes > 0 {
            self.buffer = nil  // keep the storage uniquely referenced while writing
            // Room for the rest of the message at once (within the limit), rather than growing by
            // doubling and copying the message several times.
            if buffer.readableBytes >= GRPCFraming.prefixLength,
               let length = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt32.self),
               Int(length) <= maxMessageSize {
                let missing = GRPCFraming.prefixLength + Int(length) - buffer.readableBytes
                buffer.reserveCapacity(minimumWritableBytes: max(missing, chunk.readableBytes))
            }
            buffer.writeImmutableBuffer(chunk)
            self.buffer = buffer
        } else {
            self.buffer = chunk
        }
    }

    /// The next complete message, or nil until more bytes arrive.
    /// Throws RESOURCE_EXHAUSTED for a message over the limit and INTERNAL for an unknown flag.
    public mutating func next() throws(RPCError) -> GRPCFramedMessage? {
        guard var buffer = self.buffer, buffer.readableBytes >= GRPCFraming.prefixLength else { return nil }
        let start = buffer.readerIndex
        let flag = buffer.getInteger(at: start, as: UInt8.self)!
        let length = Int(buffer.getInteger(at: start + 1, as: UInt32.self)!)
        guard flag <= 1 else {
            throw RPCError(.internalError, "invalid compressed flag \(flag) in message prefix")
        }
        guard length <= maxMessageSize else {
            throw RPCError(
                .resourceExhausted,
                "received message larger than max (\(length) vs. \(maxMessageSize))"
            )
        }
        guard buffer.readableBytes >= GRPCFraming.prefixLength + length else {
            // Make room for the rest of this message once, rather than growing chunk by chunk.
            let missing = GRPCFraming.prefixLength + length - buffer.readableBytes
            if buffer.writableBytes < missing {
                self.buffer = nil
                buffer.reserveCapacity(minimumWritableBytes: missing)
                self.buffer = buffer
            }
            return nil
        }
        self.buffer = nil
        buffer.moveReaderIndex(forwardBy: GRPCFraming.prefixLength)
        let payload = buffer.readSlice(length: length)!
        if buffer.readableBytes > 0 { self.buffer = buffer }
        return GRPCFramedMessage(compressed: flag == 1, payload: payload)
    }

    /// Whether bytes of an unfinished message are waiting.
    public var hasPartialMessage: Bool { (buffer?.readableBytes ?? 0) > 0 }

    /// Checks the body ended on a message boundary; throws INTERNAL when it stopped inside a message.
    public func finish() throws(RPCError) {
        if hasPartialMessage {
            throw RPCError(.internalError, "the request ended in the middle of a message")
        }
    }
}
