import SoukGRPC
import SoukKit
import SoukStore

/// The notifications platform every vertical tells its parties through: the stored
/// notifications and their unread counts (`Notifier`, written in the caller's transaction) and
/// the Notifications service that reads them.
public final class Notifications: SoukDomain {
    public let store: Store

    public static var tables: [AnyTable] {
        [
            NotificationTable.table.erased, UnreadCountTable.table.erased, SettingsTable.table.erased, DeviceTable.table.erased,
            PushOutbox.table.erased,
        ]
    }

    public init(store: Store) {
        self.store = store
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [NotificationsService(notifications: self).declaration.rpcService(kit)]
    }
}

extension Notifications {
    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store)
    }
}
