import Logging
import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// What a domain's services are built with: the contract's Access lines, the marketplaces for the
/// scope check, and a logger.
public struct ServiceKit: Sendable {
    public let rules: AccessRules
    public let marketplaces: any MarketplaceDirectory
    public let logger: Logger

    public init(rules: AccessRules, marketplaces: any MarketplaceDirectory, logger: Logger) {
        self.rules = rules
        self.marketplaces = marketplaces
        self.logger = logger
    }
}

/// A domain module as the server mounts it: the tables it stores and the contract services it
/// serves. The server lists its domains in one place and builds the store's schema and its
/// router from them, so a domain's table cannot be left out of the schema.
public protocol SoukDomain: Sendable {
    /// For logs, for example `identity`.
    var name: String { get }

    /// Every table the domain writes, with its indexes.
    var tables: [AnyTable] { get }

    /// The domain's contract services, typed declarations built with `ContractService.rpcService`.
    func services(_ kit: ServiceKit) -> [any RPCService]
}

/// The tables of the kit itself: the audit log and the mail outbox every domain writes to.
public enum KitTables {
    public static let all: [AnyTable] = [AuditTable.table.erased, MailTable.table.erased]
}
