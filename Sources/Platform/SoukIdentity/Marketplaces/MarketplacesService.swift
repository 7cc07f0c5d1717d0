import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

/// `souk.v1.Marketplaces`: creating, reading and configuring marketplaces.
public struct MarketplacesService: RPCService {
    public let serviceName = "souk.v1.Marketplaces"
    let registry: MarketplaceRegistry
    let store: Store
    let build: SoukMethodBuilder

    public init(registry: MarketplaceRegistry, rules: AccessRules) {
        self.registry = registry
        store = registry.store
        build = SoukMethodBuilder(service: serviceName, rules: rules, marketplaces: registry, logger: registry.logger)
    }

    public var methods: [RPCMethod] { declaration.methods(build) }

    /// Every RPC of the service with its handler.
    var declaration: SoukV1Services.Marketplaces {
        SoukV1Services.Marketplaces(
            createMarketplace: .handler(create),
            getMarketplace: .handler { _, call in try call.requireMarketplace().marketplace },
            listMarketplaces: .handler(list),
            updateMarketplace: .handler(update),
            updateMarketplaceSettings: .handler(updateSettings),
            archiveMarketplace: .handler { request, call in try await setArchived(true, request.expectedVersion, call) },
            restoreMarketplace: .handler { request, call in try await setArchived(false, request.expectedVersion, call) })
    }

    private func create(_ request: SoukV1.CreateMarketplaceRequest, _ call: SoukCall) async throws -> SoukV1.Marketplace {
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.requestID(request.requestID) }
        try checks.check { _ = try MarketplaceValidation.newMarketplace(request.marketplace, validators: registry.settingsValidators) }
        try checks.finish()
        let requestID = checkedID ?? ""
        return try await registry.create(
            request.marketplace,
            idempotencyKey: IdempotencyKey(marketplace: "", account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), actor: AuditActor(call, requestID: requestID))
    }

    private func list(_ request: SoukV1.ListMarketplacesRequest, _ call: SoukCall) async throws -> SoukV1.ListMarketplacesResponse {
        let showArchived = request.showArchived && call.caller?.isOperator == true
        let filters = "slug=\(request.slug);vertical=\(request.vertical.rawValue);archived=\(showArchived)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        if !request.slug.isEmpty {
            guard page.token == nil, let found = try registry.marketplace(slug: request.slug),
                  request.vertical == .unspecified || found.vertical == request.vertical, showArchived || !found.archived
            else { return SoukV1.ListMarketplacesResponse() }
            return SoukV1.ListMarketplacesResponse(marketplaces: [found])
        }
        let vertical: SoukV1.Vertical? = request.vertical == .unspecified ? nil : request.vertical
        let result: Page<SoukStoreV1.Marketplace>
        switch (showArchived, vertical) {
        case (true, nil): result = try store.list(MarketplaceTable.table, MarketplaceTable.all, page: page)
        case (true, let vertical?):
            result = try store.list(
                MarketplaceTable.table, MarketplaceTable.byVertical, IndexRange.starting(with: [.enumCase(vertical)]), page: page)
        case (false, nil):
            result = try store.list(MarketplaceTable.table, MarketplaceTable.byArchived, IndexRange.starting(with: [.bool(false)]), page: page)
        case (false, let vertical?):
            result = try store.list(
                MarketplaceTable.table, MarketplaceTable.byArchivedVertical, IndexRange.starting(with: [.bool(false), .enumCase(vertical)]),
                page: page)
        }
        return SoukV1.ListMarketplacesResponse(
            marketplaces: result.items.map(MarketplaceProjection.marketplace),
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    private func update(_ request: SoukV1.UpdateMarketplaceRequest, _ call: SoukCall) async throws -> SoukV1.Marketplace {
        let (id, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let paths = try checks.run {
            try RequestFields.maskPaths(request.updateMask, allowed: ["display_name", "slug", "time_zone", "default_locale"])
        } ?? []
        let input = request.marketplace ?? SoukV1.Marketplace()
        for path in paths {
            try checks.check {
                switch path {
                case "display_name": try MarketplaceValidation.displayName(input.displayName, field: "marketplace.display_name")
                case "slug": try MarketplaceValidation.slug(input.slug, field: "marketplace.slug")
                case "time_zone": try MarketplaceValidation.timeZone(input.timeZone, field: "marketplace.time_zone")
                default: try MarketplaceValidation.locale(input.defaultLocale, field: "marketplace.default_locale")
                }
            }
        }
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        try checks.finish()
        return try await registry.update(id, expectedVersion: expected, actor: AuditActor(call), event: "updated") { marketplace in
            for path in paths {
                switch path {
                case "display_name": marketplace.displayName = input.displayName
                case "slug": marketplace.slug = input.slug
                case "time_zone": marketplace.timeZone = input.timeZone
                default: marketplace.defaultLocale = input.defaultLocale
                }
            }
        }
    }

    private func updateSettings(_ request: SoukV1.UpdateMarketplaceSettingsRequest, _ call: SoukCall) async throws -> SoukV1.Marketplace {
        let (id, current) = try call.requireMarketplace()
        var checks = FieldChecks()
        let paths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: SettingsMask.allowedPaths) } ?? []
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        let source = request.settings ?? SoukV1.MarketplaceSettings()
        // Validate what the request brings before touching the stored settings.
        var proposed = current.settings ?? SoukV1.MarketplaceSettings()
        SettingsMask.apply(paths, from: source, to: &proposed)
        try checks.check {
            _ = try MarketplaceValidation.settings(proposed, currency: current.currencyCode, vertical: current.vertical, field: "settings",
                validators: registry.settingsValidators)
        }
        try checks.finish()
        let validators = registry.settingsValidators
        return try await registry.update(id, expectedVersion: expected, actor: AuditActor(call), event: "settings updated") { marketplace in
            var settings = marketplace.settings ?? SoukV1.MarketplaceSettings()
            SettingsMask.apply(paths, from: source, to: &settings)
            marketplace.settings = try MarketplaceValidation.settings(
                settings, currency: marketplace.currencyCode, vertical: marketplace.vertical, field: "settings", validators: validators)
        }
    }

    private func setArchived(_ archived: Bool, _ expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.Marketplace {
        let (id, current) = try call.requireMarketplace()
        let expected = try RequestFields.expectedVersion(expectedVersion)
        guard current.archived != archived else {
            throw RPCError.souk(
                .failedPrecondition, .invalidTransition, archived ? "the marketplace is already archived" : "the marketplace is not archived")
        }
        let now = Timestamp.now()
        return try await registry.update(
            id, expectedVersion: expected, actor: AuditActor(call), event: archived ? "archived" : "restored",
            from: archived ? "ACTIVE" : "ARCHIVED", to: archived ? "ARCHIVED" : "ACTIVE"
        ) { marketplace in
            guard marketplace.archived != archived else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, archived ? "the marketplace is already archived" : "the marketplace is not archived")
            }
            marketplace.archived = archived
            marketplace.archiveTime = archived ? now : nil
        }
    }
}
