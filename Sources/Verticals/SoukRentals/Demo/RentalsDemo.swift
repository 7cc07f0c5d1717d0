import Logging
import SoukKit
import SoukMessages
import SoukStore

/// MARA's demo records: its regions with their districts (`DemoRegions`), published listings
/// of three lessors in Quận 1, Bình Thạnh, Thủ Đức and Dĩ An, and places around them. The demo
/// has no images, so the listings have no photos. Records keep fixed ids, so loading again adds
/// nothing.
struct RentalsDemo {
    let store: Store
    let logger: Logger

    struct DemoListing {
        let id: String
        let lessor: String
        let title: String
        let line1: String
        let district: String
        let region: String
        let latitude: Double
        let longitude: Double
        let rent: Int64
        let type: SoukV1.ListingType
        let bedrooms: Int32
        let area: Int32
        let features: [String]
    }

    static let listings: [DemoListing] = [
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a001", lessor: "lessor@mara.example", title: "Căn hộ dịch vụ 1 phòng ngủ gần chợ Bến Thành",
            line1: "52 Đường Lê Lai, Phường Bến Thành", district: "Quận 1", region: DemoRegions.hoChiMinhCity, latitude: 10.7712, longitude: 106.6950,
            rent: 9_500_000, type: .apartment, bedrooms: 1, area: 40, features: ["air_conditioning", "wifi", "elevator"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a002", lessor: "lessor@mara.example", title: "Phòng studio Đa Kao có ban công",
            line1: "15 Đường Đinh Tiên Hoàng, Phường Đa Kao", district: "Quận 1", region: DemoRegions.hoChiMinhCity, latitude: 10.7880,
            longitude: 106.6990, rent: 6_000_000, type: .room, bedrooms: 1, area: 28, features: ["air_conditioning", "wifi"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a003", lessor: "hoa.lessor@mara.example", title: "Căn hộ Vinhomes Central Park 2 phòng ngủ",
            line1: "208 Đường Nguyễn Hữu Cảnh, Phường 22", district: "Bình Thạnh", region: DemoRegions.hoChiMinhCity, latitude: 10.7945,
            longitude: 106.7219, rent: 18_000_000, type: .apartment, bedrooms: 2, area: 80, features: ["air_conditioning", "pool", "gym", "wifi"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a004", lessor: "hoa.lessor@mara.example", title: "Phòng trọ gần Đại học Hutech",
            line1: "475A Đường Điện Biên Phủ, Phường 25", district: "Bình Thạnh", region: DemoRegions.hoChiMinhCity, latitude: 10.8017,
            longitude: 106.7147, rent: 3_500_000, type: .room, bedrooms: 1, area: 20, features: ["wifi"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a005", lessor: "duc.lessor@mara.example", title: "Phòng trọ sinh viên gần Làng Đại học",
            line1: "12 Đường Tô Vĩnh Diện, Phường Linh Trung", district: "Thủ Đức", region: DemoRegions.hoChiMinhCity, latitude: 10.8700,
            longitude: 106.7990, rent: 2_500_000, type: .room, bedrooms: 1, area: 18, features: ["wifi", "motorbike_parking"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a006", lessor: "duc.lessor@mara.example", title: "Nhà nguyên căn Thảo Điền có sân vườn",
            line1: "20 Đường Quốc Hương, Phường Thảo Điền", district: "Thủ Đức", region: DemoRegions.hoChiMinhCity, latitude: 10.8040,
            longitude: 106.7340, rent: 35_000_000, type: .house, bedrooms: 4, area: 220, features: ["air_conditioning", "garden", "pets_allowed"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a007", lessor: "lessor@mara.example", title: "Nhà nguyên căn 3 phòng ngủ Dĩ An",
            line1: "34 Đường Nguyễn An Ninh, Phường Dĩ An", district: "Dĩ An", region: DemoRegions.binhDuong, latitude: 10.9069, longitude: 106.7695,
            rent: 7_000_000, type: .house, bedrooms: 3, area: 95, features: ["motorbike_parking", "wifi"]),
        DemoListing(
            id: "01900000-0000-7000-8000-00000000a008", lessor: "duc.lessor@mara.example", title: "Phòng trọ gần Ký túc xá Khu B",
            line1: "8 Đường Tô Vĩnh Diện, Phường Đông Hòa", district: "Dĩ An", region: DemoRegions.binhDuong, latitude: 10.8825, longitude: 106.7820,
            rent: 2_200_000, type: .room, bedrooms: 1, area: 16, features: ["wifi"]),
    ]

    static let places: [(id: String, name: String, category: SoukV1.PlaceCategory, line1: String, latitude: Double, longitude: Double)] = [
        ("01900000-0000-7000-8000-00000000b001", "Chợ Bến Thành", .market, "Đường Lê Lợi, Quận 1", 10.7725, 106.6980),
        ("01900000-0000-7000-8000-00000000b002", "Bệnh viện Nhi Đồng 2", .hospital, "14 Đường Lý Tự Trọng, Quận 1", 10.7812, 106.7023),
        ("01900000-0000-7000-8000-00000000b003", "Trường THPT chuyên Lê Hồng Phong", .school, "235 Đường Nguyễn Văn Cừ, Quận 5", 10.7627, 106.6823),
        ("01900000-0000-7000-8000-00000000b004", "Trạm xe buýt Sài Gòn", .busStop, "Đường Hàm Nghi, Quận 1", 10.7711, 106.6986),
        ("01900000-0000-7000-8000-00000000b005", "Công viên Tao Đàn", .park, "Đường Trương Định, Quận 1", 10.7745, 106.6925),
        ("01900000-0000-7000-8000-00000000b006", "Co.opmart Cống Quỳnh", .supermarket, "189C Đường Cống Quỳnh, Quận 1", 10.7654, 106.6896),
        ("01900000-0000-7000-8000-00000000b007", "Chợ Bà Chiểu", .market, "Đường Bạch Đằng, Bình Thạnh", 10.8030, 106.7003),
        ("01900000-0000-7000-8000-00000000b008", "Bệnh viện Nhân dân Gia Định", .hospital, "1 Đường Nơ Trang Long, Bình Thạnh", 10.8039, 106.6944),
        ("01900000-0000-7000-8000-00000000b009", "Đại học Quốc gia TP.HCM", .school, "Phường Linh Trung, Thủ Đức", 10.8700, 106.8031),
        ("01900000-0000-7000-8000-00000000b010", "Chợ Dĩ An", .market, "Đường Nguyễn An Ninh, Dĩ An", 10.9050, 106.7680),
        ("01900000-0000-7000-8000-00000000b011", "Bến xe Miền Đông mới", .busStop, "Quốc lộ 1A, Dĩ An", 10.8795, 106.8150),
    ]

    func load(_ demo: DemoContext) async throws {
        guard let marketplace = demo.marketplaces["mara"] else { return }
        let market = marketplace.id
        let regions = try await DemoRegions.load(market, store: store)
        let lessors = demo.accountsByEmail["mara"] ?? [:]
        // One record per transaction: a published listing writes 89 to 143 keys (every prefix of
        // every word of its title and address, in two search indexes), so two at once exceed
        // etcd's default 128 writes per commit. Each is added only when its fixed id is free: a
        // load cut off halfway is completed by the next one, and a second load adds nothing.
        for demo in Self.listings {
            guard let id = RecordID(demo.id), try store.get(ListingTable.table, id) == nil,
                  let owner = lessors[demo.lessor], let region = regions[demo.region]
            else { continue }
            var listing = SoukStoreV1.Listing(
                ownerAccountID: owner.description, title: demo.title, description: "\(demo.title). Hợp đồng từ 6 tháng, cọc 1 tháng.",
                type: demo.type,
                address: SoukV1.Address(
                    line1: demo.line1, city: demo.region, countryCode: "VN",
                    location: SoukV1.GeoPoint(latitude: demo.latitude, longitude: demo.longitude)),
                monthlyRent: SoukV1.Money(amountMinor: demo.rent, currencyCode: "VND"), depositMonths: 1,
                deposit: SoukV1.Money(amountMinor: demo.rent, currencyCode: "VND"), features: demo.features.sorted(),
                areaSquareMeters: demo.area, bedrooms: demo.bedrooms, bathrooms: 1, regionID: region, district: demo.district,
                status: .published, furnished: demo.type != .house, parking: demo.features.contains("motorbike_parking"))
            listing.bathrooms = max(1, demo.bedrooms - 1)
            do {
                try await store.write { [listing] transaction in
                    guard try transaction.get(ListingTable.table, id) == nil else { return }
                    try transaction.insert(ListingTable.table, ListingRecord(marketplaceID: market, listing), id: id)
                }
            } catch StoreError.engine(operation: "commit", let message) where message.contains("EngineLimits") {
                // A listing is one record with all its index entries, which no commit may split:
                // on an engine whose commits are smaller than that (etcd with its default
                // --max-txn-ops 128) the demo goes on without it.
                logger.warning(
                    "demo listing left out: one commit cannot hold it with its index entries",
                    metadata: ["listing": "\(demo.id)", "title": "\(demo.title)", "error": "\(message)"])
            }
        }
        for place in Self.places {
            guard let id = RecordID(place.id), try store.get(PlaceTable.table, id) == nil else { continue }
            let value = SoukStoreV1.Place(
                name: place.name, category: place.category,
                address: SoukV1.Address(line1: place.line1, countryCode: "VN", location: SoukV1.GeoPoint(latitude: place.latitude, longitude: place.longitude)))
            try await store.write { transaction in
                guard try transaction.get(PlaceTable.table, id) == nil else { return }
                try transaction.insert(PlaceTable.table, PlaceRecord(marketplaceID: market, value), id: id)
            }
        }
    }
}
