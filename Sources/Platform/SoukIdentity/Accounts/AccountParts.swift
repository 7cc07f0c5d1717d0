import SoukKit
import SoukMessages
import SoukStore
import Synchronization

/// A vertical's own part of the accounts of its marketplaces (Drip 'n Dash: the student and
/// Dasher profiles and the ratings both ways; food and water: the courier's rating), kept in the
/// vertical's tables. Identity stores none of it: it hands the vertical's fields of account
/// requests to the part inside its own transaction, and fills the account view from it, so
/// clients see one `Account`. Every requirement has a default that does nothing.
public protocol AccountPart: Sendable {
    /// The `UpdateProfile` mask paths the part owns ("laundry_profile.room").
    var profilePaths: Set<String> { get }

    /// Records what is wrong with the part's fields of a new account (sign-up, CreateAccount).
    func checkNew(_ new: NewAccount, fields: NewAccount.FieldNames, into checks: inout FieldChecks) throws

    /// Stores the part of the new `account` (its id set) in the transaction creating it.
    func create(_ new: NewAccount, fields: NewAccount.FieldNames, account: SoukV1.Account, transaction: Transaction) throws

    /// Records what is wrong with the part's paths of an `UpdateProfile` (`current`: the stored
    /// account, nil when there is none).
    func checkUpdate(_ input: SoukV1.Account, paths: [String], current: SoukV1.Account?, into checks: inout FieldChecks) throws

    /// Applies the part's paths of an `UpdateProfile` in its transaction.
    func update(_ input: SoukV1.Account, paths: [String], account: SoukV1.Account, transaction: Transaction) throws

    /// Records what is wrong with the part's fields of a `RequestRole`.
    func checkRoleRequest(_ request: SoukV1.RequestRoleRequest, into checks: inout FieldChecks)

    /// `role` of `account` was asked for (`request` given) or made active by an admin (nil), in
    /// the transaction of that change.
    func roleChanged(_ account: SoukV1.Account, role: SoukV1.Role, request: SoukV1.RequestRoleRequest?, transaction: Transaction) throws

    /// Fills the part's fields of the contract's view of `account` (its id set).
    func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws

    /// Takes over the part's fields an earlier release stored in the account record itself
    /// (`legacy`, with its id set), in the transaction that clears them there.
    func adoptLegacy(_ legacy: SoukV1.Account, transaction: Transaction) throws
}

extension AccountPart {
    public var profilePaths: Set<String> { [] }
    public func checkNew(_ new: NewAccount, fields: NewAccount.FieldNames, into checks: inout FieldChecks) throws {}
    public func create(_ new: NewAccount, fields: NewAccount.FieldNames, account: SoukV1.Account, transaction: Transaction) throws {}
    public func checkUpdate(_ input: SoukV1.Account, paths: [String], current: SoukV1.Account?, into checks: inout FieldChecks) throws {}
    public func update(_ input: SoukV1.Account, paths: [String], account: SoukV1.Account, transaction: Transaction) throws {}
    public func checkRoleRequest(_ request: SoukV1.RequestRoleRequest, into checks: inout FieldChecks) {}
    public func roleChanged(_ account: SoukV1.Account, role: SoukV1.Role, request: SoukV1.RequestRoleRequest?, transaction: Transaction) throws {}
    public func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {}
    public func adoptLegacy(_ legacy: SoukV1.Account, transaction: Transaction) throws {}
}

/// The account part of each vertical, which vertical modules register at startup (one per
/// vertical; a module may serve several verticals).
public final class AccountParts: Sendable {
    private let parts = Mutex<[SoukV1.Vertical: any AccountPart]>([:])

    public init() {}

    public func register(_ part: any AccountPart, for verticals: [SoukV1.Vertical]) {
        parts.withLock { parts in
            for vertical in verticals { parts[vertical] = part }
        }
    }

    /// The part of `vertical`; nil when no mounted module keeps one.
    func part(_ vertical: SoukV1.Vertical?) -> (any AccountPart)? {
        guard let vertical else { return nil }
        return parts.withLock { $0[vertical] }
    }
}
