import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukStore

/// What each marketplace publishes to its users: announcements, policies (terms, an FAQ, ...)
/// and advertisements, aimed at roles, with publish and expiry times, archived and restored by
/// the marketplace's admins. Every signed-in user (and guests, for what is aimed at everyone)
/// lists what is published for them now. Serves its part of `souk.v1.Admin`; the audit log and
/// the mail outbox are identity's part.
public final class Content: SoukDomain {
    public let store: Store
    let items: ContentItems
    let jobs: ContentBackground

    public static var tables: [AnyTable] { [ContentTable.table.erased] }

    /// Identity, whose accounts the audience fan-out pages through; the notifications it writes.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Notifications.self] }

    public init(store: Store) {
        self.store = store
        items = ContentItems(store: store)
        jobs = ContentBackground(store: store)
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store)
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [ContentService(items: items).declaration.rpcService(kit)]
    }

    /// The expiry sweep and the audience fan-out (see `ContentBackground`).
    public var background: DomainBackground {
        let jobs = self.jobs
        return DomainBackground(jobs: [
            ScheduledJob("sweep expired content", every: .seconds(30)) { try await jobs.sweepExpired() },
            ScheduledJob("notify content audiences", every: .seconds(2)) { try await jobs.notifyAudiences() },
        ])
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await ContentDemo(store: store).load(demo)
    }

    /// Runs the expiry sweep now; returns how many items it took out of the live index.
    public func sweepExpired() async throws -> Int { try await jobs.sweepExpired() }

    /// Runs the audience fan-out now; returns how many accounts it told.
    public func notifyAudiences() async throws -> Int { try await jobs.notifyAudiences() }
}
