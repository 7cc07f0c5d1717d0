import Logging
import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// What a domain's services are built with: the contract's Access lines, the marketplaces for the
/// scope check, a logger, and the registry of open streams (nil: streams are neither capped nor
/// ended with their session).
public struct ServiceKit: Sendable {
    public let rules: AccessRules
    public let marketplaces: any MarketplaceDirectory
    public let logger: Logger
    public let streams: OpenStreams?

    public init(rules: AccessRules, marketplaces: any MarketplaceDirectory, logger: Logger, streams: OpenStreams? = nil) {
        self.rules = rules
        self.marketplaces = marketplaces
        self.logger = logger
        self.streams = streams
    }
}

/// A domain module as the server mounts it, declared in one place: the tables it owns, the
/// domains it builds on, how it is made from the server's `DomainContext` (and the hooks it
/// registers there), the contract services it serves, its lifecycles, its background work and
/// its demo data. `Sources/SoukServer/Domains.swift` lists every domain once; the store's
/// schema, the router, the lifecycle page, the background tasks and `--demo` come from that list
/// (see `ADDING-A-SERVICE.md`).
public protocol SoukDomain: Sendable {
    /// Every table the domain owns, with its indexes. Static, because the store opens with its
    /// schema before any domain exists. A write to a table missing here fails.
    static var tables: [AnyTable] { get }

    /// Folders of files the domain keeps beside the store (named relative to its directory),
    /// which backups copy with the records.
    static var fileFolders: [String] { get }

    /// The domains whose tables this one writes through their APIs (the payments it charges,
    /// the notifications it sends), which must be mounted before it: the server does not start
    /// otherwise.
    static var dependencies: [any SoukDomain.Type] { get }

    /// The lifecycles the domain declares, in the order the lifecycle page shows them.
    static var lifecycles: [DeclaredLifecycle] { get }

    /// Makes the domain over the server's store, with what the domains mounted before it left
    /// in `context` (the domain it registers hooks with, the payable kinds it registers).
    init(mounting context: DomainContext) throws

    /// The domain's contract services, typed declarations built with `ContractService.rpcService`.
    func services(_ kit: ServiceKit) -> [any RPCService]

    /// Adds the domain's demo records to the demo marketplaces. Must be idempotent: `--demo`
    /// runs it at every start.
    func loadDemo(_ demo: DemoContext) async throws

    /// The handlers of the domain's lifecycle timers and its scheduled jobs, which the server's
    /// one `Scheduler` runs.
    var background: DomainBackground { get }
}

/// What a domain runs in the background, through the server's `Scheduler`: the handlers of its
/// lifecycle timers, and its scheduled jobs (a sweep of records past a time, a recovery pass
/// over pending payment authorizations, a one-time migration at start).
public struct DomainBackground: Sendable {
    /// One handler per timer its lifecycles declare (`StateMachine.timerHandler`).
    public var timers: [TimerHandler]
    public var jobs: [ScheduledJob]

    public init(timers: [TimerHandler] = [], jobs: [ScheduledJob] = []) {
        self.timers = timers
        self.jobs = jobs
    }
}

extension SoukDomain {
    /// No files beside the store.
    public static var fileFolders: [String] { [] }

    /// Builds on no other domain.
    public static var dependencies: [any SoukDomain.Type] { [] }

    /// No lifecycle.
    public static var lifecycles: [DeclaredLifecycle] { [] }

    /// No demo data.
    public func loadDemo(_ demo: DemoContext) async throws {}

    /// Nothing in the background.
    public var background: DomainBackground { DomainBackground() }
}

/// The demo marketplaces and accounts a domain's demo data hangs on.
public struct DemoContext: Sendable {
    /// The demo marketplaces by slug, for example `aqua-hub`.
    public var marketplaces: [String: SoukV1.Marketplace]
    /// The demo account id of each role in each marketplace, by slug.
    public var accounts: [String: [SoukV1.Role: RecordID]]
    /// Every demo account id by marketplace slug and e-mail (lower case), for marketplaces with
    /// several demo accounts of one role (DineSwift's restaurant owners).
    public var accountsByEmail: [String: [String: RecordID]]

    public init(
        marketplaces: [String: SoukV1.Marketplace], accounts: [String: [SoukV1.Role: RecordID]],
        accountsByEmail: [String: [String: RecordID]] = [:]
    ) {
        self.marketplaces = marketplaces
        self.accounts = accounts
        self.accountsByEmail = accountsByEmail
    }
}

/// The tables of the kit itself, which every domain writes to: the audit log, the mail outbox,
/// the media records pictures refer to, the feedback of every vertical and the lifecycles'
/// armed timers.
public enum KitTables {
    public static let all: [AnyTable] = [
        AuditTable.table.erased, MailTable.table.erased, MediaTable.table.erased, FeedbackTable.table.erased, TimerTable.table.erased,
    ]
}

extension Schema {
    /// The schema of a server mounting `domains`: the kit's tables and every domain's.
    /// The kit's tables and those of `domains` and of the domains they depend on (each once), so
    /// that a domain mounted without the ones it writes through (a test's harness) still has
    /// their tables.
    public static func mounting(_ domains: [any SoukDomain.Type]) -> Schema {
        var seen = Set<ObjectIdentifier>()
        var all: [any SoukDomain.Type] = []
        func visit(_ domain: any SoukDomain.Type) {
            guard seen.insert(ObjectIdentifier(domain)).inserted else { return }
            domain.dependencies.forEach(visit)
            all.append(domain)
        }
        domains.forEach(visit)
        return Schema(KitTables.all + all.flatMap { $0.tables }, fileFolders: all.flatMap { $0.fileFolders })
    }
}

/// A list of domains that cannot be mounted as it is.
public struct DomainListError: Error, CustomStringConvertible {
    public let description: String
}

extension Array where Element == any SoukDomain.Type {
    /// Throws unless every domain is listed once, after the domains it depends on.
    public func checkMountOrder() throws {
        var mounted = Set<ObjectIdentifier>()
        for domain in self {
            for dependency in domain.dependencies where !mounted.contains(ObjectIdentifier(dependency)) {
                throw DomainListError(description: "\(domain) builds on \(dependency), which must be listed before it")
            }
            guard mounted.insert(ObjectIdentifier(domain)).inserted else {
                throw DomainListError(description: "\(domain) is listed twice")
            }
        }
    }
}
