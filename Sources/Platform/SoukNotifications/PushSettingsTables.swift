import SoukKit
import SoukMessages
import SoukStore

/// An account's notification settings in one marketplace (`souk.store.v1.NotificationSettings`).
/// No record means everything on. RPCs answer with `PushSettingsProjection`.
typealias SettingsRecord = MarketRecord<SoukStoreV1.NotificationSettings>

/// Settings per marketplace and account: at most one record each.
enum SettingsTable {
    static let byAccount = Index<SettingsRecord>.unique("notification_settings.account") {
        [.string($0.marketplaceID), .string($0.subject.accountID)]
    }
    static let table = marketTable("notification_settings", SoukStoreV1.NotificationSettings.self, indexes: [byAccount])
}

/// A push device (`souk.store.v1.Device`). RPCs answer with `PushSettingsProjection.device`.
typealias DeviceRecord = MarketRecord<SoukStoreV1.Device>

/// Devices per marketplace: one per token (registering it again moves it), listed per account.
enum DeviceTable {
    static let byToken = Index<DeviceRecord>.unique("devices.token") { [.string($0.marketplaceID), .string($0.subject.token)] }
    static let byAccount = Index<DeviceRecord>.nonUnique("devices.account") {
        [.string($0.marketplaceID), .string($0.subject.accountID)]
    }
    static let table = marketTable("devices", SoukStoreV1.Device.self, indexes: [byToken, byAccount])
}

/// What a caller sees of settings and devices: the contract's messages, field by field.
enum PushSettingsProjection {
    /// The stored settings, or the defaults (everything on) when `record` is nil.
    static func settings(_ record: StoredRecord<SettingsRecord>?) -> SoukV1.NotificationSettings {
        var shown = SoukV1.NotificationSettings()
        guard let record else { return shown }
        shown.mutedCategories = record.value.subject.mutedCategories
        shown.mutedKinds = record.value.subject.mutedKinds
        shown.pushDisabled = record.value.subject.pushDisabled
        shown.version = Int64(record.version)
        shown.updateTime = Timestamp(record.updatedAt)
        return shown
    }

    static func device(_ record: StoredRecord<DeviceRecord>) -> SoukV1.Device {
        var shown = SoukV1.Device()
        shown.id = record.id.description
        shown.accountID = record.value.subject.accountID
        shown.platform = record.value.subject.platform
        shown.token = record.value.subject.token
        shown.appID = record.value.subject.appID
        shown.deviceName = record.value.subject.deviceName
        shown.version = Int64(record.version)
        shown.createTime = Timestamp(record.createdAt)
        shown.updateTime = Timestamp(record.updatedAt)
        return shown
    }
}
