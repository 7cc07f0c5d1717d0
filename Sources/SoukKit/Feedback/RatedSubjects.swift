import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// Who and what a rating of a subject rates.
public struct RatedParties: Sendable {
    /// The rated account, whose average includes the rating.
    public var accountID: String
    /// The rated listing (bookings), whose average includes the rating; empty otherwise.
    public var listingID: String

    public init(accountID: String, listingID: String = "") {
        self.accountID = accountID
        self.listingID = listingID
    }
}

/// A kind of subject that `Feedback.CreateFeedback` rates but another domain keeps (a rental
/// booking), which that domain registers with `RatedSubjects`.
public protocol RatableSubject: Sendable {
    /// The account that may rate subject `id`, for the RPC's ownership check. NOT_FOUND when it
    /// is missing or in another marketplace.
    func rater(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID

    /// Reads (and locks) subject `id` in the rating's `transaction`: NOT_FOUND when missing,
    /// PERMISSION_DENIED when `caller` may not rate it, FAILED_PRECONDITION (NOT_RATABLE) when it
    /// cannot be rated now. Adds `stars` to the averages the domain keeps and returns who and
    /// what is rated.
    func rate(_ id: String, stars: Int32, caller: Caller, marketplaceID: RecordID, transaction: Transaction) throws -> RatedParties

    /// The average of listing `id` (NOT_FOUND when it is missing or in another marketplace).
    func listingRating(_ id: String, marketplaceID: RecordID, store: Store) throws -> SoukV1.RatingSummary
}

/// Where domains whose records are rated through `Feedback.CreateFeedback` register them: one
/// per server, shared by the feedback service (commerce) and the domains.
public final class RatedSubjects: Sendable {
    /// The kinds of subject other domains keep.
    public enum Kind: String, Sendable {
        case booking
    }

    private let subjects = Mutex<[Kind: any RatableSubject]>([:])

    public init() {}

    /// Makes `kind` ratable through `subject` (one per kind).
    public func register(_ kind: Kind, _ subject: any RatableSubject) {
        subjects.withLock { $0[kind] = subject }
    }

    /// The subject registered for `kind`; FAILED_PRECONDITION (WRONG_VERTICAL) when no mounted
    /// domain keeps that kind.
    public func subject(_ kind: Kind) throws -> any RatableSubject {
        guard let subject = subjects.withLock({ $0[kind] }) else {
            throw RPCError.souk(.failedPrecondition, .wrongVertical, "\(kind.rawValue)s are not rated on this server")
        }
        return subject
    }
}
