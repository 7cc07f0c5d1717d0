import NIOCore
import SoukHTTP2
import SoukKit
import SoukStore
import Synchronization

/// The answers of media URLs kept in memory: the bytes of an original or of one of its sizes,
/// with what the route decides on (the record's marketplace and whether it is public) and the
/// response headers made once. A GET or HEAD found here is answered on the event loop, without
/// a thread hop, a store read or a file read; the signature of a private media URL is still
/// checked on every request (pure computation).
///
/// Every committed change to a media record (a reference attached or detached, which may make
/// it private; the record deleted by the purge) drops that record's entries before the write
/// returns (`Store.observeCommits`), so the next request reads the store again as it would
/// without the cache. What was read from the store before a change is not added after it.
///
/// Bounded by bytes (bodies plus an estimate of the rest), evicting with CLOCK: a hit only sets
/// a bit, so lookups stay cheap under the lock.
public final class MediaCache: Sendable {
    /// 64 MiB: some thousands of thumbnails and a few hundred screen-sized images.
    public static let defaultCapacityBytes = 64 << 20
    /// What an entry costs beyond its body (the entry, its headers, the index).
    static let entryOverhead = 1024

    /// A media record and one of its forms.
    struct Key: Hashable, Sendable {
        let media: RecordID
        /// 0: the original, 1: thumb, 2: screen (a byte hashes faster than the size's name).
        let form: UInt8

        /// `size` of the record (nil: the original).
        init(media: RecordID, size: MediaSize?) {
            self.media = media
            switch size {
            case nil: form = 0
            case .thumb: form = 1
            case .screen: form = 2
            }
        }

        /// One word to hash rather than three: every hit hashes its key under the lock.
        func hash(into hasher: inout Hasher) {
            hasher.combine(media.low ^ (media.high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(form))
        }
    }

    /// The largest body kept: an eighth of the capacity, so a few large files never push out
    /// everything else.
    public let maxEntryBytes: Int
    /// The bytes the entries may take in all.
    public let capacityBytes: Int
    private let state: Mutex<State>

    /// A cache of at most `capacityBytes`; 0 keeps nothing.
    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
        maxEntryBytes = self.capacityBytes / 8
        state = Mutex(State())
    }

    /// Drops the entries of the media records `store` changes, as each change commits.
    public func invalidate(on store: Store) {
        store.observeCommits(to: MediaTable.table) { [weak self] changes in self?.invalidate(changes.recordIDs) }
    }

    /// Whether it keeps anything.
    public var isEnabled: Bool { maxEntryBytes > 0 }

    /// The generation to pass to `add` for what is read from the store from now on.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// The entry of `key`, marked as used.
    func entry(_ key: Key) -> MediaCacheEntry? {
        state.withLock { state -> MediaCacheEntry? in
            guard let slot = state.index[key] else { return nil }
            state.slots[slot].referenced = true
            return state.slots[slot].entry
        }
    }

    /// Keeps `entry` for `key`, unless a media record changed since `generation` (what was read
    /// may predate the change) or it is larger than `maxEntryBytes`. Evicts what it must.
    func add(_ key: Key, _ entry: MediaCacheEntry, readAt generation: UInt64) {
        guard isEnabled, entry.body.readableBytes <= maxEntryBytes else { return }
        let cost = entry.body.readableBytes + Self.entryOverhead
        state.withLock { state in
            guard state.generation == generation else { return }
            state.remove(key)
            while state.bytes + cost > capacityBytes, state.evictOne() {}
            state.insert(key, entry, cost: cost)
        }
    }

    /// Drops every entry of these media records; of every record when nil (changes were missed).
    func invalidate(_ ids: [RecordID]?) {
        state.withLock { state in
            state.generation &+= 1
            guard let ids else {
                state = State(generation: state.generation)
                return
            }
            for id in ids {
                state.remove(Key(media: id, size: nil))
                for size in MediaSize.allCases { state.remove(Key(media: id, size: size)) }
            }
        }
    }

    /// The number of entries and the bytes they take (for tests and metrics).
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.index.count, $0.bytes) } }

    /// The entries in a ring of slots swept by the CLOCK hand.
    private struct State {
        struct Slot {
            var key: Key?
            var entry: MediaCacheEntry?
            var cost = 0
            var referenced = false
        }

        var slots: [Slot] = []
        var index: [Key: Int] = [:]
        var free: [Int] = []
        var hand = 0
        var bytes = 0
        /// Counts the invalidations.
        var generation: UInt64 = 0

        mutating func insert(_ key: Key, _ entry: MediaCacheEntry, cost: Int) {
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
            } else {
                slot = slots.count
                slots.append(Slot())
            }
            slots[slot] = Slot(key: key, entry: entry, cost: cost, referenced: false)
            index[key] = slot
            bytes += cost
        }

        mutating func remove(_ key: Key) {
            guard let slot = index.removeValue(forKey: key) else { return }
            bytes -= slots[slot].cost
            slots[slot] = Slot()
            free.append(slot)
        }

        /// Evicts the first entry the hand finds unused since it last passed; false when empty.
        mutating func evictOne() -> Bool {
            guard !index.isEmpty else { return false }
            while true {
                if hand >= slots.count { hand = 0 }
                defer { hand += 1 }
                guard let key = slots[hand].key else { continue }
                if slots[hand].referenced {
                    slots[hand].referenced = false
                    continue
                }
                remove(key)
                return true
            }
        }
    }
}

/// One cached form of a media object: its bytes and what answering a request for it needs.
final class MediaCacheEntry: Sendable {
    /// The record's marketplace: a URL naming another is not found.
    let marketplaceID: RecordID
    /// Whether anyone may read it; otherwise only a signed URL.
    let isPublic: Bool
    /// The strong entity tag, quoted.
    let etag: String
    let contentType: String
    let lastModified: String
    let body: ByteBuffer
    /// The 200 answer's headers, `:status` first; for public media the same array for every
    /// request, so the HTTP/2 layer finds it converted already.
    let wholeHeaders: [HTTP2Header]
    /// The 304 answer's headers (public media).
    let notModifiedHeaders: [HTTP2Header]

    init(marketplaceID: RecordID, isPublic: Bool, etag: String, contentType: String, lastModified: String, body: ByteBuffer) {
        self.marketplaceID = marketplaceID
        self.isPublic = isPublic
        self.etag = etag
        self.contentType = contentType
        self.lastModified = lastModified
        self.body = body
        let validators = Self.validatorHeaders(etag: etag, cacheControl: MediaHTTPAnswer.publicCacheControl, lastModified: lastModified)
        notModifiedHeaders = [HTTP2Header(":status", "304")] + validators
        wholeHeaders = [HTTP2Header(":status", "200")] + validators + [
            HTTP2Header("content-type", contentType), HTTP2Header("content-length", String(body.readableBytes)),
        ]
    }

    /// The headers every answer with content carries, and a 304 too.
    static func validatorHeaders(etag: String, cacheControl: String, lastModified: String) -> [HTTP2Header] {
        [
            HTTP2Header("etag", etag), HTTP2Header("cache-control", cacheControl), HTTP2Header("last-modified", lastModified),
            HTTP2Header("accept-ranges", "bytes"), HTTP2Header("x-content-type-options", "nosniff"),
        ]
    }
}
