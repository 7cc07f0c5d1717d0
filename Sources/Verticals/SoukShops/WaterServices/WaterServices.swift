import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Aqua Hub's catalog of water services: staff manage their base texts and translations, anyone
/// browses them with the texts of their own language beside the base ones.
struct WaterServices {
    let commerce: Commerce
    var store: Store { commerce.store }

    func create(_ request: SoukV1.CreateServiceRequest, _ call: SoukCall) async throws -> SoukV1.Service {
        let (_, marketplace) = try call.requireMarketplace()
        let requestID = try RequestFields.requestID(request.requestID)
        let checked = try ServiceValidation.validated(request.service ?? SoukV1.Service(), currency: marketplace.currencyCode, existing: [])
        let service = ServiceStorage.record(checked)
        let created: SoukV1.Service = try await store.createOnce(
            ServiceTable.table, service, resource: .service, state: "ACTIVE", request: request, requestID: requestID, call: call,
            inserted: { record, transaction in
                try CatalogMedia.sync(
                    [], to: [record.value.subject.imageMediaID], requestField: "service.image_media_id", resource: .service, id: record.id,
                    field: "image_media_id", marketplaceID: record.value.marketplaceID, transaction: transaction)
            },
            view: ServiceProjection.service)
        return ServiceLanguages.localized(created, call)
    }

    func get(_ request: SoukV1.GetServiceRequest, _ call: SoukCall) async throws -> SoukV1.Service {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.serviceID, field: "service_id")
        let service = ServiceProjection.service(try store.require(ServiceTable.table, id, in: marketplaceID, "service"))
        guard !service.archived || Self.isStaff(call) else { throw RPCError.notFound("service", id.description) }
        return ServiceLanguages.localized(service, call)
    }

    /// One index range per list (see `ServiceTable`): the shelf the caller may see, the type,
    /// then the sort key; a query reads the word index instead. Filters the range does not cover
    /// (price range outside a price sort, minimum rating, further query words) are checked on the
    /// records read, so a page may hold fewer services and still have a next page.
    func list(_ request: SoukV1.ListServicesRequest, _ call: SoukCall) async throws -> SoukV1.ListServicesResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let currency = marketplace.currencyCode
        var checks = FieldChecks()
        for (field, money) in [("min_price", request.minPrice), ("max_price", request.maxPrice)] {
            if let money, money.amountMinor < 0 || !money.currencyCode.isEmpty && money.currencyCode != currency {
                checks.add(field, "must be ≥ 0 in \(currency)")
            }
        }
        let minPrice = request.minPrice?.amountMinor
        let maxPrice = request.maxPrice?.amountMinor
        if let minPrice, let maxPrice, minPrice > maxPrice { checks.add("max_price", "must not be below min_price") }
        checks.require((0...5).contains(request.minRating), "min_rating", "must be 1 to 5 stars")
        let orderBy = request.orderBy.trimmingCharacters(in: .whitespaces).lowercased()
        checks.require(
            ["", "name", "price", "price desc", "rating desc", "create_time desc"].contains(orderBy), "order_by",
            "must be one of \"name\", \"price\", \"price desc\", \"rating desc\", \"create_time desc\"")
        try checks.finish()
        let staff = Self.isStaff(call)
        let shelf: ServiceShelf = staff && request.showArchived ? .all : staff && !request.availableOnly ? .live : .listed
        let words = SearchText.words(request.query)
        let stamp = "shelf=\(shelf.rawValue);type=\(request.type.rawValue);q=\(words);min=\(minPrice ?? -1);max=\(maxPrice ?? -1);r=\(request.minRating);o=\(orderBy)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: stamp)
        let market = KeyPart.string(marketplaceID.description)
        let head: [KeyPart] = [market, .int(Int64(shelf.rawValue)), .enumCase(request.type)]
        let result: Page<ServiceRecord>
        if let first = words.max(by: { $0.count < $1.count }) {
            // The longest word narrows the range most; its entries run from the word itself to
            // every word it starts.
            result = try store.list(
                ServiceTable.table, ServiceTable.byWord,
                .prefix([market, .int(Int64(shelf.rawValue))], from: [.string(first)], before: [.string(first + "\u{10FFFF}")]), page: page)
        } else {
            switch orderBy {
            case "price", "price desc":
                result = try store.list(
                    ServiceTable.table, ServiceTable.byPrice,
                    .prefix(head, from: minPrice.map { [.int($0)] }, before: maxPrice.map { [.int($0 + 1)] }),
                    direction: orderBy == "price" ? .ascending : .descending, page: page)
            case "rating desc":
                result = try store.list(
                    ServiceTable.table, ServiceTable.byRating,
                    .prefix(head, from: request.minRating > 0 ? [.int(Int64(request.minRating) * 100)] : nil), direction: .descending, page: page)
            case "create_time desc":
                result = try store.list(ServiceTable.table, ServiceTable.byCreation, .starting(with: head), direction: .descending, page: page)
            default:
                result = try store.list(ServiceTable.table, ServiceTable.byName, .starting(with: head), page: page)
            }
        }
        var response = SoukV1.ListServicesResponse()
        var seen = Set<RecordID>()
        for record in result.items where seen.insert(record.id).inserted {
            let service = record.value.subject
            let price = service.basePrice?.amountMinor ?? 0
            let serviceWords = ServiceText.words(of: service)
            guard request.type == .unspecified || service.type == request.type,
                  minPrice.map({ price >= $0 }) ?? true, maxPrice.map({ price <= $0 }) ?? true,
                  request.minRating == 0 || Int32(service.rating?.averageHundredths ?? 0) >= request.minRating * 100,
                  words.allSatisfy({ word in serviceWords.contains { $0.hasPrefix(word) } })
            else { continue }
            response.services.append(ServiceLanguages.localized(ServiceProjection.service(record), call))
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: stamp)
        return response
    }

    func update(_ request: SoukV1.UpdateServiceRequest, _ call: SoukCall) async throws -> SoukV1.Service {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let input = request.service ?? SoukV1.Service()
        let id = try RequestFields.id(input.id, field: "service.id")
        let paths = try RequestFields.maskPaths(
            request.updateMask, allowed: ["name", "description", "language_code", "type", "base_price", "available", "image_media_id", "options", "translations"])
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction -> StoredRecord<ServiceRecord> in
            let current = try transaction.require(ServiceTable.table, id, in: marketplaceID, "service")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("service", id.description, expected: expected, actual: current.version)
            }
            guard !current.value.subject.archived else {
                throw RPCError.souk(.failedPrecondition, .archived, "service \(id) is archived; restore it first")
            }
            var proposed = ServiceProjection.service(current)
            for path in paths {
                switch path {
                case "name": proposed.name = input.name
                case "description": proposed.description = input.description
                case "type": proposed.type = input.type
                case "base_price": proposed.basePrice = input.basePrice
                case "available": proposed.available = input.available
                case "image_media_id": proposed.imageMediaID = input.imageMediaID
                case "translations": proposed.translations = input.translations
                case "language_code": proposed.languageCode = input.languageCode
                default: proposed.options = input.options
                }
            }
            let checked = try ServiceValidation.validated(proposed, currency: marketplace.currencyCode, existing: current.value.subject.options)
            let updated = try transaction.update(ServiceTable.table, id) { ServiceStorage.write(checked, to: &$0.subject) }
            try CatalogMedia.sync(
                [current.value.subject.imageMediaID], to: [checked.imageMediaID], requestField: "service.image_media_id", resource: .service,
                id: id, field: "image_media_id", marketplaceID: marketplaceID.description, transaction: transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .service, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
        return ServiceLanguages.localized(ServiceProjection.service(record), call)
    }

    func setArchived(_ archived: Bool, _ serviceID: String, _ expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.Service {
        let record = try await store.setArchived(
            archived, ServiceTable.table, id: serviceID, field: "service_id", expectedVersion: expectedVersion, noun: "service",
            resource: .service, call: call)
        return ServiceLanguages.localized(ServiceProjection.service(record), call)
    }

    static func isStaff(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin) || caller.activeRoles.contains(.provider)
    }
}
