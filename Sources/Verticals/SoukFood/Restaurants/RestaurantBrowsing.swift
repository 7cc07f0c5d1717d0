import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Listing and searching restaurants. Guests read the indexes of visible restaurants (approved,
/// not archived): near a point through the geo index, else by name or rating; admins list by
/// approval state; an owner reads its own restaurant.
struct RestaurantBrowsing {
    let commerce: Commerce
    var store: Store { commerce.store }

    func list(_ request: SoukV1.ListRestaurantsRequest, _ call: SoukCall) async throws -> SoukV1.ListRestaurantsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = marketplaceID.description
        let states = Set(request.approvalStates)
        if !states.isEmpty {
            guard RestaurantView.isAdmin(call) else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "only admins list restaurants by approval state", field: "approval_states")
            }
            guard request.near == nil, !request.openOnly, request.category.isEmpty, request.ownerAccountID.isEmpty else {
                throw RPCError.invalidField("approval_states", "cannot be combined with near, open_only, category or owner_account_id")
            }
            let filters = "approval;\(states.map(\.rawValue).sorted());archived=\(request.showArchived)"
            let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
            // One state is one range of the index; several are the marketplace's range, by state.
            let prefix: [KeyPart] = states.count == 1 ? [.string(market), .enumCase(states.first!)] : [.string(market)]
            let result = try store.list(RestaurantTable.table, RestaurantTable.byApproval, .starting(with: prefix), page: page)
            return SoukV1.ListRestaurantsResponse(
                restaurants: result.items
                    .filter { states.contains($0.value.subject.approvalState) && (request.showArchived || !$0.value.subject.archived) }
                    .map { Self.result($0, distance: nil) },
                nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
        }
        if !request.ownerAccountID.isEmpty {
            let owner = try RequestFields.id(request.ownerAccountID, field: "owner_account_id")
            guard RestaurantView.isAdmin(call) || call.caller?.accountID == owner else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "only admins list another account's restaurant", field: "owner_account_id")
            }
            let found = try store.get(RestaurantTable.table, unique: RestaurantTable.byOwner, [.string(market), .string(owner.description)])
            let shown = [found].compactMap { $0 }.filter { request.showArchived || !$0.value.subject.archived }
            return SoukV1.ListRestaurantsResponse(restaurants: shown.map { Self.result($0, distance: nil) }, nextPageToken: "")
        }
        guard !request.showArchived else { throw RPCError.invalidField("show_archived", "needs owner_account_id or approval_state") }
        let category = ProductText.sortKey(request.category)
        let facet = RestaurantFacet.key(openOnly: request.openOnly, category: category)
        if let near = request.near {
            let area = try SearchArea(near, radiusMeters: request.radiusMeters)
            return try nearby(market, facet: facet, area: area, orderBy: request.orderBy, pageSize: request.pageSize,
                              pageToken: request.pageToken, filters: "list;\(facet)", matches: { _ in true })
        }
        let index: Index<RestaurantRecord>
        let direction: ScanDirection
        switch request.orderBy.trimmingCharacters(in: .whitespaces).lowercased() {
        case "", "name": (index, direction) = (RestaurantTable.byName, .ascending)
        case "rating desc": (index, direction) = (RestaurantTable.byRating, .descending)
        default: throw RPCError.invalidField("order_by", "must be name or rating desc (distance needs near)")
        }
        let filters = "list;\(facet);\(index.name)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(RestaurantTable.table, index, .starting(with: [.string(market), .string(facet)]), direction: direction, page: page)
        return SoukV1.ListRestaurantsResponse(
            restaurants: result.items.map { Self.result($0, distance: nil) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func search(_ request: SoukV1.SearchRestaurantsRequest, _ call: SoukCall) async throws -> SoukV1.ListRestaurantsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = marketplaceID.description
        var checks = FieldChecks()
        let words = try checks.run { try SearchWords(request.query, required: true).words } ?? []
        let area = try request.near.flatMap { near in try checks.run { try SearchArea(near, radiusMeters: request.radiusMeters) } }
        if request.near == nil {
            checks.require(["", "name"].contains(request.orderBy.trimmingCharacters(in: .whitespaces).lowercased()), "order_by", "must be name without near")
        }
        try checks.finish()
        let category = ProductText.sortKey(request.category)
        let facet = RestaurantFacet.key(openOnly: request.openOnly, category: category)
        let matches: @Sendable (SoukStoreV1.Restaurant) -> Bool = { SearchWords.match(words, in: $0.name) }
        if let area {
            return try nearby(market, facet: facet, area: area, orderBy: request.orderBy, pageSize: request.pageSize,
                              pageToken: request.pageToken, filters: "search;\(facet);\(words.joined(separator: " "))", matches: matches)
        }
        // The longest word is the most selective; the index holds prefixes up to SearchText.maxPrefix.
        let key = String(words.max(by: { $0.count < $1.count })!.prefix(SearchText.maxPrefix))
        let filters = "search;\(facet);\(words.joined(separator: " "))"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(RestaurantTable.table, RestaurantTable.byNameWord, .starting(with: [.string(market), .string(key)]), page: page)
        let wanted = Set([facet])
        return SoukV1.ListRestaurantsResponse(
            restaurants: result.items
                .filter { matches($0.value.subject) && !wanted.isDisjoint(with: RestaurantFacet.of($0.value.subject)) }
                .map { Self.result($0, distance: nil) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// Visible restaurants of `facet` within the area, nearest first, or by rating: then the
    /// page is one slice of every restaurant within the radius (at most `ratingCap`), sorted by
    /// rating, the token holding the offset.
    private func nearby(
        _ market: String, facet: String, area: SearchArea, orderBy: String, pageSize: Int32, pageToken: String, filters: String,
        matches: @escaping @Sendable (SoukStoreV1.Restaurant) -> Bool
    ) throws -> SoukV1.ListRestaurantsResponse {
        let order = orderBy.trimmingCharacters(in: .whitespaces).lowercased()
        guard ["", "distance", "rating desc"].contains(order) else { throw RPCError.invalidField("order_by", "must be distance or rating desc") }
        let stamp = "\(filters);\(area.stamp);\(order)"
        let page = try RequestFields.page(size: pageSize, token: pageToken, filters: stamp)
        let scope: [KeyPart] = [.string(market), .string(facet)]
        if order == "rating desc" {
            let offset = try page.token.map { text -> Int in
                guard let number = Int(text), number >= 0 else {
                    throw RPCError.invalidField("page_token", "is not a token from a previous page of this list")
                }
                return number
            } ?? 0
            var hits: [GeoHit<RestaurantRecord>] = []
            var token: String?
            repeat {
                let batch = try store.nearest(
                    RestaurantTable.table, RestaurantTable.geo,
                    GeoQuery(scope: scope, center: area.center, radiusMeters: area.radius, limit: 100, pageToken: token))
                hits += batch.hits.filter { matches($0.record.value.subject) }
                token = batch.nextPageToken
            } while token != nil && hits.count < Self.ratingCap
            let sorted = hits.prefix(Self.ratingCap).sorted { a, b in
                let (ra, rb) = (a.record.value.subject.rating?.averageHundredths ?? 0, b.record.value.subject.rating?.averageHundredths ?? 0)
                return ra != rb ? ra > rb : a.distanceMeters < b.distanceMeters
            }
            let slice = sorted.dropFirst(offset).prefix(page.size)
            let end = offset + slice.count
            return SoukV1.ListRestaurantsResponse(
                restaurants: slice.map { Self.result($0.record, distance: $0.distanceMeters) },
                nextPageToken: RequestFields.nextPageToken(end < sorted.count ? "\(end)" : nil, filters: stamp))
        }
        let result = try store.nearest(
            RestaurantTable.table, RestaurantTable.geo,
            GeoQuery(scope: scope, center: area.center, radiusMeters: area.radius, limit: page.size, pageToken: page.token))
        return SoukV1.ListRestaurantsResponse(
            restaurants: result.hits.filter { matches($0.record.value.subject) }.map { Self.result($0.record, distance: $0.distanceMeters) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: stamp))
    }

    /// Most restaurants a "rating desc" list near a point sorts.
    static let ratingCap = 500

    static func result(_ record: StoredRecord<RestaurantRecord>, distance: Double?) -> SoukV1.RestaurantResult {
        SoukV1.RestaurantResult(restaurant: RestaurantProjection.restaurant(record), distanceMeters: Int32(min(distance ?? 0, Double(Int32.max)).rounded()))
    }
}

/// A checked point and radius to search around.
struct SearchArea: Sendable {
    static let defaultRadius = 10_000.0
    static let maxRadius = 50_000.0

    var center: GeoPosition
    var radius: Double

    init(_ near: SoukV1.GeoPoint, radiusMeters: Int32) throws {
        var checks = FieldChecks()
        try checks.check { try FoodValidation.point(near, field: "near") }
        checks.require(radiusMeters >= 0 && Double(radiusMeters) <= Self.maxRadius, "radius_meters", "must be 0 (10 km) to 50000 meters")
        try checks.finish()
        center = GeoPosition(latitude: near.latitude, longitude: near.longitude)
        radius = radiusMeters == 0 ? Self.defaultRadius : Double(radiusMeters)
    }

    /// The area as text, for page tokens.
    var stamp: String { "\(center.latitude),\(center.longitude),\(radius)" }
}
