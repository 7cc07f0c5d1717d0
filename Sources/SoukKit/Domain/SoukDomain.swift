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

/// A domain module as the server mounts it: the tables it stores, the contract services it
/// serves and its demo data. `Sources/SoukServer/Domains.swift` lists every domain once and builds
/// the store's schema, the router and `--demo` from that list (see `ADDING-A-SERVICE.md`).
public protocol SoukDomain: Sendable {
    /// Every table the domain writes, with its indexes. Static, because the store opens with its
    /// schema before any domain exists.
    static var tables: [AnyTable] { get }

    /// Folders of files the domain keeps beside the store (named relative to its directory),
    /// which backups copy with the records.
    static var fileFolders: [String] { get }

    /// The domain's contract services, typed declarations built with `ContractService.rpcService`.
    func services(_ kit: ServiceKit) -> [any RPCService]

    /// Adds the domain's demo records to the demo marketplaces. Must be idempotent: `--demo`
    /// runs it at every start.
    func loadDemo(_ demo: DemoContext) async throws
}

extension SoukDomain {
    /// No files beside the store.
    public static var fileFolders: [String] { [] }

    /// No demo data.
    public func loadDemo(_ demo: DemoContext) async throws {}
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
/// the media records pictures refer to and the feedback of every vertical.
public enum KitTables {
    public static let all: [AnyTable] = [
        AuditTable.table.erased, MailTable.table.erased, MediaTable.table.erased, FeedbackTable.table.erased,
    ]
}

extension Schema {
    /// The schema of a server mounting `domains`: the kit's tables and every domain's.
    public static func mounting(_ domains: [any SoukDomain.Type]) -> Schema {
        Schema(KitTables.all + domains.flatMap { $0.tables }, fileFolders: domains.flatMap { $0.fileFolders })
    }
}
