import Foundation
import NIOPosix
import Synchronization

/// What the simulated gateway knows, by idempotency key: its authorizations and refunds. Kept in
/// memory and, with a journal file, appended to it (one JSON object a line, fsynced before the
/// gateway answers; concurrent calls share one fsync, as a store's group commit does) and read
/// back at start: the gateway stands for an outside provider, whose
/// memory survives the server's process and never shares a transaction with it. The fsync runs
/// on a thread of its own, as the provider's disk is another machine's: a call waiting for it
/// holds none of the threads that run the server's handlers.
public final class SimulatedGatewayBook: Sendable {
    /// What one key names.
    public struct Entry: Codable, Sendable, Equatable {
        public enum State: String, Codable, Sendable {
            case authorized, captured, voided, declined, invalid, refunded
        }

        public var state: State
        public var amountMinor: Int64 = 0
        public var currencyCode = ""
        public var reference = ""
        public var cardBrand = ""
        public var cardLast4 = ""
        /// The decline reason, or what is wrong with the token.
        public var message = ""
        /// The hash of the one-time card token it spent; empty for test and wallet tokens.
        public var tokenHash: [UInt8] = []
        /// Of an authorization: how much of it was refunded.
        public var refundedMinor: Int64 = 0
        /// Of a refund: the authorization it returns money from.
        public var authorizationKey = ""
        /// When it was first recorded (the gateway's clock; nil in journals written before it was kept).
        public var createTime: Int64? = nil

        var authorizationResult: GatewayAuthorizationResult {
            switch state {
            case .declined: .declined(reason: message)
            case .invalid: .invalidToken(message)
            case .voided: .declined(reason: "the authorization was voided")
            default: .authorized(reference: reference, cardBrand: cardBrand, cardLast4: cardLast4)
            }
        }
    }

    /// One line of the journal: the entry of `key` after a change.
    struct Line: Codable {
        var key: String
        var entry: Entry
    }

    /// The entries by key, and the keys of the authorizations still held (neither captured nor voided).
    private struct Known {
        var entries: [String: Entry]
        var open: Set<String>
        /// Encodes the journal's lines (one encoder for all: making one per line costs more than the line).
        let encoder = JSONEncoder()

        init(_ entries: [String: Entry]) {
            self.entries = entries
            open = Set(entries.filter { $0.value.state == .authorized }.keys)
        }

        mutating func set(_ key: String, _ entry: Entry) {
            entries[key] = entry
            if entry.state == .authorized { open.insert(key) } else { open.remove(key) }
        }
    }

    private let known: Mutex<Known>
    private let journal: FileHandle?
    /// Lines written to the journal so far (counted under `known`'s lock, in journal order).
    private let written = Atomic<UInt64>(0)
    /// Lines known durable; its lock lets one fsync at a time run, covering every line written
    /// before it started.
    private let synced = Mutex<UInt64>(0)
    /// The same count, read without waiting for a running fsync.
    private let durable = Atomic<UInt64>(0)

    /// A book kept in memory only.
    public init() {
        known = Mutex(Known([:]))
        journal = nil
    }

    /// A book kept in the journal file at `path` (created when missing; its lines read back).
    public init(journalPath path: String) throws {
        var known: [String: Entry] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            let decoder = JSONDecoder()
            for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                // A line cut short by a crash never answered anyone: it is skipped.
                guard let decoded = try? decoder.decode(Line.self, from: Data(line)) else { continue }
                known[decoded.key] = decoded.entry
            }
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        self.known = Mutex(Known(known))
        journal = handle
    }

    /// The entry of `key`, if the gateway has seen it.
    public func entry(_ key: String) -> Entry? {
        known.withLock { $0.entries[key] }
    }

    /// Every key and entry, for tests and inspection.
    public var all: [String: Entry] { known.withLock { $0.entries } }

    /// The keys of the authorizations held (neither captured nor voided) that were recorded
    /// before `time`.
    func openAuthorizations(recordedBefore time: Int64) -> [String] {
        known.withLock { known in
            known.open.filter { (known.entries[$0]?.createTime ?? 0) < time }.sorted()
        }
    }

    /// Records `entry` under `key` unless the key is known; returns the key's entry and whether
    /// it is this one.
    func record(_ key: String, _ entry: Entry) async throws -> (Entry, inserted: Bool) {
        let result = try known.withLock { known in
            if let entry = known.entries[key] { return (entry, false) }
            try append(key, entry, known.encoder)
            known.set(key, entry)
            return (entry, true)
        }
        // Also for a known key: its line may still be on its way to the disk.
        try await syncWritten()
        return result
    }

    /// Changes the entry of `key` (nil when unknown) with `body`, journaling it when it changed.
    func change<R: Sendable>(_ key: String, _ body: (inout Entry?) throws -> R) async throws -> R {
        let result = try known.withLock { known in
            var entry = known.entries[key]
            let result = try body(&entry)
            if entry != known.entries[key], let entry {
                try append(key, entry, known.encoder)
                known.set(key, entry)
            }
            return result
        }
        try await syncWritten()
        return result
    }

    private func append(_ key: String, _ entry: Entry, _ encoder: JSONEncoder) throws {
        guard let journal else { return }
        var line = try encoder.encode(Line(key: key, entry: entry))
        line.append(UInt8(ascii: "\n"))
        try journal.write(contentsOf: line)
        written.add(1, ordering: .releasing)
    }

    /// Returns once every line written so far is on the disk: the first caller fsyncs for all
    /// lines written before its fsync starts; the others find theirs covered. The fsync runs on a
    /// thread of NIO's pool for blocking work, never on the caller's.
    private func syncWritten() async throws {
        guard journal != nil else { return }
        let target = written.load(ordering: .acquiring)
        guard durable.load(ordering: .acquiring) < target else { return }
        try await NIOThreadPool.singleton.runIfActive { try self.sync(through: target) }
    }

    private func sync(through target: UInt64) throws {
        guard let journal else { return }
        try synced.withLock { synced in
            guard synced < target else { return }
            let through = written.load(ordering: .acquiring)
            try journal.synchronize()
            synced = through
            durable.store(through, ordering: .releasing)
        }
    }
}
