import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The caller's notification settings and push devices of `souk.v1.Notifications`.
struct PushSettingsService {
    let store: Store

    static let settingsMaskPaths: Set<String> = ["muted_categories", "muted_kinds", "push_disabled"]
    static let maxTokenLength = 4096
    static let maxAppIDLength = 255
    static let maxDeviceNameLength = 100

    func getSettings(_ request: SoukV1.GetNotificationSettingsRequest, _ call: SoukCall) async throws -> SoukV1.NotificationSettings {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        return PushSettingsProjection.settings(
            try store.get(SettingsTable.table, unique: SettingsTable.byAccount, [.string(marketplaceID.description), .string(caller.accountID.description)]))
    }

    /// Changes only the masked fields; the first write creates the record from the defaults.
    func updateSettings(_ request: SoukV1.UpdateNotificationSettingsRequest, _ call: SoukCall) async throws -> SoukV1.NotificationSettings {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.settings ?? SoukV1.NotificationSettings()
        var checks = FieldChecks()
        let paths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.settingsMaskPaths) } ?? []
        for (index, category) in input.mutedCategories.enumerated() where !Self.known(category.rawValue, of: SoukV1.NotificationCategory.self) {
            checks.add("settings.muted_categories[\(index)]", "must be a known category")
        }
        for (index, kind) in input.mutedKinds.enumerated() where !Self.known(kind.rawValue, of: SoukV1.NotificationKind.self) {
            checks.add("settings.muted_kinds[\(index)]", "must be a known kind")
        }
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        try checks.finish()
        let key: [KeyPart] = [.string(marketplaceID.description), .string(caller.accountID.description)]
        let stored = try await store.write { transaction -> StoredRecord<SettingsRecord> in
            func apply(_ settings: inout SoukStoreV1.NotificationSettings) {
                for path in paths {
                    switch path {
                    case "muted_categories": settings.mutedCategories = Self.distinct(input.mutedCategories)
                    case "muted_kinds": settings.mutedKinds = Self.distinct(input.mutedKinds)
                    default: settings.pushDisabled = input.pushDisabled
                    }
                }
            }
            if let current = try transaction.get(SettingsTable.table, unique: SettingsTable.byAccount, key) {
                return try transaction.update(SettingsTable.table, current.id, expectedVersion: expected) { apply(&$0.subject) }
            }
            if let expected, expected != 0 {
                throw StoreError.versionMismatch(table: SettingsTable.table.name, id: caller.accountID, expected: expected, actual: 0)
            }
            var settings = SoukStoreV1.NotificationSettings()
            settings.accountID = caller.accountID.description
            apply(&settings)
            return try transaction.insert(SettingsTable.table, SettingsRecord(marketplaceID: marketplaceID.description, settings))
        }
        return PushSettingsProjection.settings(stored)
    }

    /// Stores the token for the caller; a token known in this marketplace moves to the caller.
    func registerDevice(_ request: SoukV1.RegisterDeviceRequest, _ call: SoukCall) async throws -> SoukV1.Device {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        checks.require(!request.token.isEmpty, "token", "is required")
        checks.require(request.token.utf8.count <= Self.maxTokenLength, "token", "must be at most \(Self.maxTokenLength) bytes")
        checks.require(request.platform == .apns || request.platform == .fcm, "platform", "must be APNS or FCM")
        checks.require(!request.appID.isEmpty, "app_id", "is required (the app's bundle or package id)")
        checks.require(request.appID.utf8.count <= Self.maxAppIDLength, "app_id", "must be at most \(Self.maxAppIDLength) bytes")
        checks.require(request.deviceName.utf8.count <= Self.maxDeviceNameLength, "device_name", "must be at most \(Self.maxDeviceNameLength) bytes")
        if !request.requestID.isEmpty { _ = try checks.run { try RequestFields.requestID(request.requestID) } }
        try checks.finish()
        let device = SoukStoreV1.Device(
            accountID: caller.accountID.description, platform: request.platform, token: request.token, appID: request.appID,
            deviceName: request.deviceName)
        let market = marketplaceID.description
        let stored = try await store.write { transaction -> StoredRecord<DeviceRecord> in
            if let known = try transaction.get(DeviceTable.table, unique: DeviceTable.byToken, [.string(market), .string(request.token)]) {
                // The phone changed hands: what was waiting for its former account is not sent to it.
                if known.value.subject.accountID != device.accountID {
                    try PushOutbox.withdrawPending(deviceID: known.id, transaction: transaction)
                }
                return try transaction.update(DeviceTable.table, known.id) { $0.subject = device }
            }
            return try transaction.insert(DeviceTable.table, DeviceRecord(marketplaceID: market, device))
        }
        return PushSettingsProjection.device(stored)
    }

    /// The device's account, or an admin of the marketplace (or an operator), removes it.
    func unregisterDevice(_ request: SoukV1.UnregisterDeviceRequest, _ call: SoukCall) async throws -> SoukV1.UnregisterDeviceResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.deviceID, field: "device_id")
        let mayRemoveAny = caller.isOperator || caller.activeRoles.contains(.admin)
        try await store.write { transaction in
            let device = try transaction.require(DeviceTable.table, id, in: marketplaceID, "device")
            guard mayRemoveAny || device.value.subject.accountID == caller.accountID.description else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "only the device's account or an admin may remove it")
            }
            try transaction.delete(DeviceTable.table, id)
            try PushOutbox.withdrawPending(deviceID: id, transaction: transaction)
        }
        return SoukV1.UnregisterDeviceResponse()
    }

    /// The caller's own devices, oldest first. Only the device's own account ever sees its token
    /// here (and the push adapter in the outbox): an admin lists their own devices, nobody else's.
    func listDevices(_ request: SoukV1.ListDevicesRequest, _ call: SoukCall) async throws -> SoukV1.ListDevicesResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: "")
        let result = try store.list(
            DeviceTable.table, DeviceTable.byAccount,
            IndexRange.starting(with: [.string(marketplaceID.description), .string(caller.accountID.description)]), page: page)
        return SoukV1.ListDevicesResponse(
            devices: result.items.map(PushSettingsProjection.device), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: ""))
    }

    /// Whether `rawValue` names a value of `type` other than unspecified (0).
    private static func known<Value: ProtoEnum & CaseIterable>(_ rawValue: Int32, of type: Value.Type) -> Bool {
        rawValue != 0 && Value.allCases.contains { $0.rawValue == rawValue }
    }

    /// `values` once each, in the contract's order.
    private static func distinct<Value: ProtoEnum>(_ values: [Value]) -> [Value] {
        Set(values.map(\.rawValue)).sorted().map(Value.init(rawValue:))
    }
}
