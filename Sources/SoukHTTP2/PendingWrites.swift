import NIOCore

/// One body write of a stream, and the promise completed once nghttp2 has taken its bytes.
struct HTTP2PendingWrite {
    var data: ByteBuffer
    var promise: EventLoopPromise<Void>?
}

/// The writes of one stream waiting to go out, in order (a server's response body or a client's
/// request body). The first is held inline: a unary message is one write, and a queue's storage
/// would be allocated for every stream.
struct HTTP2PendingWrites {
    private var head: HTTP2PendingWrite?
    /// The writes after `head`; empty whenever `head` is nil.
    private var tail: CircularBuffer<HTTP2PendingWrite>?

    var isEmpty: Bool { head == nil }
    var count: Int { head == nil ? 0 : 1 + (tail?.count ?? 0) }
    /// Bytes left in the first write.
    var firstByteCount: Int { head?.data.readableBytes ?? 0 }

    mutating func append(_ write: HTTP2PendingWrite) {
        if head == nil {
            head = write
        } else {
            if tail == nil { tail = CircularBuffer(initialCapacity: 4) }
            tail!.append(write)
        }
    }

    mutating func popFirst() -> HTTP2PendingWrite? {
        guard let first = head else { return nil }
        head = tail?.popFirst()
        return first
    }

    /// The next `length` bytes of the first write, which has more than that.
    mutating func sliceFirst(length: Int) -> ByteBuffer {
        head!.data.readSlice(length: length)!
    }

    /// Moves `length` bytes from the front out as one DATA frame's payload (`emit` gets each
    /// piece, without copying); the promises of the writes it finished go to `completed` (the
    /// caller succeeds them once nghttp2 is done sending). Returns the bytes taken, and whether
    /// the first write left is one partly sent (nil when nothing was taken).
    mutating func takePayload(
        length: Int, emit: (ByteBuffer) -> Void, completed: inout [EventLoopPromise<Void>]
    ) -> (taken: Int, firstPartlySent: Bool?) {
        var remaining = length
        var partlySent: Bool?
        while remaining > 0, !isEmpty {
            let available = firstByteCount
            if available <= remaining {
                let write = popFirst()!
                partlySent = false
                remaining -= available
                emit(write.data)
                if let promise = write.promise { completed.append(promise) }
            } else {
                let slice = sliceFirst(length: remaining)
                partlySent = true
                remaining = 0
                emit(slice)
            }
        }
        return (length - remaining, partlySent)
    }

    /// Fails every write with `error` (the stream closed).
    mutating func failAll(_ error: @autoclosure () -> any Error) {
        // The error is made only when a write waits: boxing it costs an allocation, and nearly
        // every stream closes with nothing pending.
        while let write = popFirst() {
            write.promise?.fail(error())
        }
    }

    /// Removes every write but the first when `keepFirst`, else all; returns them.
    mutating func removeAll(keepingFirst keepFirst: Bool) -> [HTTP2PendingWrite] {
        var removed: [HTTP2PendingWrite] = []
        if !keepFirst, let first = head { removed.append(first) }
        while let write = tail?.popFirst() { removed.append(write) }
        tail = nil
        if !keepFirst { head = nil }
        return removed
    }
}

/// The received bytes nghttp2 hands a session's data callback, as a slice of the buffer being
/// read (no copy) when they lie in it, or a copy when nghttp2 handed over memory of its own.
/// Shared by the server connection and the client session.
func inboundSlice(
    of inbound: ByteBuffer?, base inboundBase: UnsafeRawPointer?, _ data: UnsafePointer<UInt8>, length: Int
) -> ByteBuffer {
    if let inbound, let inboundBase {
        let offset = UnsafeRawPointer(data) - inboundBase
        if offset >= 0, offset + length <= inbound.readableBytes,
           let slice = inbound.getSlice(at: inbound.readerIndex + offset, length: length) {
            return slice
        }
    }
    return ByteBuffer(bytes: UnsafeRawBufferPointer(start: data, count: length))
}
