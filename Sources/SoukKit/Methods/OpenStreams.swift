import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// How many streaming calls may be open at once (`--max-streams-per-connection`,
/// `--max-streams-per-account`).
public struct StreamLimits: Sendable, Equatable {
    /// On one connection, whoever calls.
    public var perConnection: Int
    /// Of one signed-in account, over all its connections and sessions.
    public var perAccount: Int
    /// Bytes of events a Watch stream holds for a client that does not read them (beyond what
    /// its HTTP/2 window took): one more ends it with READER_TOO_SLOW (`--max-stream-queue-bytes`).
    public var queueBytes: Int

    public static let `default` = StreamLimits(perConnection: 32, perAccount: 64)

    public init(perConnection: Int, perAccount: Int, queueBytes: Int = 256 * 1024) {
        self.perConnection = perConnection
        self.perAccount = perAccount
        self.queueBytes = queueBytes
    }
}

/// The streaming calls of souk.v1 open now, by connection, account and session: the in-process
/// registry that caps them and ends them at once when their session ends. Identity tells it
/// when it blocks an account or revokes a session (after the change commits), and each stream
/// keeps a timer for the expiry of the access token it was opened with, so no stream reads the
/// store per event. When the timer fires, the stream reads its session once: a session whose
/// client refreshed its tokens meanwhile keeps the stream until the new token's expiry; any
/// other stream ends with TOKEN_EXPIRED.
public final class OpenStreams: Sendable {
    public let limits: StreamLimits
    /// The access-token expiry of a live session (nil when it ended), and the clock sessions
    /// expire by. Set by identity.
    private let sessions = Mutex<Sessions?>(nil)

    private struct Sessions {
        let expiry: @Sendable (RecordID) throws -> StoreTime?
        let clock: @Sendable () -> StoreTime
    }

    private struct Entry {
        let connection: String
        let caller: Caller?
        let lease: StreamLease
    }

    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
        /// The access-token expiry of the streams the sweeper watches.
        var expiring: [Int: StoreTime] = [:]
        var sweeping = false
        var perConnection: [String: Int] = [:]
        var perAccount: [RecordID: Int] = [:]
    }

    private let state = Mutex(State())

    public init(limits: StreamLimits = .default) {
        self.limits = limits
    }

    /// How many streams are open now (for tests and metrics).
    public var count: Int { state.withLock { $0.entries.count } }

    /// Where a stream learns whether its session still holds a token, and until when, on the
    /// clock that tokens expire by.
    public func readSessions(
        clock: @escaping @Sendable () -> StoreTime, with expiry: @escaping @Sendable (_ sessionID: RecordID) throws -> StoreTime?
    ) {
        sessions.withLock { $0 = Sessions(expiry: expiry, clock: clock) }
    }

    /// Runs the stream `body` of `call`, counted against the caps (RESOURCE_EXHAUSTED
    /// TOO_MANY_STREAMS with RetryInfo past either), and ends it with UNAUTHENTICATED as soon as
    /// its caller's account is blocked, its session revoked or its access token expires.
    ///
    /// The body runs in the call's own task, and nothing else waits on its behalf: an end comes
    /// through `ServerContext.end` (the status goes out, the task is cancelled), and token
    /// expiries are watched by one sweeper for all streams. An idle stream holds its entry here,
    /// not a task or a timer of its own. A body that hands its call over (`RPCWriter.detach`)
    /// returns at once; the stream stays registered until the call ends.
    func run(_ call: SoukCall, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let context = call.context
        guard context.canBeEnded else { return try await runInGroup(call, body) }
        let lease = StreamLease(ending: context)
        let id = try open(connection: context.peer, caller: call.caller, lease: lease)
        // A stream handed over by its handler (`RPCWriter.detach`) stays open, and counted,
        // until it ends; any other leaves the registry when its body returns.
        @discardableResult func release() -> Bool {
            guard let detached = context.detachedCall else {
                close(id)
                return false
            }
            detached.onEnd { _ in self.close(id) }
            return true
        }
        do {
            // A session that ended between the call's authentication and its registration above
            // found no stream to end: read it once, now that a later end would find this one.
            if let caller = call.caller, let read = sessions.withLock({ $0 }), try read.expiry(caller.sessionID) == nil {
                throw Self.sessionEnded
            }
            try await body()
        } catch {
            release()
            throw lease.error ?? error
        }
        if release() { return }
        if let error = lease.error { throw error }
    }

    /// `run` for a call its transport cannot end from outside: the body races the lease's end
    /// and the token's expiry in a task group.
    private func runInGroup(_ call: SoukCall, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let lease = StreamLease(ending: nil)
        let id = try open(connection: call.context.peer, caller: call.caller, lease: lease, sweep: false)
        defer { close(id) }
        if let caller = call.caller, let read = sessions.withLock({ $0 }), try read.expiry(caller.sessionID) == nil {
            throw Self.sessionEnded
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask { throw await lease.ended() }
            if let caller = call.caller, let expiry = caller.accessExpiry {
                group.addTask { throw try await self.expiry(of: caller.sessionID, from: expiry) }
            }
            // The first to finish decides: the stream's own end, or the end of its session.
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Waits until the session's access token expired without a newer one; returns TOKEN_EXPIRED.
    private func expiry(of sessionID: RecordID, from first: StoreTime) async throws -> RPCError {
        var expiry = first
        while true {
            guard let read = sessions.withLock({ $0 }) else { return Self.tokenExpired }
            let left = expiry.microsecondsSinceEpoch - read.clock().microsecondsSinceEpoch
            if left > 0 { try await Task.sleep(for: .microseconds(left)) }
            guard let renewed = try read.expiry(sessionID), read.clock() < renewed else { return Self.tokenExpired }
            expiry = renewed
        }
    }

    /// The longest the sweeper sleeps: a stream opened meanwhile whose token expires sooner
    /// than every other (a marketplace that shortened its tokens) waits at most this long.
    static let longestSweepSleep: Int64 = 1_000_000

    /// Ends the streams whose access token expired without a newer one in their session, until
    /// no open stream has a token that expires. It sleeps until the earliest expiry.
    private func sweep() async {
        while true {
            let read = sessions.withLock { $0 }
            let earliest = state.withLock { $0.expiring.values.min() }
            var sleep = Self.longestSweepSleep
            if let read, let earliest {
                sleep = min(sleep, max(0, earliest.microsecondsSinceEpoch - read.clock().microsecondsSinceEpoch))
            }
            if sleep > 0 { try? await Task.sleep(for: .microseconds(sleep)) }
            let now = read?.clock()
            let due: [(Int, RecordID, StreamLease)]? = state.withLock { state in
                if state.expiring.isEmpty {
                    state.sweeping = false
                    return nil
                }
                guard let now else { return [] }
                return state.expiring.compactMap { id, expiry in
                    guard expiry <= now, let entry = state.entries[id], let caller = entry.caller else { return nil }
                    return (id, caller.sessionID, entry.lease)
                }
            }
            guard let due else { return }
            guard let read, let now else { continue }
            for (id, sessionID, lease) in due {
                if let renewed = (try? read.expiry(sessionID)) ?? nil, now < renewed {
                    state.withLock { state in if state.expiring[id] != nil { state.expiring[id] = renewed } }
                } else {
                    state.withLock { state in state.expiring[id] = nil }
                    lease.end(Self.tokenExpired)
                }
            }
        }
    }

    /// Ends every open stream of `accountID` (but those of session `except`) with `error`.
    public func end(account accountID: RecordID, except: RecordID? = nil, _ error: RPCError) {
        end(error) { $0?.accountID == accountID && $0?.sessionID != except }
    }

    /// Ends every open stream of session `sessionID` with `error`.
    public func end(session sessionID: RecordID, _ error: RPCError) {
        end(error) { $0?.sessionID == sessionID }
    }

    static let tokenExpired = RPCError.souk(
        .unauthenticated, .tokenExpired,
        "the access token the stream was opened with has expired: refresh it and open the stream again (Watch RPCs resume after the last sequence seen)")

    static let sessionEnded = RPCError.souk(
        .unauthenticated, .sessionRevoked, "the session this stream was opened with has ended: sign in again")

    private func end(_ error: RPCError, where matches: (Caller?) -> Bool) {
        let leases = state.withLock { state in state.entries.values.filter { matches($0.caller) }.map(\.lease) }
        for lease in leases { lease.end(error) }
    }

    private func open(connection: String, caller: Caller?, lease: StreamLease, sweep: Bool = true) throws -> Int {
        let limits = limits
        let (id, startSweeper) = try state.withLock { state throws(RPCError) -> (Int, Bool) in
            if state.perConnection[connection, default: 0] >= limits.perConnection {
                throw Self.tooMany("this connection already has \(limits.perConnection) open streams")
            }
            if let account = caller?.accountID, state.perAccount[account, default: 0] >= limits.perAccount {
                throw Self.tooMany("this account already has \(limits.perAccount) open streams")
            }
            state.next += 1
            state.entries[state.next] = Entry(connection: connection, caller: caller, lease: lease)
            state.perConnection[connection, default: 0] += 1
            if let account = caller?.accountID { state.perAccount[account, default: 0] += 1 }
            var startSweeper = false
            if sweep, let expiry = caller?.accessExpiry {
                state.expiring[state.next] = expiry
                startSweeper = !state.sweeping
                state.sweeping = true
            }
            return (state.next, startSweeper)
        }
        if startSweeper { Task { await self.sweep() } }
        return id
    }

    private func close(_ id: Int) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            state.expiring[id] = nil
            state.perConnection[entry.connection, default: 1] -= 1
            if state.perConnection[entry.connection] == 0 { state.perConnection[entry.connection] = nil }
            if let account = entry.caller?.accountID {
                state.perAccount[account, default: 1] -= 1
                if state.perAccount[account] == 0 { state.perAccount[account] = nil }
            }
        }
    }

    /// A stream past a cap waits for one of its streams to end: retrying after a few seconds is
    /// right for a client that closed one meanwhile.
    private static func tooMany(_ message: String) -> RPCError {
        RPCError.souk(
            .resourceExhausted, .tooManyStreams, "\(message): close one before opening another", retryDelay: .seconds(5))
    }
}

/// The end of one open stream, set once by whoever ends it: it ends the call through its
/// context at once (or wakes `ended()`, for a call its transport cannot end).
final class StreamLease: Sendable {
    private struct State {
        var error: RPCError?
        var waiter: CheckedContinuation<RPCError, Never>?
    }

    private let state = Mutex(State())
    private let context: ServerContext?

    init(ending context: ServerContext?) {
        self.context = context
    }

    /// The error the stream was ended with, if it was.
    var error: RPCError? { state.withLock { $0.error } }

    /// Ends the stream with `error` (the first end wins).
    func end(_ error: RPCError) {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<RPCError, Never>?) in
            guard state.error == nil else { return (false, nil) }
            state.error = error
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard first else { return }
        context?.end(error)
        waiter?.resume(returning: error)
    }

    /// Waits until the stream is ended; a cancelled wait returns CANCELLED.
    func ended() async -> RPCError {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let error = state.withLock { state -> RPCError? in
                    if state.error == nil { state.waiter = continuation }
                    return state.error
                }
                if let error { continuation.resume(returning: error) }
            }
        } onCancel: {
            end(RPCError(.cancelled, "the stream ended"))
        }
    }
}
