import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Regions where the marketplace operates and their districts: admins manage them, everyone
/// reads them, and every listing names one region and one of its districts.
struct Regions {
    let store: Store

    static let maskPaths: Set<String> = ["name", "districts", "archived"]

    func create(_ request: SoukV1.CreateRegionRequest, _ call: SoukCall) async throws -> SoukV1.Region {
        let input = request.region ?? SoukV1.Region()
        var checks = FieldChecks()
        let checkedRequestID = try checks.run { try RequestFields.requestID(request.requestID) }
        Self.check(input, paths: Self.maskPaths, into: &checks)
        try checks.finish()
        let region = SoukStoreV1.Region(name: input.name, districts: input.districts)
        let requestID = checkedRequestID!
        do {
            return try await store.createOnce(
                RegionTable.table, region, resource: .region, state: "CREATED", request: request, requestID: requestID, call: call,
                view: RegionProjection.region)
        } catch let error as StoreError {
            throw Self.duplicateName(error, region.name)
        }
    }

    func get(_ request: SoukV1.GetRegionRequest, _ call: SoukCall) async throws -> SoukV1.Region {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.regionID, field: "region_id")
        return RegionProjection.region(try store.require(RegionTable.table, id, in: marketplaceID, "region"))
    }

    func list(_ request: SoukV1.ListRegionsRequest, _ call: SoukCall) async throws -> SoukV1.ListRegionsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let live = !(request.showArchived && RentalsAccess.isAdmin(call))
        let filters = "live=\(live)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(
            RegionTable.table, RegionTable.byLiveName, .starting(with: [.string(marketplaceID.description), .bool(live)]), page: page)
        return SoukV1.ListRegionsResponse(
            regions: result.items.map(RegionProjection.region), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func update(_ request: SoukV1.UpdateRegionRequest, _ call: SoukCall) async throws -> SoukV1.Region {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.region ?? SoukV1.Region()
        var checks = FieldChecks()
        let regionID = try checks.run { try RequestFields.id(input.id, field: "region.id") }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.maskPaths) }
        Self.check(input, paths: Set(maskPaths ?? []), into: &checks)
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (id, paths, expected) = (regionID!, maskPaths!, expectedVersion ?? nil)
        let market = marketplaceID.description
        do {
            return RegionProjection.region(try await store.updateFields(
                RegionTable.table, id, in: marketplaceID, "region", resource: .region, paths: paths, expectedVersion: expected,
                actor: AuditActor(call),
                check: { current, transaction in
                    if paths.contains("districts") {
                        for removed in Set(current.value.subject.districts).subtracting(input.districts) {
                            try Self.requireUnused(market, id.description, district: removed, transaction)
                        }
                    }
                    if paths.contains("archived"), input.archived, !current.value.subject.archived {
                        try Self.requireUnused(market, id.description, district: nil, transaction)
                    }
                },
                change: { record in
                    for path in paths {
                        switch path {
                        case "name": record.subject.name = input.name
                        case "districts": record.subject.districts = input.districts
                        default: record.subject.archived = input.archived
                        }
                    }
                }))
        } catch let error as StoreError {
            throw Self.duplicateName(error, input.name)
        }
    }

    /// The live region `regionID` of the marketplace, read in `transaction`, and a check that
    /// `district` is one of its districts. INVALID_ARGUMENT naming `field`/`districtField`.
    static func requireDistrict(
        _ regionID: String, _ district: String, marketplaceID: String, field: String, districtField: String, transaction: Transaction
    ) throws {
        guard let id = RecordID(regionID), let region = try transaction.get(RegionTable.table, id),
              region.value.marketplaceID == marketplaceID, !region.value.subject.archived
        else { throw RPCError.invalidField(field, "must name a region of this marketplace (Rentals.ListRegions)") }
        guard region.value.subject.districts.contains(district) else {
            throw RPCError.invalidField(
                districtField, "must be one of the districts of \(region.value.subject.name) (Rentals.GetRegion): \(district.isEmpty ? "required" : "unknown \"\(district)\"")")
        }
    }

    /// FAILED_PRECONDITION when a listing names the district (any district when nil).
    private static func requireUnused(_ market: String, _ regionID: String, district: String?, _ transaction: Transaction) throws {
        var prefix: [KeyPart] = [.string(market), .string(regionID)]
        if let district { prefix.append(.string(district)) }
        if let used = try transaction.first(ListingTable.table, ListingTable.byDistrict, .starting(with: prefix)) {
            let what = district.map { "district \"\($0)\"" } ?? "region"
            throw RPCError.souk(.failedPrecondition, .inUse, "the \(what) is named by listings (listing \(used.id))")
        }
    }

    /// Records in `checks` what is wrong with the fields `paths` names of `region`.
    static func check(_ region: SoukV1.Region, paths: Set<String>, into checks: inout FieldChecks) {
        if paths.contains("name"), let problem = RentalsText.problem(region.name, limit: 100) { checks.add("region.name", problem) }
        if paths.contains("districts") {
            checks.require(!region.districts.isEmpty, "region.districts", "must name at least one district")
            checks.require(region.districts.count <= 200, "region.districts", "must be at most 200")
            var seen = Set<String>()
            for (index, district) in region.districts.enumerated() {
                if let problem = RentalsText.problem(district, limit: 100) {
                    checks.add("region.districts[\(index)]", problem)
                } else if !seen.insert(SearchText.normalized(district)).inserted {
                    checks.add("region.districts[\(index)]", "repeats another district")
                }
            }
        }
    }

    private static func duplicateName(_ error: StoreError, _ name: String) -> Error {
        if case .uniqueViolation = error {
            return RPCError.souk(.alreadyExists, .duplicate, "a region named \"\(name)\" exists")
        }
        return error
    }
}
