import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Couriers (food drivers, water delivery staff) going online or offline and reporting where
/// they are. Both write the courier's one status record without an expected version and under
/// its lock, so neither ever fails because the other changed it (the last call wins); a
/// position older than the stored one is dropped.
struct CourierAvailability {
    let commerce: Commerce
    var store: Store { commerce.store }

    func setAvailability(_ request: SoukV1.SetCourierAvailabilityRequest, _ call: SoukCall) async throws -> SoukV1.CourierStatus {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let position = request.online ? try GeoFields.position(request.location, field: "location") : nil
        let courierID = caller.accountID
        let market = marketplaceID.description
        let saved = try await store.write { transaction -> SoukV1.CourierStatus in
            let existing = try transaction.get(CourierTable.table, courierID)
            if let existing, existing.value.marketplaceID != market { throw RPCError.notFound("courier", courierID.description) }
            // Water staff carry no active delivery on their status: their deliveries under way
            // (in progress or delayed) keep them online as a driver's open delivery does.
            if !request.online, let existing, try CourierTracking.isUnderWay(existing, vertical: marketplace.vertical, transaction: transaction) {
                guard let active = try Couriers.openDelivery(of: existing, transaction: transaction)?.description else {
                    throw RPCError.souk(
                        .failedPrecondition, .courierBusy, "a delivery is under way with this courier; complete it before going offline")
                }
                throw RPCError.souk(
                    .failedPrecondition, .courierBusy,
                    "delivery \(active) is offered to or in progress with this driver; finish or answer it before going offline",
                    metadata: ["resource_type": "delivery", "resource_id": active])
            }
            let change: (inout CourierRecord) -> Void = { record in
                record.status.online = request.online
                if let position {
                    record.status.location = SoukV1.GeoPoint(latitude: position.latitude, longitude: position.longitude)
                    record.status.locationTime = Timestamp(transaction.now)
                }
            }
            guard existing != nil else {
                var record = CourierRecord(marketplaceID: market, SoukStoreV1.CourierStatus())
                change(&record)
                return CourierProjection.status(try transaction.insert(CourierTable.table, record, id: courierID))
            }
            let updated = try transaction.update(CourierTable.table, courierID, change)
            return try Self.shown(updated, at: transaction.now) { try transaction.get(DeliveryTable.table, $0) }
        }
        return saved
    }

    /// The status as the contract shows it: a delivery the courier no longer holds (an offer
    /// past its time, its timer not yet fired) is not shown as theirs.
    static func shown(
        _ record: StoredRecord<CourierRecord>, at now: StoreTime, read: (RecordID) throws -> StoredRecord<DeliveryRecord>?
    ) throws -> SoukV1.CourierStatus {
        var status = CourierProjection.status(record)
        if try Couriers.openDelivery(of: record, at: now, read: read) == nil { status.activeDeliveryID = "" }
        return status
    }

    /// Access: the courier themself (empty id), or an admin.
    static var statusOwnership: Ownership<SoukV1.GetCourierStatusRequest> {
        Ownership { request, _, caller, roles in
            roles.contains(.courier) && (request.courierAccountID.isEmpty || request.courierAccountID == caller.accountID.description)
        }
    }

    func status(_ request: SoukV1.GetCourierStatusRequest, _ call: SoukCall) async throws -> SoukV1.CourierStatus {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let named = try checks.run { try RequestFields.optionalID(request.courierAccountID, field: "courier_account_id") }
        try checks.finish()
        let id = named.flatMap { $0 } ?? caller.accountID
        guard let record = try store.get(CourierTable.table, id), record.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("courier", id.description)
        }
        return try Self.shown(record, at: commerce.now) { try store.get(DeliveryTable.table, $0) }
    }

    func reportStream(_ requests: RPCReader<SoukV1.ReportLocationRequest>, _ call: SoukCall) async throws -> SoukV1.ReportLocationResponse {
        var response = SoukV1.ReportLocationResponse()
        for try await request in requests {
            if try await report(request.location, request.locationTime, call) {
                response.acceptedCount += 1
            } else {
                response.droppedCount += 1
            }
        }
        return response
    }

    func update(_ request: SoukV1.UpdateCourierLocationRequest, _ call: SoukCall) async throws -> SoukV1.ReportLocationResponse {
        let accepted = try await report(request.location, request.locationTime, call)
        return SoukV1.ReportLocationResponse(acceptedCount: accepted ? 1 : 0, droppedCount: accepted ? 0 : 1)
    }

    /// Stores one position of the calling courier; false when it is older than the stored one.
    /// A device time ahead of the server's counts as now, so a fast clock cannot hide the
    /// positions that follow it. While the courier has a delivery under way, the position is
    /// also the next event of their location stream (WatchCourierLocation).
    func report(_ point: SoukV1.GeoPoint?, _ time: Timestamp?, _ call: SoukCall) async throws -> Bool {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let position = try GeoFields.position(point, field: "location")
        let courierID = caller.accountID
        return try await store.write { transaction in
            guard let record = try transaction.get(CourierTable.table, courierID), record.value.marketplaceID == marketplaceID.description,
                  record.value.status.online
            else { throw RPCError.souk(.failedPrecondition, .courierOffline, "the driver is offline; go online first") }
            let fix = min(time.map(StoreTime.init) ?? transaction.now, transaction.now)
            if let stored = record.value.status.locationTime, StoreTime(stored) > fix { return false }
            let location = SoukV1.GeoPoint(latitude: position.latitude, longitude: position.longitude)
            let updated = try transaction.updateMaintainedFields(CourierTable.table, courierID) {
                $0.status.location = location
                $0.status.locationTime = Timestamp(fix)
            }
            if try CourierTracking.isUnderWay(updated, vertical: marketplace.vertical, transaction: transaction) {
                try CourierTracking.append(
                    courierID, SoukV1.CourierLocationEvent(
                        deliveryID: updated.value.status.activeDeliveryID, courierAccountID: courierID.description, location: location,
                        locationTime: Timestamp(fix)),
                    transaction: transaction)
            }
            return true
        }
    }
}
