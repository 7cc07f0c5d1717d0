import NIOCore
import SoukGRPC
import SoukHTTP2
import SoukJSON

/// The messages of a `application/grpc-web+json` call translated to and from protobuf, frame by
/// frame, with the proto3 JSON mapping of the method's request and response types.
struct GRPCWebJSONMessages {
    let json: ProtoJSON
    let inputType: String
    let outputType: String

    /// The complete frames at the front of `buffer` with their JSON messages as protobuf; an
    /// incomplete frame stays in `buffer`.
    func requestFrames(_ buffer: inout ByteBuffer) throws(RPCError) -> ByteBuffer {
        try translate(&buffer, keepIncomplete: true) { message throws(RPCError) in
            do throws(ProtoJSONError) {
                return try message.withUnsafeReadableBytes { raw throws(ProtoJSONError) in try json.binary(fromJSON: raw, messageType: inputType) }
            } catch {
                throw RPCError.invalidArgument(field: error.path.isEmpty ? "request" : error.path, error.reason)
            }
        }
    }

    /// The response's frames with their protobuf messages as JSON.
    func responseFrames(_ buffer: inout ByteBuffer) throws(RPCError) -> ByteBuffer {
        try translate(&buffer, keepIncomplete: false) { message throws(RPCError) in
            do throws(ProtoJSONError) {
                return try message.withUnsafeReadableBytes { raw throws(ProtoJSONError) in try json.json(fromBinary: raw, messageType: outputType) }
            } catch {
                throw RPCError(.internalError, "the response could not be written as JSON: \(error)")
            }
        }
    }

    private func translate(
        _ buffer: inout ByteBuffer, keepIncomplete: Bool, _ convert: (ByteBuffer) throws(RPCError) -> [UInt8]
    ) throws(RPCError) -> ByteBuffer {
        var out = ByteBuffer()
        while buffer.readableBytes >= 5 {
            let flags = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self)!
            let length = Int(buffer.getInteger(at: buffer.readerIndex + 1, as: UInt32.self)!)
            guard buffer.readableBytes >= 5 + length else { break }
            guard flags == 0 else { throw RPCError(.internalError, "compressed messages cannot be translated to JSON") }
            buffer.moveReaderIndex(forwardBy: 5)
            let message = try convert(buffer.readSlice(length: length)!)
            out.writeInteger(UInt8(0))
            out.writeInteger(UInt32(message.count))
            out.writeBytes(message)
        }
        guard keepIncomplete || buffer.readableBytes == 0 else {
            throw RPCError(.internalError, "a response message was split across writes")
        }
        return out
    }
}

/// The request side of a `+json` call: translates each complete frame before the gRPC layer
/// reads it. A message that does not fit the request type ends the call with INVALID_ARGUMENT
/// naming the field, as the gRPC layer would.
final class GRPCWebJSONRequest: HTTP2StreamHandler {
    private let handler: any HTTP2StreamHandler
    private weak var stream: (any HTTP2ResponseStream)?
    private let messages: GRPCWebJSONMessages
    private let refuse: (RPCError) -> Void
    private var buffered = ByteBuffer()
    private var failed = false

    init(
        _ handler: any HTTP2StreamHandler, stream: any HTTP2ResponseStream, messages: GRPCWebJSONMessages,
        refuse: @escaping (RPCError) -> Void
    ) {
        self.handler = handler
        self.stream = stream
        self.messages = messages
        self.refuse = refuse
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        stream?.consumed(data.readableBytes)
        guard !failed else { return }
        var data = data
        buffered.writeBuffer(&data)
        do throws(RPCError) {
            let frames = try messages.requestFrames(&buffered)
            handler.receiveData(frames, endStream: endStream)
        } catch {
            failed = true
            refuse(error)
            // The call is answered: its handler stops as if the client had gone.
            handler.streamClosed(.resetByPeer(errorCode: 8))
        }
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        handler.receiveTrailers(trailers)
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        guard !failed else { return }
        handler.streamClosed(reason)
    }
}
