/// Decides which node runs the timers and scheduled jobs when several souk-server nodes serve one
/// store: they would be correct on every node (a timer fires in the transaction that removes it),
/// but each would then read and race for every due timer and run every sweep.
public protocol RunnerElection: Sendable {
    /// Runs `work` whenever this node is the elected runner, cancelling it as soon as the node may
    /// no longer be; returns when the calling task is cancelled, after giving up the election.
    func whileElected(_ work: @escaping @Sendable () async -> Void) async
}

/// The only node of an embedded store: always the runner.
public struct SoleRunner: RunnerElection {
    public init() {}

    public func whileElected(_ work: @escaping @Sendable () async -> Void) async {
        await work()
    }
}
