import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A water service as stored.
typealias ServiceRecord = MarketRecord<SoukV1.Service>

/// Which services a list may show: each service has an entry on every shelf it belongs to, so
/// that every list of `Catalog.ListServices` is one index range.
enum ServiceShelf: Int32 {
    /// Available and not archived: what guests and customers see.
    case listed = 1
    /// Not archived: staff browsing the catalog.
    case live = 2
    /// Everything, archived included (`show_archived`).
    case all = 3

    static func of(_ service: SoukV1.Service) -> [ServiceShelf] {
        var shelves: [ServiceShelf] = [.all]
        if !service.archived { shelves.append(.live) }
        if !service.archived && service.available { shelves.append(.listed) }
        return shelves
    }
}

/// Water services and the indexes their browsing reads.
enum ServiceTable {
    static let byMarketplace = Index<ServiceRecord>.nonUnique("services.marketplace") { [.string($0.marketplaceID)] }

    /// Entries (marketplace, shelf, type or 0 for any type, sort key…): one per shelf and type
    /// filter, so a filter on the type stays one range.
    private static func sorted(_ name: String, _ sortKey: @escaping @Sendable (SoukV1.Service) -> [KeyPart]) -> Index<ServiceRecord> {
        Index<ServiceRecord>.nonUnique(name, keys: { record in
            ServiceShelf.of(record.subject).flatMap { shelf in
                [SoukV1.ServiceType.unspecified, record.subject.type].map { type in
                    [.string(record.marketplaceID), .int(Int64(shelf.rawValue)), .enumCase(type)] + sortKey(record.subject)
                }
            }
        })
    }

    static let byName = sorted("services.name") { [.string(ServiceText.sortName($0))] }
    static let byPrice = sorted("services.price") { [.int($0.basePrice?.amountMinor ?? 0)] }
    static let byRating = sorted("services.rating") { [.int(Int64($0.rating?.averageHundredths ?? 0))] }
    /// Entries end with the service's version 7 id, so the id orders by creation.
    static let byCreation = sorted("services.created") { _ in [] }
    /// (marketplace, shelf, word): every word of the name in every language, normalized.
    static let byWord = Index<ServiceRecord>.nonUnique("services.word", keys: { record in
        ServiceShelf.of(record.subject).flatMap { shelf in
            ServiceText.words(of: record.subject).map { [.string(record.marketplaceID), .int(Int64(shelf.rawValue)), .string($0)] }
        }
    })

    /// Not converted yet: stores the contract message `souk.v1.Service` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    static let table = marketTable(
        "services", SoukV1.Service.self, indexes: [byMarketplace, byName, byPrice, byRating, byCreation, byWord])

    /// The water-services tables: the catalog, the window bookings and the scheduled orders.
    static var all: [AnyTable] { [table.erased, WindowBookingTable.table.erased, ScheduledOrderTable.table.erased] }
}

/// Normalized words of service names, for search and sorting.
enum ServiceText {
    /// Distinct words of the name in every language.
    static func words(of service: SoukV1.Service) -> [String] {
        SearchText.distinctWords([service.name] + service.translations.map(\.name))
    }

    static func sortName(_ service: SoukV1.Service) -> String {
        SearchText.words(service.name).joined(separator: " ")
    }
}
