import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Notifications`: the caller's stored notifications. Devices and pushes are not served yet.
struct NotificationsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Notifications {
        SoukV1Services.Notifications(
            listNotifications: .unimplemented,
            markNotificationsRead: .unimplemented,
            watchNotifications: .unimplemented,
            getNotificationSettings: .unimplemented,
            updateNotificationSettings: .unimplemented,
            registerDevice: .unimplemented,
            unregisterDevice: .unimplemented,
            listPushOutbox: .unimplemented,
            completePush: .unimplemented)
    }
}
