import SoukAccess
import SoukStore
import Synchronization

/// The callers of recently authenticated access tokens, by token hash, so that a call's
/// authentication reads nothing from the store in the common case.
///
/// Every committed change to a session or an account clears the entries it concerns before the
/// write that made it returns (`Store.observeCommits`), so a block, a revocation, a sign-out,
/// a password change or a role decision applies to the very next call, as reading the store
/// would. An entry is also dropped when its token expires. Bounded: a full cache drops an
/// arbitrary entry for each one added.
///
/// On a replicated store, the changes other server nodes commit clear the entries too, as the
/// store's watch delivers them (a moment after their commit).
final class AuthenticationCache: Sendable {
    /// One authenticated token: whom it names, until when.
    struct Entry: Sendable {
        let caller: Caller
        let accessExpiry: StoreTime
    }

    private struct State {
        var entries: [TokenHash: Entry] = [:]
        var tokensByAccount: [RecordID: Set<TokenHash>] = [:]
        var tokensBySession: [RecordID: Set<TokenHash>] = [:]
        /// Counts the invalidations: a caller read from the store before one is not added
        /// after it (it may predate the change).
        var generation: UInt64 = 0

        mutating func removeAll() {
            entries.removeAll()
            tokensBySession.removeAll()
            tokensByAccount.removeAll()
        }

        mutating func remove(_ token: TokenHash) {
            guard let entry = entries.removeValue(forKey: token) else { return }
            Self.unlink(token, from: entry.caller.sessionID, in: &tokensBySession)
            Self.unlink(token, from: entry.caller.accountID, in: &tokensByAccount)
        }

        private static func unlink(_ token: TokenHash, from id: RecordID, in map: inout [RecordID: Set<TokenHash>]) {
            map[id]?.remove(token)
            if map[id]?.isEmpty == true { map[id] = nil }
        }
    }

    /// The most entries kept.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity > 0, "the authentication cache needs room for one entry")
        self.capacity = capacity
    }

    /// Clears the entries of the sessions and accounts `store` changes, as each change commits.
    func invalidate(on store: Store) {
        store.observeCommits(to: SessionTable.table) { [weak self] changes in self?.invalidate(sessions: changes.recordIDs) }
        store.observeCommits(to: AccountTable.table) { [weak self] changes in self?.invalidate(accounts: changes.recordIDs) }
    }

    /// The entry of `token` while it has not expired at `now`.
    func entry(_ token: TokenHash, now: StoreTime) -> Entry? {
        state.withLock { state -> Entry? in
            guard let entry = state.entries[token] else { return nil }
            guard entry.accessExpiry > now else {
                state.remove(token)
                return nil
            }
            return entry
        }
    }

    /// The generation to pass to `add` for what is read from the store from now on.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Keeps `entry` for `token`, unless a session or account changed since `generation`.
    func add(_ token: TokenHash, _ entry: Entry, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries[token] == nil, state.entries.count >= capacity, let victim = state.entries.keys.first {
                state.remove(victim)
            }
            state.remove(token)
            state.entries[token] = entry
            state.tokensByAccount[entry.caller.accountID, default: []].insert(token)
            state.tokensBySession[entry.caller.sessionID, default: []].insert(token)
        }
    }

    /// Drops the entries of these sessions; every entry when nil (changes were missed).
    func invalidate(sessions: [RecordID]?) {
        state.withLock { state in
            state.generation &+= 1
            guard let sessions else { return state.removeAll() }
            for session in sessions {
                for token in state.tokensBySession[session] ?? [] { state.remove(token) }
            }
        }
    }

    /// Drops the entries of these accounts' sessions; every entry when nil (changes were missed).
    func invalidate(accounts: [RecordID]?) {
        state.withLock { state in
            state.generation &+= 1
            guard let accounts else { return state.removeAll() }
            for account in accounts {
                for token in state.tokensByAccount[account] ?? [] { state.remove(token) }
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
