import NIOCore

/// Counts the client's stream resets in fixed windows, to bound "rapid reset" floods
/// (CVE-2023-44487: open a stream, reset it at once, repeat; each costs the server work while
/// never counting against the concurrent-stream limit).
struct StreamResetBudget {
    private let limit: Int
    private let window: TimeAmount
    private var windowStart: NIODeadline
    private var count = 0

    init(limit: Int, window: TimeAmount, now: NIODeadline) {
        self.limit = limit
        self.window = window
        self.windowStart = now
    }

    /// Records one reset at `now`; false when the client went over the budget.
    mutating func recordReset(now: NIODeadline) -> Bool {
        if now - windowStart >= window {
            windowStart = now
            count = 0
        }
        count += 1
        return count <= limit
    }
}
