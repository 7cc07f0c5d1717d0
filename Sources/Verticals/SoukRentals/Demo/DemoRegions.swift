import SoukKit
import SoukMessages
import SoukStore

/// MARA's regions and their districts, as administered (Quận 2 and Quận 9 became part of Thủ
/// Đức city in 2021).
enum DemoRegions {
    static let hoChiMinhCity = "Thành phố Hồ Chí Minh"
    static let binhDuong = "Bình Dương"

    static let regions: [(name: String, districts: [String])] = [
        (hoChiMinhCity, [
            "Quận 1", "Quận 3", "Quận 4", "Quận 5", "Quận 6", "Quận 7", "Quận 8", "Quận 10", "Quận 11", "Quận 12", "Bình Thạnh",
            "Phú Nhuận", "Gò Vấp", "Tân Bình", "Tân Phú", "Bình Tân", "Thủ Đức", "Bình Chánh", "Hóc Môn", "Củ Chi", "Nhà Bè", "Cần Giờ",
        ]),
        (binhDuong, [
            "Thủ Dầu Một", "Dĩ An", "Thuận An", "Tân Uyên", "Bến Cát", "Bàu Bàng", "Bắc Tân Uyên", "Dầu Tiếng", "Phú Giáo",
        ]),
    ]

    /// Adds the regions missing from the marketplace; returns the region ids by name.
    @discardableResult
    static func load(_ market: String, store: Store) async throws -> [String: String] {
        try await store.write { transaction in
            var ids: [String: String] = [:]
            for region in regions {
                let key: [KeyPart] = [.string(market), .string(SearchText.normalized(region.name))]
                if let existing = try transaction.get(RegionTable.table, unique: RegionTable.byName, key) {
                    ids[region.name] = existing.id.description
                    continue
                }
                let record = try transaction.insert(
                    RegionTable.table, RegionRecord(marketplaceID: market, SoukStoreV1.Region(name: region.name, districts: region.districts)))
                ids[region.name] = record.id.description
            }
            return ids
        }
    }
}
