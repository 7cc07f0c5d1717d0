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
