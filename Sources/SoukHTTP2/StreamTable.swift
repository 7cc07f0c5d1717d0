/// Something kept in a `StreamTable`: it knows its HTTP/2 stream ID.
protocol StreamIdentified: AnyObject {
    var streamID: Int32 { get }
}

/// A connection's open streams by stream ID, looked up several times per request.
///
/// An open-addressing table with linear probing, in place of a `Dictionary`: a request costs
/// half a dozen lookups (HEADERS, DATA, each DATA frame sent, close), and a Dictionary hashes the
/// key with SipHash on every one. Client stream IDs are odd and rising, so `id >> 1` already spreads
/// the streams open at one time over consecutive slots; lookups rarely probe. At most half full.
struct StreamTable<Stream: StreamIdentified> {
    /// A power of two in length, or empty until the first stream (most connections idle).
    private var slots: [Stream?] = []
    /// The number of streams in the table.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    subscript(streamID: Int32) -> Stream? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Self.home(streamID, mask)
        while let stream = slots[index] {
            if stream.streamID == streamID { return stream }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Adds `stream`, replacing a stream of the same ID.
    mutating func insert(_ stream: Stream) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Self.home(stream.streamID, mask)
        while let occupant = slots[index] {
            if occupant.streamID == stream.streamID {
                slots[index] = stream
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = stream
        count += 1
    }

    /// Takes the stream with this ID out of the table.
    @discardableResult
    mutating func removeValue(forStreamID streamID: Int32) -> Stream? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var hole = Self.home(streamID, mask)
        while let stream = slots[hole], stream.streamID != streamID {
            hole = (hole + 1) & mask
        }
        guard let removed = slots[hole] else { return nil }
        slots[hole] = nil
        count -= 1
        // Backward-shift deletion: move later members of the probe run into the hole when their
        // home slot is not between the hole and where they are, so every lookup still finds them.
        var index = hole
        while true {
            index = (index + 1) & mask
            guard let stream = slots[index] else { break }
            let home = Self.home(stream.streamID, mask)
            let stays = hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if !stays {
                slots[hole] = stream
                slots[index] = nil
                hole = index
            }
        }
        return removed
    }

    /// Empties the table and returns what it held.
    mutating func removeAll() -> [Stream] {
        let all = slots.compactMap { $0 }
        slots = []
        count = 0
        return all
    }

    private static func home(_ streamID: Int32, _ mask: Int) -> Int {
        Int(streamID >> 1) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: max(16, old.count * 2))
        count = 0
        for case let stream? in old { insert(stream) }
    }
}
