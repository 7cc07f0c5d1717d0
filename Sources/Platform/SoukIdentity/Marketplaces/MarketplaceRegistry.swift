import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// The marketplaces: creation, updates, and the cached lookup every contract call's scope check
/// uses (`MarketplaceDirectory`).
///
/// Every committed change to a marketplace drops its cached entry (`Store.observeCommits`): a
/// change through this node before its write returns, one through another node on a replicated
/// store as the store's watch delivers it (a moment after its commit). A marketplace read from
/// the store before a change is not kept after it, so the next call reads the store again.
public final class MarketplaceRegistry: MarketplaceDirectory {
    let store: Store
    let logger: Logger
    /// The vertical modules' checks of their parts of the settings.
    public let settingsValidators = SettingsValidators()
    /// Marketplaces read so far, by id (a handful of tenants: never evicted).
    private let cache = Mutex(Cache())

    private struct Cache {
        var entries: [RecordID: SoukV1.Marketplace] = [:]
        /// Counts the changes observed: what was read before one is not kept after it (it may
        /// predate the change).
        var generation: UInt64 = 0
    }

    public init(store: Store, logger: Logger) {
        self.store = store
        self.logger = logger
        store.observeCommits(to: MarketplaceTable.table) { [weak self] changes in self?.forget(changes.recordIDs) }
    }

    public func marketplace(_ id: RecordID) throws -> SoukV1.Marketplace? {
        let (cached, generation) = cache.withLock { ($0.entries[id], $0.generation) }
        if let cached { return cached }
        guard let record = try store.get(MarketplaceTable.table, id) else { return nil }
        let marketplace = MarketplaceProjection.marketplace(record)
        remember(marketplace, readAt: generation)
        return marketplace
    }

    /// The marketplace with this slug, or nil.
    public func marketplace(slug: String) throws -> SoukV1.Marketplace? {
        try store.get(MarketplaceTable.table, unique: MarketplaceTable.bySlug, [.string(slug)]).map(MarketplaceProjection.marketplace)
    }

    /// Keeps `marketplace`, read from the store at `generation`, unless a marketplace changed since
    /// or a newer version is kept.
    private func remember(_ marketplace: SoukV1.Marketplace, readAt generation: UInt64) {
        guard let id = RecordID(marketplace.id) else { return }
        cache.withLock { cache in
            guard cache.generation == generation, (cache.entries[id]?.version ?? 0) < marketplace.version else { return }
            cache.entries[id] = marketplace
        }
    }

    /// Drops the entries of these marketplaces (their changes committed, here or on another node);
    /// every entry when nil (changes of other nodes were missed).
    private func forget(_ ids: [RecordID]?) {
        cache.withLock { cache in
            cache.generation &+= 1
            guard let ids else { return cache.entries.removeAll() }
            for id in ids { cache.entries[id] = nil }
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
        if !result.replayed {
            logger.info("marketplace created", metadata: [
                "marketplace_id": "\(result.value.id)", "slug": "\(result.value.slug)", "vertical": "\(result.value.vertical.protoName)",
                "actor_account_id": "\(actor.accountID)",
            ])
        }
        return result.value
    }

    /// Changes a marketplace in one transaction (checking `expectedVersion`) and records the audit
    /// entry; the commit drops the cached entry.
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
