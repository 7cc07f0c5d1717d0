import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukRentals

/// Search answers checked against brute force over 10,000 random published listings in Ho Chi
/// Minh City and Binh Duong: nearby results equal a haversine filter of every listing, in the
/// same order (distance, then id), across pages; text results equal a match of the normalized
/// words of every listing, newest first.
@Suite struct SearchCorrectnessTests {
    static let count = 10_000
    static let vocabulary = [
        "Căn hộ", "Phòng trọ", "Nhà nguyên căn", "Đường", "Nguyễn Huệ", "Lê Lợi", "Điện Biên Phủ", "Võ Văn Ngân", "Bình Thạnh", "Thủ Đức",
        "Dĩ An", "Thuận An", "Quận 1", "Quận 7", "gần", "chợ", "trường", "đại học", "yên tĩnh", "ban công", "mới", "rộng", "view sông",
    ]

    /// The fixture and every listing stored.
    static func filled() async throws -> (RentalsFixture, [StoredRecord<ListingRecord>]) {
        let f = try await RentalsFixture.make()
        let lessor = try await f.person("minh", lessor: true)
        var random = SplitMix(state: 18)
        var values: [ListingRecord] = []
        for i in 0..<count {
            let inHCMC = Bool.random(using: &random)
            let latitude = inHCMC ? Double.random(in: 10.70...10.88, using: &random) : Double.random(in: 10.88...11.05, using: &random)
            let longitude = Double.random(in: 106.60...106.80, using: &random)
            let title = (0..<3).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
            let line1 = "\(Int.random(in: 1...300, using: &random)) \(vocabulary.randomElement(using: &random)!)"
            let draft = f.draft(
                title: title, line1: line1, district: inHCMC ? "Bình Thạnh" : "Dĩ An", region: inHCMC ? f.hcmc : f.binhDuong,
                latitude: latitude, longitude: longitude, rent: Int64.random(in: 2...40, using: &random) * 1_000_000,
                type: [.house, .apartment, .room].randomElement(using: &random)!)
            // Stored as CreateListing stores a draft's fields.
            var listing = SoukStoreV1.Listing()
            ListingValidation.apply(ListingValidation.maskPaths, from: draft, to: &listing)
            listing.ownerAccountID = lessor.id
            // Some drafts, which no search may return.
            listing.status = i % 10 == 0 ? .draft : .published
            values.append(ListingRecord(marketplaceID: f.marketplace.id, listing))
        }
        var stored: [StoredRecord<ListingRecord>] = []
        for start in stride(from: 0, to: count, by: 1000) {
            let chunk = Array(values[start..<min(count, start + 1000)])
            stored += try await f.harness.store.write { transaction in try chunk.map { try transaction.insert(ListingTable.table, $0) } }
        }
        return (f, stored)
    }

    @Test func nearbyEqualsAHaversineFilterAcrossPages() async throws {
        let (f, stored) = try await Self.filled()
        var random = SplitMix(state: 7)
        for query in 0..<40 {
            let center = GeoPosition(latitude: Double.random(in: 10.68...11.07, using: &random), longitude: Double.random(in: 106.58...106.82, using: &random))
            let radius = Int32.random(in: 100...3_000, using: &random)
            let type: SoukV1.ListingType = query % 3 == 0 ? .room : .unspecified
            let expected = stored.compactMap { record -> (Double, RecordID)? in
                let listing = record.value.subject
                guard listing.status == .published, type == .unspecified || listing.type == type else { return nil }
                let distance = GeoDistance.meters(center, ListingRules.position(listing)!)
                return distance <= Double(radius) ? (distance, record.id) : nil
            }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { $0.1.description }
            var got: [String] = []
            var token = ""
            repeat {
                let page: SoukV1.SearchListingsResponse = try await f.call("SearchNearbyListings", SoukV1.SearchNearbyListingsRequest(
                    marketplaceID: f.marketplace.id, pageSize: 37, pageToken: token,
                    near: SoukV1.GeoPoint(latitude: center.latitude, longitude: center.longitude), radiusMeters: radius,
                    filter: SoukV1.ListingFilter(type: type)), nil)
                got += page.listings.map { $0.listing!.id }
                token = page.nextPageToken
                await Task.yield()  // long synchronous work: let the run's other tests have this thread
            } while !token.isEmpty
            #expect(got == expected, "query \(query): \(got.count) found, \(expected.count) expected")
        }
    }

    /// Every query word begins a word of the listing (`SearchListings`): whole words and prefixes.
    @Test func textEqualsAMatchOfTheNormalizedWordPrefixes() async throws {
        let (f, stored) = try await Self.filled()
        let queries = [
            "quan 1", "binh thanh", "duong", "DUONG nguyen hue", "can ho", "phong tro gan cho", "dai hoc", "thu duc", "di an", "view song",
            "Điện Biên", "le loi moi", "yen tinh ban cong", "nha nguyen can", "khong co", "ben th", "ngu h", "d", "thu d",
        ]
        for (number, query) in queries.enumerated() {
            let words = SearchText.words(query)
            let orderBy = number % 2 == 0 ? "create_time desc" : "monthly_rent"
            var expectedRecords = stored.filter { record in
                let listing = record.value.subject
                let text = SearchText.words([listing.title, listing.address!.line1, listing.district, listing.address!.city].joined(separator: " "))
                return listing.status == .published && words.allSatisfy { word in text.contains { $0.hasPrefix(word) } }
            }
            expectedRecords.sort { a, b in
                orderBy == "create_time desc" ? a.id > b.id
                    : ListingRules.rent(a.value.subject) != ListingRules.rent(b.value.subject) ? ListingRules.rent(a.value.subject) < ListingRules.rent(b.value.subject) : a.id < b.id
            }
            var got: [String] = []
            var token = ""
            repeat {
                let page: SoukV1.SearchListingsResponse = try await f.call("SearchListings", SoukV1.SearchListingsRequest(
                    marketplaceID: f.marketplace.id, pageSize: 100, pageToken: token, query: query, orderBy: orderBy), nil)
                got += page.listings.map { $0.listing!.id }
                token = page.nextPageToken
                await Task.yield()  // long synchronous work: let the run's other tests have this thread
            } while !token.isEmpty
            #expect(got == expectedRecords.map(\.id.description), "\"\(query)\": \(got.count) found, \(expectedRecords.count) expected")
        }
    }
}
