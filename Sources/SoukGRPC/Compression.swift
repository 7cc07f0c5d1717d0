import CZlib
import NIOCore

/// A message encoding this server can read and write.
public enum CompressionAlgorithm: String, Sendable, CaseIterable {
    case identity
    case gzip

    /// The value of `grpc-accept-encoding` on responses: every supported encoding.
    public static let acceptEncodingHeaderValue = allCases.map(\.rawValue).joined(separator: ",")

    /// The algorithm named by a `grpc-encoding` value; nil when unsupported.
    public init?(headerValue: String) {
        switch headerValue {
        case "identity": self = .identity
        case "gzip": self = .gzip
        default: return nil
        }
    }

    /// Whether a `grpc-accept-encoding` value lists this algorithm.
    func isListed(in acceptEncoding: String) -> Bool {
        acceptEncoding.split(separator: ",").contains { part in
            var name = part
            while name.first == " " { name = name.dropFirst() }
            while name.last == " " { name = name.dropLast() }
            return name == rawValue[...]
        }
    }
}

/// gzip compression of single messages (the RFC 1952 format that `grpc-encoding: gzip` names).
///
/// Owns one zlib deflate stream, reset after each message: gRPC keeps no compression context
/// from one message to the next. Not thread-safe; one per call.
package final class GzipCompressor {
    /// The z_stream has a fixed address because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>

    package init() throws(RPCError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits 15 + 16 selects the gzip wrapper.
        let result = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        guard result == Z_OK else {
            let message = zlibMessage(stream, result)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw RPCError(.internalError, "could not start gzip compression: \(message)")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses one message into a new buffer that has room for the gRPC prefix before it.
    package func compress(_ input: ByteBuffer) throws(RPCError) -> ByteBuffer {
        defer { deflateReset(stream) }
        let bound = Int(deflateBound(stream, UInt(input.readableBytes)))
        var output = GRPCFraming.bufferWithPrefixRoom(capacity: bound)
        var status = Z_OK
        _ = input.withUnsafeReadableBytes { source in
            output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { target in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(target.count)
                // deflateBound leaves room for everything, so one Z_FINISH call completes the stream.
                status = deflate(stream, Z_FINISH)
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        guard status == Z_STREAM_END else {
            throw RPCError(.internalError, "could not compress a message: \(zlibMessage(stream, status))")
        }
        return output
    }
}

/// gzip decompression of single messages, bounded by the receive limit.
///
/// Owns one zlib inflate stream, reset after each message. Not thread-safe; one per call.
package final class GzipDecompressor {
    /// The z_stream has a fixed address because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>

    package init() throws(RPCError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard result == Z_OK else {
            let message = zlibMessage(stream, result)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw RPCError(.internalError, "could not start gzip decompression: \(message)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Decompresses one message. Throws RESOURCE_EXHAUSTED as soon as the output would pass
    /// `limit` bytes (so a small "zip bomb" cannot make it allocate more), and INTERNAL when the
    /// bytes are not one complete gzip stream.
    package func decompress(_ input: ByteBuffer, limit: Int) throws(RPCError) -> ByteBuffer {
        defer { inflateReset(stream) }
        var output = ByteBufferAllocator().buffer(capacity: min(limit, max(256, input.readableBytes * 4)))
        var status = Z_OK
        var overLimit = false
        var trailingBytes = false
        input.withUnsafeReadableBytes { source in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(source.count)
            while true {
                // Room for one byte past the limit tells "exactly at the limit" from "over it".
                let room = min(max(output.writableBytes, 4096), limit + 1 - output.readableBytes)
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { target in
                    stream.pointee.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(room)
                    status = inflate(stream, Z_NO_FLUSH)
                    return room - Int(stream.pointee.avail_out)
                }
                if output.readableBytes > limit {
                    overLimit = true
                    return
                }
                switch status {
                case Z_STREAM_END:
                    trailingBytes = stream.pointee.avail_in != 0
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.pointee.avail_in != 0:
                    continue  // the output was full; more room comes on the next turn
                default:
                    return
                }
            }
        }
        if overLimit {
            throw RPCError(.resourceExhausted, "decompressed message larger than max (limit \(limit) bytes)")
        }
        guard status == Z_STREAM_END else {
            let reason = status == Z_BUF_ERROR ? "the gzip data is truncated" : zlibMessage(stream, status)
            throw RPCError(.internalError, "could not decompress a message: \(reason)")
        }
        guard !trailingBytes else {
            throw RPCError(.internalError, "could not decompress a message: bytes after the end of the gzip data")
        }
        return output
    }
}

/// zlib's message for the last error on a stream, or the name of the result code.
private func zlibMessage(_ stream: UnsafeMutablePointer<z_stream>, _ result: Int32) -> String {
    if let message = stream.pointee.msg { return String(cString: message) }
    switch result {
    case Z_STREAM_ERROR: return "invalid stream state"
    case Z_DATA_ERROR: return "invalid data"
    case Z_MEM_ERROR: return "out of memory"
    case Z_BUF_ERROR: return "no progress possible"
    case Z_VERSION_ERROR: return "incompatible zlib version"
    default: return "zlib error \(result)"
    }
}
