import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Search of published listings, open to guests: by words of the title and address
/// (`SearchText`: case and Vietnamese diacritics ignored), within a radius of a point, and
/// recommended by distance and rent.
struct ListingSearch {
    let store: Store

    /// Most listings a search orders in memory (distance order of a text search,
    /// recommendations); the rest of the radius or the matches is left out.
    static let rankCap = 1000
    /// Most index pages one result page reads before it answers with what it found.
    static let readsPerPage = 8
    static let maxQueryWords = 10

    func search(_ request: SoukV1.SearchListingsRequest, _ call: SoukCall) async throws -> SoukV1.SearchListingsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let market = marketplaceID.description
        var checks = FieldChecks()
        let checkedFilters = try checks.run { try ListingFilters(request.filter, currency: marketplace.currencyCode) }
        let words = Array(Set(SearchText.words(request.query))).sorted()
        checks.require(words.count <= Self.maxQueryWords, "query", "must have at most \(Self.maxQueryWords) words")
        let sort = try checks.run { try Self.order(request) } ?? .newest
        let near = try request.near.flatMap { point in try checks.run { try SearchArea.point(point, field: "near") } }
        checks.require(sort != .distance || request.near != nil, "near", "is required to sort by distance")
        let stamp = "\(words);\(checkedFilters?.stamp ?? "");\(sort.rawValue);\(near.map { "\($0.latitude),\($0.longitude)" } ?? "")"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp) }
        try checks.finish()
        let (filters, page) = (checkedFilters!, checkedPage!)
        let matches: @Sendable (SoukStoreV1.Listing) -> Bool = { listing in
            filters.matches(listing) && (words.isEmpty || SearchText.everyWordBegins(words, oneOf: ListingText.words(listing)))
        }
        // The longest word is the likeliest to be rare: the range of its prefix (as the index
        // holds it) is read, the others checked.
        let key = words.max { $0.count != $1.count ? $0.count < $1.count : $0 > $1 }.map { String($0.prefix(SearchText.maxPrefix)) }
        let (index, prefix): (Index<ListingRecord>, [KeyPart]) = switch (key, sort) {
        case (let word?, .rentAscending), (let word?, .rentDescending): (ListingTable.byWordRent, [.string(market), .string(word)])
        case (let word?, _): (ListingTable.byWord, [.string(market), .string(word)])
        case (nil, .rentAscending), (nil, .rentDescending): (ListingTable.byFacetRent, [.string(market), .string(filters.facet)])
        case (nil, _): (ListingTable.byFacet, [.string(market), .string(filters.facet)])
        }
        if sort == .distance, let near {
            return try byDistance(index, prefix, near: near, page: page, stamp: stamp, matches: matches, call)
        }
        let direction: ScanDirection = sort == .rentAscending ? .ascending : .descending
        var found: [StoredRecord<ListingRecord>] = []
        var token = page.token
        var reads = 0
        repeat {
            let batch = try store.list(
                ListingTable.table, index, .starting(with: prefix), direction: direction, page: PageRequest(size: page.size - found.count, token: token))
            found += batch.items.filter { matches($0.value.subject) }
            token = batch.nextPageToken
            reads += 1
        } while token != nil && found.count < page.size && reads < Self.readsPerPage
        let views = ListingViews(store: store)
        return SoukV1.SearchListingsResponse(
            listings: try found.map { record in
                let distance = near.flatMap { point in ListingRules.position(record.value.subject).map { GeoDistance.meters(point, $0) } }
                return SoukV1.ListingResult(listing: try views.view(ListingProjection.listing(record), call), distanceMeters: distance.map(SearchArea.meters) ?? 0)
            },
            nextPageToken: RequestFields.nextPageToken(token, filters: stamp))
    }

    /// The orders of a search, by their AIP-132 `order_by` text.
    enum Order: String, CaseIterable {
        case newest = "create_time desc"
        case rentAscending = "monthly_rent"
        case rentDescending = "monthly_rent desc"
        case distance = "distance"
    }

    /// The AIP-132 `order_by` of a search (`create_time desc` when empty).
    static func order(_ request: SoukV1.SearchListingsRequest) throws -> Order {
        let orderBy = request.orderBy.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if orderBy.isEmpty { return .newest }
        guard let order = Order(rawValue: orderBy) else {
            throw RPCError.invalidField("order_by", "must be " + Order.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return order
    }

    /// The first `rankCap` matches of the range, nearest to `near` first (ties by id); the page
    /// token holds the offset.
    private func byDistance(
        _ index: Index<ListingRecord>, _ prefix: [KeyPart], near: GeoPosition, page: PageRequest, stamp: String,
        matches: @Sendable (SoukStoreV1.Listing) -> Bool, _ call: SoukCall
    ) throws -> SoukV1.SearchListingsResponse {
        let offset = try Self.offset(page.token)
        var ranked: [(distance: Double, record: StoredRecord<ListingRecord>)] = []
        var token: String?
        repeat {
            let batch = try store.list(ListingTable.table, index, .starting(with: prefix), page: PageRequest(size: PageRequest.maximumSize, token: token))
            for record in batch.items where matches(record.value.subject) {
                guard let position = ListingRules.position(record.value.subject) else { continue }
                ranked.append((GeoDistance.meters(near, position), record))
            }
            token = batch.nextPageToken
        } while token != nil && ranked.count < Self.rankCap
        ranked = Array(ranked.prefix(Self.rankCap))
        ranked.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.record.id < $1.record.id }
        return try resultPage(ranked.map { ($0.record, $0.distance, 0) }, offset: offset, size: page.size, stamp: stamp, call)
    }

    func nearby(_ request: SoukV1.SearchNearbyListingsRequest, _ call: SoukCall) async throws -> SoukV1.SearchListingsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let checkedFilters = try checks.run { try ListingFilters(request.filter, currency: marketplace.currencyCode) }
        let point = try checks.run { try SearchArea.point(request.near, field: "near") }
        let checkedRadius = try checks.run { try SearchArea.radius(request.radiusMeters, default: 5_000, most: 50_000) }
        try checks.finish()
        let (filters, center, radius) = (checkedFilters!, point!, checkedRadius!)
        let stamp = "\(center.latitude),\(center.longitude);\(radius);\(filters.stamp)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp)
        let scope: [KeyPart] = [.string(marketplaceID.description), .string(filters.facet)]
        var found: [GeoHit<ListingRecord>] = []
        var token = page.token
        var reads = 0
        repeat {
            let batch = try store.nearest(
                ListingTable.table, ListingTable.geo,
                GeoQuery(scope: scope, center: center, radiusMeters: radius, limit: page.size - found.count, pageToken: token))
            found += batch.hits.filter { filters.matches($0.record.value.subject) }
            token = batch.nextPageToken
            reads += 1
        } while token != nil && found.count < page.size && reads < Self.readsPerPage
        let views = ListingViews(store: store)
        return SoukV1.SearchListingsResponse(
            listings: try found.map {
                SoukV1.ListingResult(listing: try views.view(ListingProjection.listing($0.record), call), distanceMeters: SearchArea.meters($0.distanceMeters))
            },
            nextPageToken: RequestFields.nextPageToken(token, filters: stamp))
    }

    /// Weights of the recommendation score (rentals.proto, RecommendListings).
    static let distanceWeight = 0.6
    static let rentWeight = 0.4

    func recommend(_ request: SoukV1.RecommendListingsRequest, _ call: SoukCall) async throws -> SoukV1.SearchListingsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let point = try checks.run { try SearchArea.point(request.near, field: "near") }
        let checkedRadius = try checks.run { try SearchArea.radius(request.radiusMeters, default: 10_000, most: 50_000) }
        var filter = SoukV1.ListingFilter(type: request.type)
        if let budget = request.maxMonthlyRent {
            checks.require(budget.amountMinor > 0, "max_monthly_rent", "must be above 0")
            filter.maxMonthlyRent = budget
        }
        let checkedFilters = try checks.run { try ListingFilters(filter, currency: marketplace.currencyCode) }
        try checks.finish()
        let (center, radius, filters) = (point!, checkedRadius!, checkedFilters!)
        let stamp = "\(center.latitude),\(center.longitude);\(radius);\(filters.stamp)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp)
        let offset = try Self.offset(page.token)
        var hits: [GeoHit<ListingRecord>] = []
        var token: String?
        repeat {
            let batch = try store.nearest(
                ListingTable.table, ListingTable.geo,
                GeoQuery(
                    scope: [.string(marketplaceID.description), .string(filters.facet)], center: center, radiusMeters: radius,
                    limit: PageRequest.maximumSize, pageToken: token))
            hits += batch.hits.filter { filters.matches($0.record.value.subject) }
            token = batch.nextPageToken
        } while token != nil && hits.count < Self.rankCap
        hits = Array(hits.prefix(Self.rankCap))
        let budget = Double(request.maxMonthlyRent?.amountMinor ?? hits.map { ListingRules.rent($0.record.value.subject) }.max() ?? 1)
        var scored: [(StoredRecord<ListingRecord>, Double, Double)] = hits.map { hit in
            let rent = ListingRules.rent(hit.record.value.subject)
            return (hit.record, hit.distanceMeters, Self.score(distance: hit.distanceMeters, radius: radius, rent: rent, budget: budget))
        }
        scored.sort { a, b in
            if a.2 != b.2 { return a.2 < b.2 }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.0.id < b.0.id
        }
        return try resultPage(scored, offset: offset, size: page.size, stamp: stamp, call)
    }

    /// score = 0.6 × distance / radius + 0.4 × rent / budget (lower is better).
    static func score(distance: Double, radius: Double, rent: Int64, budget: Double) -> Double {
        distanceWeight * (radius > 0 ? distance / radius : 0) + rentWeight * (budget > 0 ? Double(rent) / budget : 0)
    }

    /// One page of ranked results from `offset`.
    private func resultPage(
        _ ranked: [(StoredRecord<ListingRecord>, Double, Double)], offset: Int, size: Int, stamp: String, _ call: SoukCall
    ) throws -> SoukV1.SearchListingsResponse {
        let views = ListingViews(store: store)
        let slice = ranked.dropFirst(offset).prefix(size)
        let end = offset + slice.count
        return SoukV1.SearchListingsResponse(
            listings: try slice.map { record, distance, score in
                SoukV1.ListingResult(listing: try views.view(ListingProjection.listing(record), call), distanceMeters: SearchArea.meters(distance), score: score)
            },
            nextPageToken: RequestFields.nextPageToken(end < ranked.count ? "\(end)" : nil, filters: stamp))
    }

    private static func offset(_ token: String?) throws -> Int {
        guard let token else { return 0 }
        guard let offset = Int(token), offset >= 0 else { throw RPCError.invalidField("page_token", "is not a token from a previous page of this list") }
        return offset
    }
}
