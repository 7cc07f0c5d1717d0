import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Available drivers ranked by distance for a restaurant: one geospatial index query, nearest
/// first, only drivers whose position is fresher than the marketplace's location_stale_after.
/// The ranking starts from a restaurant only (an order's pickup point, or the calling
/// restaurant's own place) and shows distances rounded to 100 m (`ShownDistance`): a caller
/// choosing the point could locate a driver from three answers (DOMAIN decision 24).
struct CourierRanking {
    let commerce: Commerce
    var store: Store { commerce.store }

    static let defaultRadiusMeters: Int32 = 10_000
    static let maximumRadiusMeters: Int32 = 50_000

    func list(_ request: SoukV1.ListAvailableCouriersRequest, _ call: SoukCall) async throws -> SoukV1.ListAvailableCouriersResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let isAdmin = caller.isOperator || caller.activeRoles.contains(.admin)
        var checks = FieldChecks()
        let orderID = try checks.run { try RequestFields.optionalID(request.orderID, field: "order_id") }
        checks.require(isAdmin ? !request.orderID.isEmpty : true, "order_id", "is required: an admin ranks drivers from an order's restaurant")
        let radius = request.radiusMeters == 0 ? Self.defaultRadiusMeters : request.radiusMeters
        checks.require((1...Self.maximumRadiusMeters).contains(radius), "radius_meters", "must be between 1 and \(Self.maximumRadiusMeters)")
        let filters = "\(request.orderID)|\(radius)"
        let requested = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let center = try origin(orderID.flatMap { $0 }, caller: caller, isAdmin: isAdmin, marketplaceID: marketplaceID)
        let rules = DispatchRules(marketplace)
        // Whoever is listed has a shown (rounded) distance within the radius, so narrowing the
        // radius reveals no more than the rounded distance does.
        let result = try Couriers.nearest(
            GeoQuery(scope: Couriers.scope(marketplaceID.description), center: center,
                     radiusMeters: Double(radius) + ShownDistance.step / 2, minimumStamp: rules.freshSince(commerce.now),
                     limit: requested!.size, pageToken: requested!.token), in: store)
        var response = SoukV1.ListAvailableCouriersResponse()
        for hit in result.hits {
            let shown = ShownDistance.meters(hit.distanceMeters)
            // Nearest first: once one is beyond the radius, so is every later one.
            guard shown <= radius else { return response }
            var courier = SoukV1.AvailableCourier()
            courier.courier = try OrderParties.summary(hit.record.id.description, vertical: marketplace.vertical, store: store)
            courier.locationTime = hit.record.value.status.locationTime
            courier.distanceMeters = shown
            response.couriers.append(courier)
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }

    /// Where the ranking starts: the pickup point of `orderID` (an admin's, or the calling
    /// restaurant's own order), else the calling provider's restaurant.
    private func origin(_ orderID: RecordID?, caller: Caller, isAdmin: Bool, marketplaceID: RecordID) throws -> GeoPosition {
        if let orderID {
            let order = try Orders.require(orderID, in: marketplaceID, store).value.subject
            guard isAdmin || order.sellerAccountID == caller.accountID.description else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "order \(orderID) is not one of the caller's restaurant orders")
            }
            return try DeliveryOffers.pickup(order)
        }
        guard let restaurant = try store.get(
            RestaurantTable.table, unique: RestaurantTable.byOwner, [.string(marketplaceID.description), .string(caller.accountID.description)]),
            let point = restaurant.value.subject.address?.location
        else {
            throw RPCError.souk(
                .notFound, .resourceNotFound, "account \(caller.accountID) has no restaurant to rank drivers from",
                metadata: ["resource_type": "restaurant"])
        }
        return GeoPosition(point)
    }
}
