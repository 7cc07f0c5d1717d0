import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// Who may talk about one subject (an order, a job, a booking, a listing), as the vertical that
/// keeps it says: the answer of a `ConversationSubject`.
public struct SubjectParties: Sendable, Equatable {
    /// The accounts that are parties of the subject (an order's customer, seller and courier; a
    /// job's customer and Dasher; a booking's lessee and lessor; a listing's lessor).
    public var accountIDs: Set<String>
    /// Whether any account of the marketplace may talk about it with one of `accountIDs` (a
    /// listing's prospective lessees).
    public var openToAnyone: Bool
    /// The title of conversations about it ("Order AH-10482", the listing's title).
    public var title: String

    public init(accountIDs: Set<String>, openToAnyone: Bool = false, title: String) {
        self.accountIDs = accountIDs.filter { !$0.isEmpty }
        self.openToAnyone = openToAnyone
        self.title = title
    }

    /// Whether `a` and `b` may have a conversation about the subject: both parties, or (when it
    /// is open to anyone) one of them a party.
    public func allowsPair(_ a: String, _ b: String) -> Bool {
        let inside = [a, b].filter { accountIDs.contains($0) }.count
        return inside == 2 || (openToAnyone && inside == 1)
    }
}

/// A kind of record conversations may be about, which the vertical that keeps it registers with
/// `ConversationSubjects` in its `init(mounting:)`: messaging asks it who the parties are and
/// never reads the vertical's tables.
public protocol ConversationSubject: Sendable {
    /// The parties of record `id` of marketplace `marketplaceID`; NOT_FOUND when it is missing or
    /// in another marketplace.
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties
}

/// Where verticals register the kinds of record conversations are about (orders, deliveries,
/// jobs, bookings, listings): one per server, shared through `DomainContext.shared`, read by the
/// messaging platform.
public final class ConversationSubjects: Sendable {
    private let subjects = Mutex<[SoukV1.ResourceType: any ConversationSubject]>([:])

    public init() {}

    /// Makes records of `type` subjects of conversations, their parties told by `subject`.
    public func register(_ type: SoukV1.ResourceType, _ subject: any ConversationSubject) {
        subjects.withLock { $0[type] = subject }
    }

    /// The subject registered for `type`, or nil when no mounted vertical keeps that kind.
    public func subject(_ type: SoukV1.ResourceType) -> (any ConversationSubject)? {
        subjects.withLock { $0[type] }
    }

    /// The registered types, for error messages.
    public var types: [SoukV1.ResourceType] {
        subjects.withLock { $0.keys.sorted { $0.rawValue < $1.rawValue } }
    }
}
