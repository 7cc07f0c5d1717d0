/// Gathers the fields of the header block nghttp2 is decoding, for the client and the server
/// sessions alike: one block at a time, for the stream it was started for, within a list size.
struct HeaderBlockCollector {
    /// What `add` did with a field.
    enum Outcome {
        /// The field belongs to the block being collected and was kept.
        case added
        /// No block is being collected for that stream; the field was ignored.
        case ignored
        /// The field took the block past the size limit: the block is dropped and collecting stops.
        case tooLarge
    }

    /// The stream whose block is being collected; 0 when none.
    private(set) var streamID: Int32 = 0
    /// The fields collected so far, in order.
    private(set) var fields: [HTTP2Header] = []
    /// RFC 9113 §6.5.2 size of `fields` so far: name + value + 32 octets each.
    private var listSize = 0
    private var strings = HeaderStringCache()
    private let maxListSize: Int

    init(maxListSize: Int) {
        self.maxListSize = maxListSize
    }

    /// Starts collecting the block of `streamID` (0: collect nothing until the next start).
    mutating func start(streamID: Int32) {
        self.streamID = streamID
        fields.removeAll(keepingCapacity: true)
        listSize = 0
    }

    /// Adds one field of `streamID`'s block.
    mutating func add(
        streamID: Int32,
        name: UnsafePointer<UInt8>, nameLength: Int,
        value: UnsafePointer<UInt8>, valueLength: Int
    ) -> Outcome {
        guard streamID == self.streamID, streamID != 0 else { return .ignored }
        listSize += nameLength + valueLength + 32
        guard listSize <= maxListSize else {
            stop()
            return .tooLarge
        }
        fields.append(HTTP2Header(
            strings.string(UnsafeBufferPointer(start: name, count: nameLength)),
            strings.string(UnsafeBufferPointer(start: value, count: valueLength))))
        return .added
    }

    /// Whether the block of `streamID` is being collected (it was started and has not outgrown the limit).
    func isCollecting(_ streamID: Int32) -> Bool {
        streamID != 0 && streamID == self.streamID
    }

    /// Stops collecting and forgets the fields, keeping their storage for the next block.
    mutating func stop() {
        streamID = 0
        fields.removeAll(keepingCapacity: true)
    }

    /// Stops collecting if the block being collected is `streamID`'s (the stream closed).
    mutating func forget(_ streamID: Int32) {
        if streamID == self.streamID { self.streamID = 0 }
    }
}
