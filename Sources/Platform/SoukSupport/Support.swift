import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukStore

/// The support domain: tickets from every role and from guests (`TicketTables.swift`), moved by
/// `TicketLifecycle`, served by `SupportService`, with the marketplace's response target
/// (`SupportSettings`).
public final class Support: SoukDomain {
    public let store: Store

    public static var tables: [AnyTable] { [TicketTable.table.erased, TicketMessageTable.table.erased] }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(TicketLifecycle.machine)] }

    /// Identity for the accounts and the settings validator; the notifications answers send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Notifications.self] }

    public init(store: Store, identity: Identity? = nil) {
        self.store = store
        if let identity { SupportSettings.register(in: identity.marketplaces.settingsValidators) }
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, identity: try context.require(Identity.self))
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [SupportService(store: store).declaration.rpcService(kit)]
    }
}
