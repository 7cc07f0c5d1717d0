import SoukGRPC
import SoukIdentity
import SoukKit
import SoukStore

/// The notifications platform every vertical tells its parties through: the stored
/// notifications and their unread counts (`Notifier`, written in the caller's transaction, in the
/// recipient's language), the push outbox (`PushOutbox`) and the Notifications service.
public final class Notifications: SoukDomain {
    public let store: Store

    public static var tables: [AnyTable] {
        [
            NotificationTable.table.erased, UnreadCountTable.table.erased, SettingsTable.table.erased, DeviceTable.table.erased,
            PushOutbox.table.erased,
        ]
    }

    /// Notifications are written in their recipient's language, read from identity's accounts
    /// (`Identity.locale(of:_:)`).
    public static var dependencies: [any SoukDomain.Type] { [Identity.self] }

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
