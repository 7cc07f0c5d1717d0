import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing

@testable import SoukRentals

@Suite struct ListingTests {
    @Test func aLessorCreatesADraftAndEveryoneReadsItOncePublished() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        let created = try await f.create(f.draft(), by: lessor)
        #expect(created.status == .draft)
        #expect(created.ownerAccountID == lessor.id)
        #expect(created.deposit == SoukV1.Money(amountMinor: 24_000_000, currencyCode: "VND"))
        #expect(created.lessor?.accountID == lessor.id)
        #expect(created.lessor?.displayName == "Test")

        // A draft is its owner's: a guest does not find it.
        let get = SoukV1.GetListingRequest(marketplaceID: f.marketplace.id, listingID: created.id)
        #expect(await f.error("GetListing", get, nil, as: SoukV1.Listing.self)?.code == .notFound)
        let own: SoukV1.Listing = try await f.call("GetListing", get, lessor.token)
        #expect(own.title == "Căn hộ 2 phòng ngủ Quận 1")

        let published = try await f.publish(created, by: lessor.token)
        #expect(published.status == .published)
        let seen: SoukV1.Listing = try await f.call("GetListing", get, nil)
        #expect(seen.id == created.id && seen.status == .published && !seen.saved)
    }

    @Test func aRetriedCreateReturnsTheFirstListing() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        let first = try await f.create(f.draft(), by: lessor, requestID: "same")
        let again = try await f.create(f.draft(), by: lessor, requestID: "same")
        #expect(first.id == again.id)
    }

    @Test func aPendingLessorPreparesDraftsButCannotPublish() async throws {
        let f = try await RentalsFixture.make()
        let pending = try await f.person("tuan", lessor: true, approved: false)
        let draft = try await f.create(f.draft(), by: pending)
        let refused = await f.error(
            "PublishListing", SoukV1.PublishListingRequest(marketplaceID: f.marketplace.id, listingID: draft.id), pending.token, as: SoukV1.Listing.self)
        #expect(refused?.code == .failedPrecondition)
        #expect(refused?.soukReason == .rolePending)

        let customer = try await f.person("lan")
        let notLessor = await f.error(
            "CreateListing", SoukV1.CreateListingRequest(marketplaceID: f.marketplace.id, requestID: "x", listing: f.draft()), customer.token,
            as: SoukV1.Listing.self)
        #expect(notLessor?.code == .permissionDenied)
        #expect(notLessor?.soukReason == .notAllowed)
    }

    @Test func badFieldsAreRefusedNamingTheField() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        var noLocation = f.draft()
        noLocation.address?.location = nil
        var threeMonths = f.draft()
        threeMonths.depositMonths = 3
        var badDistrict = f.draft()
        badDistrict.district = "Quận 99"
        var wrongRegionDistrict = f.draft()
        wrongRegionDistrict.regionID = f.binhDuong
        var unknownRegion = f.draft()
        unknownRegion.regionID = "01900000-0000-7000-8000-000000000123"
        var dollars = f.draft()
        dollars.monthlyRent = SoukV1.Money(amountMinor: 500, currencyCode: "USD")
        let cases: [(SoukV1.Listing, String)] = [
            (noLocation, "listing.address.location"), (threeMonths, "listing.deposit_months"), (badDistrict, "listing.district"),
            (wrongRegionDistrict, "listing.district"), (unknownRegion, "listing.region_id"), (dollars, "listing.monthly_rent"),
        ]
        for (number, (listing, field)) in cases.enumerated() {
            let error = await f.error(
                "CreateListing", SoukV1.CreateListingRequest(marketplaceID: f.marketplace.id, requestID: "bad-\(number)", listing: listing),
                lessor.token, as: SoukV1.Listing.self)
            #expect(error?.code == .invalidArgument, "\(field)")
            #expect(error?.fieldViolations.first?.field == field, "\(String(describing: error))")
        }
    }

    @Test func ownersUpdateArchiveAndRestoreOthersCannot() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        let other = try await f.person("hoa", lessor: true)
        let listing = try await f.publish(try await f.create(f.draft(), by: lessor), by: lessor.token)
        var change = SoukV1.Listing(id: listing.id, title: "Căn hộ mới")
        change.monthlyRent = SoukV1.Money(amountMinor: 10_000_000, currencyCode: "VND")
        let update = SoukV1.UpdateListingRequest(
            marketplaceID: f.marketplace.id, listing: change, updateMask: .init(paths: ["title", "monthly_rent"]), expectedVersion: listing.version)
        #expect(await f.error("UpdateListing", update, other.token, as: SoukV1.Listing.self)?.code == .permissionDenied)
        let updated: SoukV1.Listing = try await f.call("UpdateListing", update, lessor.token)
        #expect(updated.title == "Căn hộ mới" && updated.deposit?.amountMinor == 20_000_000)
        #expect(await f.error("UpdateListing", update, lessor.token, as: SoukV1.Listing.self)?.code == .aborted)

        let archived: SoukV1.Listing = try await f.call(
            "ArchiveListing", SoukV1.ArchiveListingRequest(marketplaceID: f.marketplace.id, listingID: listing.id), lessor.token)
        #expect(archived.status == .archived && archived.archiveTime != nil)
        let again = await f.error(
            "ArchiveListing", SoukV1.ArchiveListingRequest(marketplaceID: f.marketplace.id, listingID: listing.id), lessor.token, as: SoukV1.Listing.self)
        #expect(again?.code == .failedPrecondition)
        let restored: SoukV1.Listing = try await f.call(
            "RestoreListing", SoukV1.RestoreListingRequest(marketplaceID: f.marketplace.id, listingID: listing.id), f.adminToken)
        #expect(restored.status == .draft && restored.archiveTime == nil)
    }

    @Test func lessorsListTheirOwnAdminsListAll() async throws {
        let f = try await RentalsFixture.make()
        let minh = try await f.person("minh", lessor: true)
        let hoa = try await f.person("hoa", lessor: true)
        var mine: [String] = []
        for i in 0..<5 { mine.append(try await f.create(f.draft(title: "Phòng \(i)"), by: minh).id) }
        _ = try await f.create(f.draft(), by: hoa)
        var seen: [String] = []
        var token = ""
        repeat {
            let page: SoukV1.ListListingsResponse = try await f.call(
                "ListListings", SoukV1.ListListingsRequest(marketplaceID: f.marketplace.id, pageSize: 2, pageToken: token), minh.token)
            seen += page.listings.map(\.id)
            token = page.nextPageToken
        } while !token.isEmpty
        #expect(seen == mine.reversed())
        let others = await f.error(
            "ListListings", SoukV1.ListListingsRequest(marketplaceID: f.marketplace.id, ownerAccountID: hoa.id), minh.token, as: SoukV1.ListListingsResponse.self)
        #expect(others?.code == .permissionDenied)
        let all: SoukV1.ListListingsResponse = try await f.call("ListListings", SoukV1.ListListingsRequest(marketplaceID: f.marketplace.id), f.adminToken)
        #expect(all.listings.count == 6)
    }

    @Test func twoBookingsRacingForOneListingLeaveOneRenter() async throws {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        let listing = try await f.publish(try await f.create(f.draft(), by: lessor), by: lessor.token)
        let id = RecordID(listing.id)!
        let market = RecordID(f.marketplace.id)!
        let store = f.harness.store
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for booking in 0..<8 {
                group.addTask {
                    do {
                        try await store.write { transaction in
                            try ListingStates.markRented(id, bookingID: "booking-\(booking)", marketplaceID: market, actor: .system("test"), transaction: transaction)
                        }
                        return true
                    } catch let error as RPCError where error.soukReason == .listingLeased {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        let rented = try store.get(ListingTable.table, id)!.value.subject
        #expect(rented.status == .rented && rented.activeBookingID.hasPrefix("booking-"))
        try await store.write { transaction in
            try ListingStates.markAvailable(id, bookingID: rented.activeBookingID, marketplaceID: market, actor: .system("test"), transaction: transaction)
        }
        #expect(try store.get(ListingTable.table, id)!.value.subject.status == .published)
    }
}
