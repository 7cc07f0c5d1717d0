import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A water service as stored: its own record (`souk.store.v1.Service`, without the id, version
/// and times, which the envelope holds) and its marketplace. RPCs answer with `ServiceProjection`.
typealias ServiceRecord = MarketRecord<SoukStoreV1.Service>

/// Which services a list may show: each service has an entry on every shelf it belongs to, so
/// that every list of `Catalog.ListServices` is one index range.
enum ServiceShelf: Int32 {
    /// Available and not archived: what guests and customers see.
    case listed = 1
    /// Not archived: staff browsing the catalog.
    case live = 2
    /// Everything, archived included (`show_archived`).
    case all = 3

    static func of(_ service: SoukStoreV1.Service) -> [ServiceShelf] {
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
    private static func sorted(_ name: String, _ sortKey: @escaping @Sendable (SoukStoreV1.Service) -> [KeyPart]) -> Index<ServiceRecord> {
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

    static let table = marketTable(
        "services", SoukStoreV1.Service.self, indexes: [byMarketplace, byName, byPrice, byRating, byCreation, byWord])

    /// The water-services tables: the catalog, the window bookings and the scheduled orders.
    static var all: [AnyTable] { [table.erased, WindowBookingTable.table.erased, ScheduledOrderTable.table.erased] }
}

/// Normalized words of service names, for search and sorting.
enum ServiceText {
    /// Distinct words of the name in every language.
    static func words(of service: SoukStoreV1.Service) -> [String] {
        SearchText.distinctWords([service.name] + service.translations.map(\.name))
    }

    static func sortName(_ service: SoukStoreV1.Service) -> String {
        SearchText.words(service.name).joined(separator: " ")
    }
}

/// What every caller allowed to read a stored service sees, in its base language: the
/// contract's `Service`, built field by field (an allow-list: a field added to the stored record
/// reaches no caller until a line here names it). `ServiceLanguages.localized` then adds the
/// caller's language.
enum ServiceProjection {
    static func service(_ record: StoredRecord<ServiceRecord>) -> SoukV1.Service {
        let service = record.value.subject
        var shown = record.stamped(SoukV1.Service())
        shown.name = service.name
        shown.description = service.description
        shown.type = service.type
        shown.basePrice = service.basePrice
        shown.available = service.available
        shown.options = service.options
        shown.imageMediaID = service.imageMediaID
        shown.requiresApproval = service.requiresApproval
        shown.archived = service.archived
        shown.archiveTime = service.archiveTime
        shown.translations = service.translations
        shown.rating = service.rating
        shown.languageCode = service.languageCode
        return shown
    }
}

/// What a checked service (`ServiceValidation.validated`) writes to its stored record: the
/// fields its staff edit and what the server completes from them; the archive state and the
/// rating stay the record's.
enum ServiceStorage {
    static func write(_ checked: SoukV1.Service, to service: inout SoukStoreV1.Service) {
        service.name = checked.name
        service.description = checked.description
        service.type = checked.type
        service.basePrice = checked.basePrice
        service.available = checked.available
        service.options = checked.options
        service.imageMediaID = checked.imageMediaID
        service.requiresApproval = checked.requiresApproval
        service.translations = checked.translations
        service.languageCode = checked.languageCode
    }

    /// A new stored service from a checked one.
    static func record(_ checked: SoukV1.Service) -> SoukStoreV1.Service {
        var service = SoukStoreV1.Service()
        write(checked, to: &service)
        return service
    }
}

extension SoukStoreV1.Service: ArchivableRecord {}
