import SoukMessages
import SoukStore

/// A move as its effects see it: the resource before and after, who made it and why.
public struct LifecycleMove<Subject: Sendable>: Sendable {
    public let id: RecordID
    /// "" for platform records.
    public let marketplaceID: String
    public let before: Subject
    public let after: Subject
    /// The record's version after the move.
    public let version: UInt64
    public let actor: AuditActor
    public let reason: String

    /// The resource as the contract refers to it in notifications.
    public func ref(_ type: SoukV1.ResourceType) -> SoukV1.ResourceRef { SoukV1.ResourceRef(type: type, id: id.description) }
}

/// What a transition does besides moving its resource (whom it notifies, what it pays or
/// releases, which totals it adds to), declared with the transition and run by `fire` inside
/// the transition's transaction, so every way of firing the transition does it.
public struct TransitionEffect<Subject: Sendable>: Sendable {
    /// For the lifecycle page ("notify the customer").
    public let label: String
    public let run: @Sendable (LifecycleMove<Subject>, Transaction) throws -> Void

    public init(_ label: String, run: @escaping @Sendable (LifecycleMove<Subject>, Transaction) throws -> Void) {
        self.label = label
        self.run = run
    }
}
