/// A set of byte keys kept in order, for `MirroredKeyValueEngine`'s scans: sorted chunks of at
/// most `chunkLimit` keys, so an insert or removal moves at most one chunk's keys (a single
/// sorted array would move half the key space on each new key).
struct SortedKeyList {
    /// A key's place: its chunk, and its index in that chunk.
    struct Position: Equatable {
        var chunk: Int
        var index: Int

        func precedes(_ other: Position) -> Bool {
            chunk < other.chunk || (chunk == other.chunk && index < other.index)
        }
    }

    static let chunkLimit = 512
    private(set) var chunks: [[[UInt8]]] = []
    private(set) var count = 0

    /// The first position whose key is not below `key` (`end` when every key is below it).
    func position(atLeast key: [UInt8]) -> Position {
        // The first chunk whose last key is not below `key`.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrder.precedes(chunks[middle].last!, key) { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return end }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if ByteOrder.precedes(chunk[middle], key) { first = middle + 1 } else { last = middle }
        }
        return Position(chunk: low, index: first)
    }

    /// The position after the last key.
    var end: Position { Position(chunk: chunks.count, index: 0) }

    func key(at position: Position) -> [UInt8] { chunks[position.chunk][position.index] }

    /// The next position (towards `end`).
    func after(_ position: Position) -> Position {
        if position.index + 1 < chunks[position.chunk].count { return Position(chunk: position.chunk, index: position.index + 1) }
        return Position(chunk: position.chunk + 1, index: 0)
    }

    /// The position before `position`, or nil at the first key.
    func before(_ position: Position) -> Position? {
        if position.index > 0 { return Position(chunk: position.chunk, index: position.index - 1) }
        guard position.chunk > 0 else { return nil }
        return Position(chunk: position.chunk - 1, index: chunks[position.chunk - 1].count - 1)
    }

    /// Adds `key` unless present.
    mutating func insert(_ key: [UInt8]) {
        guard !chunks.isEmpty else {
            chunks = [[key]]
            count = 1
            return
        }
        var at = position(atLeast: key)
        if at == end {
            at = Position(chunk: chunks.count - 1, index: chunks[chunks.count - 1].count)
        } else if chunks[at.chunk][at.index] == key {
            return
        }
        chunks[at.chunk].insert(key, at: at.index)
        count += 1
        if chunks[at.chunk].count > Self.chunkLimit {
            let upper = Array(chunks[at.chunk][(Self.chunkLimit / 2)...])
            chunks[at.chunk].removeSubrange((Self.chunkLimit / 2)...)
            chunks.insert(upper, at: at.chunk + 1)
        }
    }

    /// Removes `key` if present.
    mutating func remove(_ key: [UInt8]) {
        let at = position(atLeast: key)
        guard at != end, chunks[at.chunk][at.index] == key else { return }
        chunks[at.chunk].remove(at: at.index)
        count -= 1
        if chunks[at.chunk].isEmpty { chunks.remove(at: at.chunk) }
    }

    mutating func removeAll() {
        chunks = []
        count = 0
    }
}
