import SoukMessages
import SoukStore
import Synchronization

/// Where the laundry domain checks that a laundry profile names a dorm of the marketplace, inside
/// the transaction that stores the account (sign-up, CreateAccount, UpdateProfile). Without a
/// registered check (no laundry domain mounted) only the form of the profile is checked.
public final class DormCheck: Sendable {
    /// Throws when `profile` names no live dorm of `marketplaceID`.
    public typealias Check = @Sendable (SoukV1.LaundryProfile, _ marketplaceID: String, Transaction) throws -> Void

    private let check = Mutex<Check?>(nil)

    public init() {}

    public func register(_ check: @escaping Check) {
        self.check.withLock { $0 = check }
    }

    /// Whether a check is registered (a laundry profile must then name a dorm).
    var isRegistered: Bool { check.withLock { $0 != nil } }

    func run(_ profile: SoukV1.LaundryProfile?, marketplaceID: String, _ transaction: Transaction) throws {
        guard let profile, let check = check.withLock({ $0 }) else { return }
        try check(profile, marketplaceID, transaction)
    }
}
