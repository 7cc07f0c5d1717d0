import SoukKit
import SoukStore
import Synchronization

/// The account an admin is blocking, as hooks see it.
public struct AccountBlockSubject: Sendable {
    public let accountID: RecordID
    public let marketplaceID: RecordID
    /// The admin or operator blocking it, for the audit of what the hooks change.
    public let actor: AuditActor
}

/// Where other domains take part in `Accounts.BlockAccount`: each step runs inside the block's
/// transaction, so what the blocked account offered others (a driver's availability) ends at
/// the same instant as its tokens. Domains register at startup.
public final class AccountBlockHooks: Sendable {
    /// Withdraws what the blocked account offers in one domain.
    public typealias Step = @Sendable (AccountBlockSubject, Transaction) throws -> Void

    private let steps = Mutex<[(String, Step)]>([])

    public init() {}

    /// Adds a step, named for logs (for example "driver goes offline").
    public func add(_ name: String, _ step: @escaping Step) {
        steps.withLock { $0.append((name, step)) }
    }

    func run(_ subject: AccountBlockSubject, _ transaction: Transaction) throws {
        for (_, step) in steps.withLock({ $0 }) { try step(subject, transaction) }
    }
}
