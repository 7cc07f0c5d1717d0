import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Nearby places (schools, markets, hospitals, transit…): admins manage them; everyone finds
/// those near a listing or a point, nearest first.
struct Places {
    let store: Store

    static let maskPaths: Set<String> = ["name", "category", "address", "location"]

    func create(_ request: SoukV1.CreatePlaceRequest, _ call: SoukCall) async throws -> SoukV1.Place {
        let input = request.place ?? SoukV1.Place()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) }
        try Self.check(input, paths: Self.maskPaths, into: &checks)
        try checks.finish()
        var place = SoukStoreV1.Place()
        Self.apply(Self.maskPaths, from: input, to: &place)
        return try await store.createOnce(
            PlaceTable.table, place, resource: .place, state: "CREATED", request: request, requestID: requestID!, call: call, view: PlaceProjection.place)
    }

    func update(_ request: SoukV1.UpdatePlaceRequest, _ call: SoukCall) async throws -> SoukV1.Place {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.place ?? SoukV1.Place()
        var checks = FieldChecks()
        let placeID = try checks.run { try RequestFields.id(input.id, field: "place.id") }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.maskPaths) }
        try Self.check(input, paths: Set(maskPaths ?? []), into: &checks)
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (id, paths, expected) = (placeID!, maskPaths!, expectedVersion ?? nil)
        return PlaceProjection.place(try await store.updateFields(
            PlaceTable.table, id, in: marketplaceID, "place", resource: .place, paths: paths, expectedVersion: expected, actor: AuditActor(call),
            change: { Self.apply(paths, from: input, to: &$0.subject) }))
    }

    func delete(_ request: SoukV1.DeletePlaceRequest, _ call: SoukCall) async throws -> SoukV1.DeletePlaceResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try FieldChecks.target(request.placeID, field: "place_id", expectedVersion: request.expectedVersion)
        let actor = AuditActor(call)
        try await store.write { transaction in
            _ = try transaction.require(PlaceTable.table, id, in: marketplaceID, "place", expectedVersion: expected)
            let deleted = try transaction.delete(PlaceTable.table, id)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .place, id: id.description),
                actor: actor, to: "DELETED", resourceVersion: deleted.version)
        }
        return SoukV1.DeletePlaceResponse()
    }

    func listNearby(_ request: SoukV1.ListNearbyPlacesRequest, _ call: SoukCall) async throws -> SoukV1.ListNearbyPlacesResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        var listingID: RecordID?
        var point: GeoPosition?
        switch request.origin {
        case .listingID(let text)?: listingID = try checks.run { try RequestFields.id(text, field: "listing_id") }
        case .near(let near)?: point = try checks.run { try SearchArea.point(near, field: "near") }
        case nil: checks.add("listing_id", "is required: give listing_id or near")
        }
        let radiusMeters = try checks.run { try SearchArea.radius(request.radiusMeters, default: 2_000, most: 20_000) }
        try checks.finish()
        let radius = radiusMeters!
        var center = point ?? GeoPosition(latitude: 0, longitude: 0)
        if let id = listingID {
            let listing = try store.require(ListingTable.table, id, in: marketplaceID, "listing")
            guard ListingViews.canSee(listing.value.subject, call), let position = ListingRules.position(listing.value.subject) else {
                throw RPCError.notFound("listing", id.description)
            }
            center = position
        }
        let categories = Array(Set(request.categories.filter { $0 != .unspecified })).sorted { $0.rawValue < $1.rawValue }
        // One category reads its own scope; several read every place and keep theirs.
        let scope = categories.count == 1 ? PlaceScope.category(categories[0]) : PlaceScope.any
        let filters = "\(listingID?.description ?? "");\(center.latitude),\(center.longitude);\(radius);\(categories.map(\.rawValue))"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.nearest(
            PlaceTable.table, PlaceTable.geo,
            GeoQuery(scope: [.string(marketplaceID.description), .string(scope)], center: center, radiusMeters: radius, limit: page.size, pageToken: page.token))
        let wanted = Set(categories)
        return SoukV1.ListNearbyPlacesResponse(
            places: result.hits.filter { wanted.isEmpty || wanted.contains($0.record.value.subject.category) }.map {
                SoukV1.NearbyPlace(place: PlaceProjection.place($0.record), distanceMeters: SearchArea.meters($0.distanceMeters))
            },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// Records in `checks` what is wrong with the fields `paths` names of `place`.
    static func check(_ place: SoukV1.Place, paths: Set<String>, into checks: inout FieldChecks) throws {
        if paths.contains("name"), let problem = RentalsText.problem(place.name, limit: 120) { checks.add("place.name", problem) }
        if paths.contains("category") {
            let known = place.category != .unspecified && SoukV1.PlaceCategory.allCases.contains(place.category)
            checks.require(known, "place.category", "must be a place category (school, market, hospital, …)")
        }
        if paths.contains("address") || paths.contains("location") {
            if let location = place.address?.location {
                try checks.check { _ = try SearchArea.point(location, field: "place.address.location") }
            } else {
                checks.add("place.address.location", "is required")
            }
        }
    }

    /// "location" changes only the address's position; "address" the whole address.
    static func apply(_ paths: some Sequence<String>, from input: SoukV1.Place, to place: inout SoukStoreV1.Place) {
        for path in paths {
            switch path {
            case "name": place.name = input.name
            case "category": place.category = input.category
            case "address": place.address = input.address
            default:
                var address = place.address ?? SoukV1.Address()
                address.location = input.address?.location
                place.address = address
            }
        }
    }
}
