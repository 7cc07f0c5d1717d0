import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Reports`: food delivery's restaurant reports and driver earnings, read from the
/// totals kept with the orders (`FoodTotals`). The dashboards (overview, transactions, rentals)
/// are the reports module's (`SoukReports`); `ServiceAssembly` joins the two declarations.
struct ReportsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Reports {
        SoukV1Services.Reports(
            getOrdersOverview: .unimplemented,
            listRestaurantReports: .handler(verticals: [.foodDelivery], owner: Self.restaurantOwnership(store: store), listRestaurantReports),
            listCourierEarnings: .handler(verticals: [.foodDelivery], owner: .account(\.courierAccountID), listCourierEarnings),
            getTransactionReport: .unimplemented,
            getRentalRevenueReport: .unimplemented)
    }

    /// A provider owns the report of the restaurant it runs (named, or by default).
    static func restaurantOwnership(store: Store) -> Ownership<SoukV1.ListRestaurantReportsRequest> {
        Ownership { request, call, caller, _ in
            guard !request.restaurantID.isEmpty else { return true }
            return try FoodRestaurants.owner(of: request.restaurantID, call: call, store: store) == caller.accountID.description
        }
    }

    func listRestaurantReports(_ request: SoukV1.ListRestaurantReportsRequest, _ call: SoukCall) async throws -> SoukV1.ListRestaurantReportsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let window = try Self.window(request.period, request.endTime, marketplace: marketplace, now: commerce.now)
        var restaurant = request.restaurantID
        // A restaurant's own report when it asks (the Access line lets it see no other).
        if restaurant.isEmpty, call.actorRole == .provider, let caller = call.caller {
            guard let owned = try FoodRestaurants.restaurant(ownedBy: caller.accountID, marketplaceID: marketplaceID, store: store) else {
                return SoukV1.ListRestaurantReportsResponse(window: window.window)
            }
            restaurant = owned
        }
        let subject = restaurant.isEmpty ? nil : try RequestFields.id(restaurant, field: "restaurant_id").description
        let sums = try window.sums(kind: .restaurant, subjectID: subject, marketplaceID: marketplaceID.description, store: store)
        let ranked = sums.values.sorted { ($0[.revenue], $1.subjectID) > ($1[.revenue], $0.subjectID) }
        let (page, next) = try Self.page(ranked, size: request.pageSize, token: request.pageToken, filters: "r|\(request.period.rawValue)|\(window.last)|\(restaurant)")
        var response = SoukV1.ListRestaurantReportsResponse()
        let currency = marketplace.currencyCode
        response.restaurants = try page.map { totals in
            var report = SoukV1.RestaurantReport()
            report.restaurantID = totals.subjectID
            report.restaurantName = try FoodRestaurants.name(of: totals.subjectID, store: store)
            report.ordersPlaced = totals[.placed]
            report.ordersCompleted = totals[.completed]
            report.ordersCancelled = totals[.cancelled]
            report.revenue = SoukV1.Money(amountMinor: totals[.revenue], currencyCode: currency)
            report.commission = SoukV1.Money(amountMinor: totals[.commission], currencyCode: currency)
            return report
        }
        response.nextPageToken = next
        response.window = window.window
        return response
    }

    func listCourierEarnings(_ request: SoukV1.ListCourierEarningsRequest, _ call: SoukCall) async throws -> SoukV1.ListCourierEarningsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let window = try Self.window(request.period, request.endTime, marketplace: marketplace, now: commerce.now)
        // A driver's own totals when they ask (the Access line lets them see no one else's).
        var courier = request.courierAccountID
        if courier.isEmpty, call.actorRole == .courier, let caller = call.caller { courier = caller.accountID.description }
        let subject = courier.isEmpty ? nil : try RequestFields.id(courier, field: "courier_account_id").description
        let sums = try window.sums(kind: .courier, subjectID: subject, marketplaceID: marketplaceID.description, store: store)
        let ranked = sums.values.sorted { ($0[.earnings], $1.subjectID) > ($1[.earnings], $0.subjectID) }
        let (page, next) = try Self.page(ranked, size: request.pageSize, token: request.pageToken, filters: "c|\(request.period.rawValue)|\(window.last)|\(courier)")
        let currency = marketplace.currencyCode
        var response = SoukV1.ListCourierEarningsResponse()
        response.couriers = try page.map { totals in
            var earnings = SoukV1.CourierEarnings()
            earnings.courier = try OrderParties.summary(totals.subjectID, vertical: marketplace.vertical, store: store)
            earnings.deliveriesCompleted = totals[.deliveries]
            earnings.earnings = SoukV1.Money(amountMinor: totals[.earnings], currencyCode: currency)
            earnings.cashCollected = SoukV1.Money(amountMinor: totals[.cashCollected], currencyCode: currency)
            earnings.cashUnconfirmed = SoukV1.Money(amountMinor: totals[.cashUnconfirmed], currencyCode: currency)
            return earnings
        }
        response.nextPageToken = next
        response.window = window.window
        return response
    }

    static func window(_ period: SoukV1.ReportPeriod, _ endTime: Timestamp?, marketplace: SoukV1.Marketplace, now: StoreTime) throws -> ReportWindow {
        let end = endTime.map(StoreTime.init) ?? now
        var checks = FieldChecks()
        checks.require(end <= now, "end_time", "must not be in the future")
        let window = try checks.run { try ReportWindow(period: period, end: end, clock: MarketplaceClock(timeZone: marketplace.timeZone)) }
        try checks.finish()
        return window!
    }

    /// One page of a ranked list; the token is the offset of the next page, bound to the filters.
    static func page(_ ranked: [FoodTotals], size: Int32, token: String, filters: String) throws -> ([FoodTotals], String) {
        let request = try RequestFields.page(size: size, token: token, filters: filters)
        let offset = try request.token.map { text -> Int in
            guard let offset = Int(text), offset >= 0 else { throw RPCError.invalidField("page_token", "is not a token of this list") }
            return offset
        } ?? 0
        let page = Array(ranked.dropFirst(offset).prefix(request.size))
        let end = offset + page.count
        return (page, RequestFields.nextPageToken(end < ranked.count ? String(end) : nil, filters: filters))
    }
}
