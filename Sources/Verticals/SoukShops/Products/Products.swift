import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Retail products: creating, reading and editing wines (Chateau Du Nox).
extension CatalogService {
    static let productMaskPaths: Set<String> = [
        "name", "description", "tasting_notes", "pairings", "category", "grape", "region", "vintage", "image_media_ids", "price",
        "stock", "available", "featured",
    ]

    func createProduct(_ request: SoukV1.CreateProductRequest, _ call: SoukCall) async throws -> SoukV1.Product {
        let (_, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestIDField = try checks.run { try RequestFields.requestID(request.requestID) }
        let input = request.product ?? SoukV1.Product()
        ProductValidation.collect(input, paths: Self.productMaskPaths, currency: marketplace.currencyCode, field: "product", &checks)
        try checks.finish()
        let requestID = requestIDField!
        // The caller gives the fields of the mask; the server keeps the review and the archive state.
        var product = SoukStoreV1.Product()
        ProductValidation.apply(Array(Self.productMaskPaths), from: input, to: &product)
        return try await store.createOnce(
            ProductTable.table, product, resource: .product, state: "CREATED", request: request, requestID: requestID, call: call,
            inserted: { record, transaction in
                try CatalogMedia.sync(
                    [], to: record.value.subject.imageMediaIDs, requestField: "product.image_media_ids", resource: .product, id: record.id,
                    field: "image_media_ids", marketplaceID: record.value.marketplaceID, transaction: transaction)
            },
            view: ProductProjection.product)
    }

    func getProduct(_ request: SoukV1.GetProductRequest, _ call: SoukCall) async throws -> SoukV1.Product {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.productID, field: "product_id")
        let record = try store.require(ProductTable.table, id, in: marketplaceID, "product")
        // Guests and customers do not see archived wines (staff do, to restore them).
        guard ProductView.isStaff(call) || !record.value.subject.archived else { throw RPCError.notFound("product", id.description) }
        return ProductProjection.product(record)
    }

    func updateProduct(_ request: SoukV1.UpdateProductRequest, _ call: SoukCall) async throws -> SoukV1.Product {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let input = request.product ?? SoukV1.Product()
        let id = try RequestFields.id(input.id, field: "product.id")
        let paths = try RequestFields.maskPaths(request.updateMask, allowed: Self.productMaskPaths)
        try ProductValidation.check(input, paths: Set(paths), currency: marketplace.currencyCode, field: "product")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(ProductTable.table, id, in: marketplaceID, "product")
            guard !current.value.subject.archived else {
                throw RPCError.souk(.failedPrecondition, .archived, "the product is archived: restore it first")
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("product", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(ProductTable.table, id) { record in
                ProductValidation.apply(paths, from: input, to: &record.subject)
            }
            try CatalogMedia.sync(
                current.value.subject.imageMediaIDs, to: updated.value.subject.imageMediaIDs, requestField: "product.image_media_ids",
                resource: .product, id: id, field: "image_media_ids", marketplaceID: marketplaceID.description, transaction: transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .product, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
        return ProductProjection.product(record)
    }

    func setProductReview(_ request: SoukV1.SetProductReviewRequest, _ call: SoukCall) async throws -> SoukV1.Product {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.productID, field: "product_id")
        guard (1...5).contains(request.stars) else { throw RPCError.invalidField("stars", "must be 1 to 5") }
        guard request.review.count <= 4000 else { throw RPCError.invalidField("review", "must be at most 4000 characters") }
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let (stars, review) = (request.stars, request.review)
        let record = try await store.write { transaction in
            let current = try transaction.require(ProductTable.table, id, in: marketplaceID, "product")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("product", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(ProductTable.table, id) { record in
                record.subject.expertRating = stars
                record.subject.expertReview = review
                record.subject.reviewerAccountID = caller.accountID.description
            }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .product, id: id.description),
                actor: actor, reason: "reviewed: \(stars) stars", resourceVersion: updated.version)
            return updated
        }
        return ProductProjection.product(record)
    }

    func setProductArchived(_ archived: Bool, productID: String, expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.Product {
        ProductProjection.product(try await store.setArchived(
            archived, ProductTable.table, id: productID, field: "product_id", expectedVersion: expectedVersion, noun: "product",
            resource: .product, call: call))
    }
}

/// What every caller sees of a stored product: the contract's `Product`, built field by field
/// (an allow-list: a field added to the stored record reaches no caller until a line here names
/// it). `available` is false when nothing is in stock.
enum ProductProjection {
    static func product(_ record: StoredRecord<ProductRecord>) -> SoukV1.Product {
        let product = record.value.subject
        var shown = record.stamped(SoukV1.Product())
        shown.name = product.name
        shown.description = product.description
        shown.tastingNotes = product.tastingNotes
        shown.pairings = product.pairings
        shown.category = product.category
        shown.grape = product.grape
        shown.region = product.region
        shown.vintage = product.vintage
        shown.imageMediaIDs = product.imageMediaIDs
        shown.price = product.price
        shown.stock = product.stock
        shown.available = product.available && product.stock > 0
        shown.expertRating = product.expertRating
        shown.expertReview = product.expertReview
        shown.reviewerAccountID = product.reviewerAccountID
        shown.archived = product.archived
        shown.archiveTime = product.archiveTime
        shown.featured = product.featured
        return shown
    }
}

/// Who sees which products.
enum ProductView {
    /// Whether the caller is the shop's staff (sees unavailable and archived products).
    static func isStaff(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.provider) || caller.activeRoles.contains(.admin)
    }
}

/// Checks of product fields, each naming the field; every violation is named at once.
enum ProductValidation {
    /// Throws one INVALID_ARGUMENT naming every bad field of `paths`.
    static func check(_ product: SoukV1.Product, paths: Set<String>, currency: String, field: String) throws {
        var checks = FieldChecks()
        collect(product, paths: paths, currency: currency, field: field, &checks)
        try checks.finish()
    }

    static func collect(_ product: SoukV1.Product, paths: Set<String>, currency: String, field: String, _ checks: inout FieldChecks) {
        if paths.contains("name") {
            let name = product.name.trimmingCharacters(in: .whitespaces)
            checks.require(!name.isEmpty, "\(field).name", "is required")
            checks.require(name.count <= 200, "\(field).name", "must be at most 200 characters")
        }
        if paths.contains("price") {
            if let price = product.price {
                checks.require(
                    (0...CatalogLimits.maxPriceMinor).contains(price.amountMinor), "\(field).price",
                    "must be 0 to \(CatalogLimits.maxPriceMinor) minor units")
                checks.require(price.currencyCode == currency, "\(field).price", "must be in the marketplace's currency, \(currency)")
            } else {
                checks.add("\(field).price", "is required")
            }
        }
        if paths.contains("stock") { checks.require(product.stock >= 0, "\(field).stock", "must not be negative") }
        if paths.contains("vintage") {
            checks.require(
                product.vintage == 0 || (1800...2100).contains(product.vintage), "\(field).vintage",
                "must be a year (1800 to 2100) or 0 for non-vintage")
        }
        for (path, text, limit) in [("description", product.description, 4000), ("tasting_notes", product.tastingNotes, 4000), ("pairings", product.pairings, 1000)]
        where paths.contains(path) {
            checks.require(text.count <= limit, "\(field).\(path)", "must be at most \(limit) characters")
        }
    }

    /// Copies the masked fields.
    static func apply(_ paths: [String], from input: SoukV1.Product, to product: inout SoukStoreV1.Product) {
        for path in paths {
            switch path {
            case "name": product.name = input.name.trimmingCharacters(in: .whitespaces)
            case "description": product.description = input.description
            case "tasting_notes": product.tastingNotes = input.tastingNotes
            case "pairings": product.pairings = input.pairings
            case "category": product.category = input.category
            case "grape": product.grape = input.grape
            case "region": product.region = input.region
            case "vintage": product.vintage = input.vintage
            case "image_media_ids": product.imageMediaIDs = input.imageMediaIDs
            case "price": product.price = input.price
            case "stock": product.stock = input.stock
            case "available": product.available = input.available
            default: product.featured = input.featured
            }
        }
    }
}
