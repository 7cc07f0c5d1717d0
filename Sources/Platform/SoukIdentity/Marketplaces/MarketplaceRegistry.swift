import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// The marketplaces: creation, updates, and the cached lookup every contract call's scope check
/// uses (`MarketplaceDirectory`). All writes go through here, so the cache stays current.
public final class MarketplaceRegistry: MarketplaceDirectory {
    let store: Store
    let logger: Logger
    /// The vertical modules' checks of their parts of the settings.
    public let settingsValidators = SettingsValidators()
    /// Marketplaces read so far, by id (a handful of tenants: never evicted).
    private let cache = Mutex<[RecordID: SoukV1.Marketplace]>([:])

    public init(store: Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    public func marketplace(_ id: RecordID) throws -> SoukV1.Marketplace? {
        if let cached = cache.withLock({ $0[id] }) { return cached }
        guard let record = try store.get(MarketplaceTable.table, id) else { return nil }
        let marketplace = MarketplaceProjection.marketplace(record)
        remember(marketplace)
        return marketplace
    }

    /// The marketplace with this slug, or nil.
    public func marketplace(slug: String) throws -> SoukV1.Marketplace? {
        try store.get(MarketplaceTable.table, unique: MarketplaceTable.bySlug, [.string(slug)]).map(MarketplaceProjection.marketplace)
    }

    /// Keeps the newest version seen of a marketplace.
    private func remember(_ marketplace: SoukV1.Marketplace) {
        guard let id = RecordID(marketplace.id) else { return }
        cache.withLock { cache in
            if (cache[id]?.version ?? 0) < marketplace.version { cache[id] = marketplace }
        }
    }

    /// Creates a marketplace after validating it (defaults filled in); ALREADY_EXISTS when the
    /// slug is taken. With an idempotency key, a retry returns the first result.
    public func create(
        _ input: SoukV1.Marketplace?, idempotencyKey: IdempotencyKey?, fingerprint: RequestFingerprint, actor: AuditActor
    ) async throws -> SoukV1.Marketplace {
        let marketplace = try MarketplaceValidation.newMarketplace(input, validators: settingsValidators)
        let result = try await mappingSlugConflict(marketplace.slug) {
            try await store.write(idempotencyKey: idempotencyKey, fingerprint: fingerprint, responseCodec: MessageCodec<SoukV1.Marketplace>()) {
                transaction in
                let record = try transaction.insert(MarketplaceTable.table, marketplace)
                try AuditLog.record(
                    in: transaction, marketplaceID: record.id.description, resource: .init(type: .marketplace, id: record.id.description),
                    actor: actor, to: "ACTIVE", resourceVersion: record.version)
                return MarketplaceProjection.marketplace(record)
            }
        }
        remember(result.value)
        if !result.replayed {
            logger.info("marketplace created", metadata: [
                "marketplace_id": "\(result.value.id)", "slug": "\(result.value.slug)", "vertical": "\(result.value.vertical.protoName)",
                "actor_account_id": "\(actor.accountID)",
            ])
        }
        return result.value
    }

    /// Changes a marketplace in one transaction (checking `expectedVersion`), records the audit
    /// entry and refreshes the cache.
    func update(
        _ id: RecordID, expectedVersion: UInt64?, actor: AuditActor, event: String,
        from fromState: String = "", to toState: String = "",
        _ change: @escaping @Sendable (inout SoukStoreV1.Marketplace) throws -> Void
    ) async throws -> SoukV1.Marketplace {
        let slugBefore = try marketplace(id)?.slug ?? ""
        let updated = try await mappingSlugConflict(slugBefore) {
            try await store.write { transaction in
                let record = try transaction.update(MarketplaceTable.table, id, expectedVersion: expectedVersion, change)
                try AuditLog.record(
                    in: transaction, marketplaceID: id.description, resource: .init(type: .marketplace, id: id.description),
                    actor: actor, from: fromState, to: toState, resourceVersion: record.version)
                return MarketplaceProjection.marketplace(record)
            }
        }
        remember(updated)
        logger.info("marketplace \(event)", metadata: [
            "marketplace_id": "\(updated.id)", "version": "\(updated.version)", "actor_account_id": "\(actor.accountID)",
        ])
        return updated
    }

    private func mappingSlugConflict<T>(_ slug: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.uniqueViolation(let index, _) where index == MarketplaceTable.bySlug.name {
            throw RPCError.souk(.alreadyExists, .duplicate, "the slug is already taken by another marketplace")
        }
    }
}
