import SoukMessages
import SoukStore
import Synchronization

/// The typing indicators of the conversations being watched, in memory only (never stored):
/// each watcher of a conversation gets the other participants' indicators, at most one TYPING
/// per sender every `throttle` (a STOPPED after a forwarded TYPING always goes through), each
/// saying when it lapses (`lapse` after it was sent). A sender whose last watch ends while
/// typing is told to the others as stopped.
final class TypingIndicators: Sendable {
    static let throttle: Int64 = 2_000_000
    static let lapse: Int64 = 10_000_000

    private struct Watcher {
        let accountID: String
        let continuation: AsyncStream<SoukV1.ConversationEvent>.Continuation
    }

    private struct Forwarded {
        var time: StoreTime
        var typing: Bool
    }

    private struct Room {
        var watchers: [UInt64: Watcher] = [:]
        var forwarded: [String: Forwarded] = [:]
    }

    private struct State {
        var rooms: [RecordID: Room] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> StoreTime

    init(clock: @escaping @Sendable () -> StoreTime) {
        self.clock = clock
    }

    /// A watcher of conversation `id` as `accountID`: the other participants' indicators, until
    /// `leave` with the returned token. Slow readers lose the oldest indicators, never block.
    func join(_ id: RecordID, as accountID: String) -> (token: UInt64, events: AsyncStream<SoukV1.ConversationEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: SoukV1.ConversationEvent.self, bufferingPolicy: .bufferingNewest(8))
        let token = state.withLock { state in
            state.nextID += 1
            state.rooms[id, default: Room()].watchers[state.nextID] = Watcher(accountID: accountID, continuation: continuation)
            return state.nextID
        }
        return (token, events)
    }

    /// Ends watcher `token` of conversation `id`; when it was its account's last watcher there
    /// and its last forwarded indicator said typing, the others are told it stopped.
    func leave(_ id: RecordID, token: UInt64) {
        let (watcher, stillThere) = state.withLock { state -> (Watcher?, Bool) in
            guard let watcher = state.rooms[id]?.watchers.removeValue(forKey: token) else { return (nil, true) }
            let stillThere = state.rooms[id]?.watchers.values.contains { $0.accountID == watcher.accountID } ?? false
            if state.rooms[id]?.watchers.isEmpty == true { state.rooms[id] = nil }
            return (watcher, stillThere)
        }
        guard let watcher else { return }
        watcher.continuation.finish()
        if !stillThere { publish(id, from: watcher.accountID, typing: false, leaving: true) }
    }

    /// Tells the other watchers of conversation `id` that `accountID` types (or stopped), unless
    /// the throttle drops it; returns whether it was forwarded.
    @discardableResult
    func publish(_ id: RecordID, from accountID: String, typing: Bool, leaving: Bool = false) -> Bool {
        let now = clock()
        let targets = state.withLock { state -> [Watcher]? in
            guard var room = state.rooms[id] ?? (leaving ? Room() : nil) else { return nil }
            let last = room.forwarded[accountID]
            let forward: Bool
            if typing {
                forward = last.map { now.microsecondsSinceEpoch - $0.time.microsecondsSinceEpoch >= Self.throttle } ?? true
            } else {
                forward = last?.typing == true
            }
            guard forward else { return nil }
            if leaving {
                room.forwarded[accountID] = nil
            } else {
                room.forwarded[accountID] = Forwarded(time: now, typing: typing)
            }
            if state.rooms[id] != nil { state.rooms[id] = room }
            return room.watchers.values.filter { $0.accountID != accountID }
        }
        guard let targets else { return false }
        let expiry = StoreTime(microsecondsSinceEpoch: now.microsecondsSinceEpoch + Self.lapse)
        let event = SoukV1.ConversationEvent(
            sequence: 0, eventTime: Timestamp(now),
            event: .typing(SoukV1.TypingIndicator(accountID: accountID, typing: typing, expireTime: Timestamp(expiry))))
        for watcher in targets { watcher.continuation.yield(event) }
        return true
    }

    /// Conversations with watchers now (for tests).
    var watchedConversations: Int { state.withLock { $0.rooms.count } }
}
