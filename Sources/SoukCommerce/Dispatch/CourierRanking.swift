import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Available drivers ranked by distance for a restaurant: one geospatial index query, nearest
/// first, only drivers whose position is fresher than the marketplace's location_stale_after.
/// The drivers' positions are not shown, only their distance.
struct CourierRanking {
    let commerce: Commerce
    var store: Store { commerce.store }

    static let defaultRadiusMeters: Int32 = 10_000
    static let maximumRadiusMeters: Int32 = 50_000

    func list(_ request: SoukV1.ListAvailableCouriersRequest, _ call: SoukCall) async throws -> SoukV1.ListAvailableCouriersResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let center: GeoPosition
        switch (request.orderID.isEmpty, request.near) {
        case (false, nil):
            let orderID = try RequestFields.id(request.orderID, field: "order_id")
            let order = try store.require(OrderTable.table, orderID, in: marketplaceID, "order").value.subject
            let isAdmin = caller.isOperator || caller.activeRoles.contains(.admin)
            guard isAdmin || order.sellerAccountID == caller.accountID.description else {
                throw RPCError(.permissionDenied, "order \(orderID) is not one of the caller's restaurant orders")
            }
            guard let pickup = order.pickupAddress?.location else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "order \(order.orderNumber) has no pickup location")
            }
            center = GeoPosition(pickup)
        case (true, let near?):
            center = try GeoFields.position(near, field: "near")
        default:
            throw RPCError.invalidField("order_id", "set exactly one of order_id and near")
        }
        let radius = request.radiusMeters == 0 ? Self.defaultRadiusMeters : request.radiusMeters
        guard (1...Self.maximumRadiusMeters).contains(radius) else {
            throw RPCError.invalidField("radius_meters", "must be between 1 and \(Self.maximumRadiusMeters)")
        }
        let filters = "\(request.orderID)|\(center.latitude),\(center.longitude)|\(radius)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let rules = DispatchRules(marketplace)
        let result = try store.nearest(
            CourierTable.table, CourierTable.available,
            GeoQuery(scope: CourierTable.scope(marketplaceID.description), center: center, radiusMeters: Double(radius),
                     minimumStamp: rules.freshSince(commerce.now), limit: page.size, pageToken: page.token))
        var response = SoukV1.ListAvailableCouriersResponse()
        for hit in result.hits {
            var courier = SoukV1.AvailableCourier()
            courier.courier = try OrderParties.summary(hit.record.id.description, vertical: marketplace.vertical, store: store)
            courier.locationTime = hit.record.value.status.locationTime
            courier.distanceMeters = Int32(hit.distanceMeters.rounded())
            response.couriers.append(courier)
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }
}
