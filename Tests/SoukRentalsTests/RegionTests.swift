import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing

@testable import SoukRentals

@Suite struct RegionTests {
    @Test func adminsManageRegionsEveryoneListsThem() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        let create = SoukV1.CreateRegionRequest(
            marketplaceID: f.marketplace.id, requestID: "long-an", region: SoukV1.Region(name: "Long An", districts: ["Tân An", "Bến Lức"]))
        #expect(await f.error("CreateRegion", create, lessor.token, as: SoukV1.Region.self)?.code == .permissionDenied)
        let longAn: SoukV1.Region = try await f.call("CreateRegion", create, f.adminToken)
        #expect(longAn.districts == ["Tân An", "Bến Lức"] && !longAn.archived)

        let duplicate = await f.error("CreateRegion", SoukV1.CreateRegionRequest(
            marketplaceID: f.marketplace.id, requestID: "long-an-2", region: SoukV1.Region(name: "LONG AN", districts: ["Tân An"])), f.adminToken,
            as: SoukV1.Region.self)
        #expect(duplicate?.code == .alreadyExists && duplicate?.soukReason == .duplicate)
        let repeated = await f.error("CreateRegion", SoukV1.CreateRegionRequest(
            marketplaceID: f.marketplace.id, requestID: "tay-ninh", region: SoukV1.Region(name: "Tây Ninh", districts: ["Gò Dầu", "Go Dau"])), f.adminToken,
            as: SoukV1.Region.self)
        #expect(repeated?.fieldViolations.first?.field == "region.districts[1]")

        let listed: SoukV1.ListRegionsResponse = try await f.call("ListRegions", SoukV1.ListRegionsRequest(marketplaceID: f.marketplace.id), nil)
        #expect(listed.regions.map(\.name) == ["Bình Dương", "Long An", "Thành phố Hồ Chí Minh"])
    }

    @Test func aDistrictOrRegionInUseStays() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        _ = try await f.create(f.draft(district: "Bình Thạnh"), by: lessor)
        let region: SoukV1.Region = try await f.call("GetRegion", SoukV1.GetRegionRequest(marketplaceID: f.marketplace.id, regionID: f.hcmc), nil)

        var fewer = SoukV1.Region(id: f.hcmc)
        fewer.districts = region.districts.filter { $0 != "Bình Thạnh" }
        let removeUsed = SoukV1.UpdateRegionRequest(marketplaceID: f.marketplace.id, region: fewer, updateMask: .init(paths: ["districts"]))
        #expect(await f.error("UpdateRegion", removeUsed, f.adminToken, as: SoukV1.Region.self)?.code == .failedPrecondition)
        let archive = SoukV1.UpdateRegionRequest(
            marketplaceID: f.marketplace.id, region: SoukV1.Region(id: f.hcmc, archived: true), updateMask: .init(paths: ["archived"]))
        #expect(await f.error("UpdateRegion", archive, f.adminToken, as: SoukV1.Region.self)?.code == .failedPrecondition)

        var renamed = SoukV1.Region(id: f.binhDuong, name: "Tỉnh Bình Dương")
        renamed.districts = ["Thủ Dầu Một", "Dĩ An"]
        let update = SoukV1.UpdateRegionRequest(marketplaceID: f.marketplace.id, region: renamed, updateMask: .init(paths: ["name", "districts"]))
        let changed: SoukV1.Region = try await f.call("UpdateRegion", update, f.adminToken)
        #expect(changed.name == "Tỉnh Bình Dương" && changed.districts == ["Thủ Dầu Một", "Dĩ An"])
        let archived: SoukV1.Region = try await f.call("UpdateRegion", SoukV1.UpdateRegionRequest(
            marketplaceID: f.marketplace.id, region: SoukV1.Region(id: f.binhDuong, archived: true), updateMask: .init(paths: ["archived"])), f.adminToken)
        #expect(archived.archived)
        let guest: SoukV1.ListRegionsResponse = try await f.call("ListRegions", SoukV1.ListRegionsRequest(marketplaceID: f.marketplace.id, showArchived: true), nil)
        #expect(guest.regions.map(\.id) == [f.hcmc])
        let admin: SoukV1.ListRegionsResponse = try await f.call("ListRegions", SoukV1.ListRegionsRequest(marketplaceID: f.marketplace.id, showArchived: true), f.adminToken)
        #expect(Set(admin.regions.map(\.id)) == [f.hcmc, f.binhDuong])
        // An archived region takes no new listings.
        let refused = await f.error("CreateListing", SoukV1.CreateListingRequest(
            marketplaceID: f.marketplace.id, requestID: "in-archived", listing: f.draft(district: "Dĩ An", region: f.binhDuong)), lessor.token,
            as: SoukV1.Listing.self)
        #expect(refused?.fieldViolations.first?.field == "listing.region_id")
    }
}
