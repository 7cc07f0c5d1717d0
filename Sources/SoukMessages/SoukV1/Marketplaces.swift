import CProtobufC
import SoukProtoC

// souk/v1/marketplaces.proto: marketplaces, their vertical and settings.
extension SoukV1 {
    /// The kind of marketplace; it picks the flows and rules that apply.
    public enum Vertical: ProtoEnum, CaseIterable {
        case unspecified
        /// Water services: a catalog of services, scheduled orders, deliveries (Aqua Hub).
        case waterServices
        /// Retail shop with carts and shipping (Chateau Du Nox).
        case retail
        /// Peer-to-peer laundry jobs in dorms (Drip 'n Dash).
        case laundry
        /// Long-term rentals (MARA).
        case rentals
        /// Restaurant food delivery (DineSwift).
        case foodDelivery
        case unrecognized(Int32)

        public static let allCases: [Vertical] = [
            .unspecified, .waterServices, .retail, .laundry, .rentals, .foodDelivery,
        ]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .waterServices
            case 2: self = .retail
            case 3: self = .laundry
            case 4: self = .rentals
            case 5: self = .foodDelivery
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .waterServices: 1
            case .retail: 2
            case .laundry: 3
            case .rentals: 4
            case .foodDelivery: 5
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `VERTICAL_WATER_SERVICES`.
        public var protoName: String {
            switch self {
            case .unspecified: "VERTICAL_UNSPECIFIED"
            case .waterServices: "VERTICAL_WATER_SERVICES"
            case .retail: "VERTICAL_RETAIL"
            case .laundry: "VERTICAL_LAUNDRY"
            case .rentals: "VERTICAL_RENTALS"
            case .foodDelivery: "VERTICAL_FOOD_DELIVERY"
            case .unrecognized(let value): "VERTICAL_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// A tenant of the platform.
    public struct Marketplace: Sendable, Hashable {
        public var id: String
        /// Unique URL-safe short name ("aqua-hub", "chateau-du-nox"), lower case, 3–40 characters.
        public var slug: String
        /// Name shown to users.
        public var displayName: String
        /// Fixed at creation.
        public var vertical: SoukV1.Vertical
        /// ISO 4217 code all its money uses; fixed at creation ("SAR", "MYR", "USD", "VND").
        public var currencyCode: String
        /// IANA time zone for dates, schedules and report periods ("Asia/Riyadh").
        public var timeZone: String
        /// BCP 47 default language for messages and mail ("ar-SA", "en-US", "vi-VN").
        public var defaultLocale: String
        public var settings: SoukV1.MarketplaceSettings?
        public var archived: Bool
        public var archiveTime: Timestamp?
        public var version: Int64
        public var createTime: Timestamp?
        public var updateTime: Timestamp?

        public init(
            id: String = "",
            slug: String = "",
            displayName: String = "",
            vertical: SoukV1.Vertical = .unspecified,
            currencyCode: String = "",
            timeZone: String = "",
            defaultLocale: String = "",
            settings: SoukV1.MarketplaceSettings? = nil,
            archived: Bool = false,
            archiveTime: Timestamp? = nil,
            version: Int64 = 0,
            createTime: Timestamp? = nil,
            updateTime: Timestamp? = nil
        ) {
            self.id = id
            self.slug = slug
            self.displayName = displayName
            self.vertical = vertical
            self.currencyCode = currencyCode
            self.timeZone = timeZone
            self.defaultLocale = defaultLocale
            self.settings = settings
            self.archived = archived
            self.archiveTime = archiveTime
            self.version = version
            self.createTime = createTime
            self.updateTime = updateTime
        }
    }
}

extension SoukV1.Marketplace: CProtoMessage {
    public static var protoName: String { "souk.v1.Marketplace" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Marketplace>) { souk__v1__marketplace__init(c) }

    init(c: Souk__V1__Marketplace) throws {
        id = try Unpacked.string(c.id, "id")
        slug = try Unpacked.string(c.slug, "slug")
        displayName = try Unpacked.string(c.display_name, "display_name")
        vertical = .init(cValue: c.vertical)
        currencyCode = try Unpacked.string(c.currency_code, "currency_code")
        timeZone = try Unpacked.string(c.time_zone, "time_zone")
        defaultLocale = try Unpacked.string(c.default_locale, "default_locale")
        settings = try Unpacked.message(c.settings, "settings")
        archived = c.archived != 0
        archiveTime = try Unpacked.message(c.archive_time, "archive_time")
        version = c.version
        createTime = try Unpacked.message(c.create_time, "create_time")
        updateTime = try Unpacked.message(c.update_time, "update_time")
    }

    func fill(_ c: inout Souk__V1__Marketplace, _ arena: inout EncodingArena) {
        c.id = arena.string(id)
        c.slug = arena.string(slug)
        c.display_name = arena.string(displayName)
        c.vertical = vertical.cValue()
        c.currency_code = arena.string(currencyCode)
        c.time_zone = arena.string(timeZone)
        c.default_locale = arena.string(defaultLocale)
        c.settings = arena.message(settings)
        c.archived = archived ? 1 : 0
        c.archive_time = arena.message(archiveTime)
        c.version = version
        c.create_time = arena.message(createTime)
        c.update_time = arena.message(updateTime)
    }
}

extension SoukV1 {
    /// All tunable rules of a marketplace, grouped by area.
    public struct MarketplaceSettings: Sendable, Hashable {
        public var accounts: SoukV1.AccountSettings?
        public var commerce: SoukV1.CommerceSettings?
        public var laundry: SoukV1.LaundrySettings?
        public var rentals: SoukV1.RentalSettings?
        public var delivery: SoukV1.DeliverySettings?

        public init(
            accounts: SoukV1.AccountSettings? = nil,
            commerce: SoukV1.CommerceSettings? = nil,
            laundry: SoukV1.LaundrySettings? = nil,
            rentals: SoukV1.RentalSettings? = nil,
            delivery: SoukV1.DeliverySettings? = nil
        ) {
            self.accounts = accounts
            self.commerce = commerce
            self.laundry = laundry
            self.rentals = rentals
            self.delivery = delivery
        }
    }
}

extension SoukV1.MarketplaceSettings: CProtoMessage {
    public static var protoName: String { "souk.v1.MarketplaceSettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__MarketplaceSettings>) { souk__v1__marketplace_settings__init(c) }

    init(c: Souk__V1__MarketplaceSettings) throws {
        accounts = try Unpacked.message(c.accounts, "accounts")
        commerce = try Unpacked.message(c.commerce, "commerce")
        laundry = try Unpacked.message(c.laundry, "laundry")
        rentals = try Unpacked.message(c.rentals, "rentals")
        delivery = try Unpacked.message(c.delivery, "delivery")
    }

    func fill(_ c: inout Souk__V1__MarketplaceSettings, _ arena: inout EncodingArena) {
        c.accounts = arena.message(accounts)
        c.commerce = arena.message(commerce)
        c.laundry = arena.message(laundry)
        c.rentals = arena.message(rentals)
        c.delivery = arena.message(delivery)
    }
}

extension SoukV1 {
    /// Sign-up and sign-in rules (platform decisions 5 and 6).
    public struct AccountSettings: Sendable, Hashable {
        /// If not empty, sign-up e-mails must end with "@" + one of these domains, compared case-insensitively (Drip 'n Dash: ["rutgers.edu"]).
        public var allowedEmailDomains: [String]
        /// Failed logins in a row that lock the account (5).
        public var maxFailedLogins: Int32
        /// How long a lockout lasts (15 minutes).
        public var lockoutDuration: Duration?
        /// Lifetime of a password-reset token (1 hour); tokens are single-use.
        public var passwordResetTTL: Duration?
        /// Lifetime of an access token (e.g.
        public var accessTokenTTL: Duration?
        /// Lifetime of a refresh token (e.g.
        public var refreshTokenTTL: Duration?
        /// How long after its rotation the refresh token it retired may be presented again and get the same new pair back (a lost Refresh answer, two refreshes at once).
        public var refreshReuseInterval: Duration?

        public init(
            allowedEmailDomains: [String] = [],
            maxFailedLogins: Int32 = 0,
            lockoutDuration: Duration? = nil,
            passwordResetTTL: Duration? = nil,
            accessTokenTTL: Duration? = nil,
            refreshTokenTTL: Duration? = nil,
            refreshReuseInterval: Duration? = nil
        ) {
            self.allowedEmailDomains = allowedEmailDomains
            self.maxFailedLogins = maxFailedLogins
            self.lockoutDuration = lockoutDuration
            self.passwordResetTTL = passwordResetTTL
            self.accessTokenTTL = accessTokenTTL
            self.refreshTokenTTL = refreshTokenTTL
            self.refreshReuseInterval = refreshReuseInterval
        }
    }
}

extension SoukV1.AccountSettings: CProtoMessage {
    public static var protoName: String { "souk.v1.AccountSettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__AccountSettings>) { souk__v1__account_settings__init(c) }

    init(c: Souk__V1__AccountSettings) throws {
        allowedEmailDomains = try Unpacked.strings(c.n_allowed_email_domains, c.allowed_email_domains, "allowed_email_domains")
        maxFailedLogins = c.max_failed_logins
        lockoutDuration = try Unpacked.duration(c.lockout_duration, "lockout_duration")
        passwordResetTTL = try Unpacked.duration(c.password_reset_ttl, "password_reset_ttl")
        accessTokenTTL = try Unpacked.duration(c.access_token_ttl, "access_token_ttl")
        refreshTokenTTL = try Unpacked.duration(c.refresh_token_ttl, "refresh_token_ttl")
        refreshReuseInterval = try Unpacked.duration(c.refresh_reuse_interval, "refresh_reuse_interval")
    }

    func fill(_ c: inout Souk__V1__AccountSettings, _ arena: inout EncodingArena) {
        c.n_allowed_email_domains = allowedEmailDomains.count
        c.allowed_email_domains = arena.strings(allowedEmailDomains)
        c.max_failed_logins = maxFailedLogins
        c.lockout_duration = arena.duration(lockoutDuration)
        c.password_reset_ttl = arena.duration(passwordResetTTL)
        c.access_token_ttl = arena.duration(accessTokenTTL)
        c.refresh_token_ttl = arena.duration(refreshTokenTTL)
        c.refresh_reuse_interval = arena.duration(refreshReuseInterval)
    }
}

extension SoukV1 {
    /// Money rules for carts, orders and payments.
    public struct CommerceSettings: Sendable, Hashable {
        /// Tax on the subtotal, basis points (Chateau Du Nox: 2600 = 26 %; others 0 unless set).
        public var taxRateBps: Int32
        /// Flat shipping per retail order (Chateau Du Nox: 5990 MYR minor = RM 59.90).
        public var shippingFee: SoukV1.Money?
        /// Flat delivery fee per food order, paid to the driver (DineSwift, set by admin).
        public var deliveryFee: SoukV1.Money?
        /// Commission a new restaurant pays on each order's subtotal, basis points; admins change it per restaurant with Catalog.SetRestaurantCommission.
        public var defaultCommissionBps: Int32
        /// Largest quantity of one cart line (Chateau Du Nox: 12, one carton); 0 means no cap.
        public var maxQuantityPerCartLine: Int32
        /// Payment methods customers may use (Aqua Hub: Apple Pay, cash; Chateau Du Nox: card; DineSwift: cash; Drip 'n Dash: Apple Pay, Google Pay, card; MARA: card, Apple Pay, Google Pay).
        public var acceptedPaymentMethods: [SoukV1.PaymentMethod]

        public init(
            taxRateBps: Int32 = 0,
            shippingFee: SoukV1.Money? = nil,
            deliveryFee: SoukV1.Money? = nil,
            defaultCommissionBps: Int32 = 0,
            maxQuantityPerCartLine: Int32 = 0,
            acceptedPaymentMethods: [SoukV1.PaymentMethod] = []
        ) {
            self.taxRateBps = taxRateBps
            self.shippingFee = shippingFee
            self.deliveryFee = deliveryFee
            self.defaultCommissionBps = defaultCommissionBps
            self.maxQuantityPerCartLine = maxQuantityPerCartLine
            self.acceptedPaymentMethods = acceptedPaymentMethods
        }
    }
}

extension SoukV1.CommerceSettings: CProtoMessage {
    public static var protoName: String { "souk.v1.CommerceSettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__CommerceSettings>) { souk__v1__commerce_settings__init(c) }

    init(c: Souk__V1__CommerceSettings) throws {
        taxRateBps = c.tax_rate_bps
        shippingFee = try Unpacked.message(c.shipping_fee, "shipping_fee")
        deliveryFee = try Unpacked.message(c.delivery_fee, "delivery_fee")
        defaultCommissionBps = c.default_commission_bps
        maxQuantityPerCartLine = c.max_quantity_per_cart_line
        acceptedPaymentMethods = Unpacked.enumValues(c.n_accepted_payment_methods, c.accepted_payment_methods)
    }

    func fill(_ c: inout Souk__V1__CommerceSettings, _ arena: inout EncodingArena) {
        c.tax_rate_bps = taxRateBps
        c.shipping_fee = arena.message(shippingFee)
        c.delivery_fee = arena.message(deliveryFee)
        c.default_commission_bps = defaultCommissionBps
        c.max_quantity_per_cart_line = maxQuantityPerCartLine
        c.n_accepted_payment_methods = acceptedPaymentMethods.count
        c.accepted_payment_methods = arena.enumValues(acceptedPaymentMethods, as: Souk__V1__PaymentMethod.self)
    }
}

extension SoukV1 {
    /// Drip 'n Dash pricing: estimate = loads × machine_cost_per_load + service_fee + add-ons.
    public struct LaundrySettings: Sendable, Hashable {
        /// Machine cost of one load (wash and dry) used for the estimate.
        public var machineCostPerLoad: SoukV1.Money?
        /// Flat service fee per job; must be between $5.00 and $10.00.
        public var serviceFee: SoukV1.Money?
        /// Folding add-on ($2.50).
        public var foldingPrice: SoukV1.Money?
        /// Ironing add-on ($5.00).
        public var ironingPrice: SoukV1.Money?
        /// Last stage number (0–9) in which the customer may still cancel (2).
        public var lastCancellableStage: Int32
        /// How long a job offered by RequestWork stays reserved for a Dasher who neither accepts nor denies it before it returns to the queue (e.g.
        public var jobOfferTimeout: Duration?

        public init(
            machineCostPerLoad: SoukV1.Money? = nil,
            serviceFee: SoukV1.Money? = nil,
            foldingPrice: SoukV1.Money? = nil,
            ironingPrice: SoukV1.Money? = nil,
            lastCancellableStage: Int32 = 0,
            jobOfferTimeout: Duration? = nil
        ) {
            self.machineCostPerLoad = machineCostPerLoad
            self.serviceFee = serviceFee
            self.foldingPrice = foldingPrice
            self.ironingPrice = ironingPrice
            self.lastCancellableStage = lastCancellableStage
            self.jobOfferTimeout = jobOfferTimeout
        }
    }
}

extension SoukV1.LaundrySettings: CProtoMessage {
    public static var protoName: String { "souk.v1.LaundrySettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__LaundrySettings>) { souk__v1__laundry_settings__init(c) }

    init(c: Souk__V1__LaundrySettings) throws {
        machineCostPerLoad = try Unpacked.message(c.machine_cost_per_load, "machine_cost_per_load")
        serviceFee = try Unpacked.message(c.service_fee, "service_fee")
        foldingPrice = try Unpacked.message(c.folding_price, "folding_price")
        ironingPrice = try Unpacked.message(c.ironing_price, "ironing_price")
        lastCancellableStage = c.last_cancellable_stage
        jobOfferTimeout = try Unpacked.duration(c.job_offer_timeout, "job_offer_timeout")
    }

    func fill(_ c: inout Souk__V1__LaundrySettings, _ arena: inout EncodingArena) {
        c.machine_cost_per_load = arena.message(machineCostPerLoad)
        c.service_fee = arena.message(serviceFee)
        c.folding_price = arena.message(foldingPrice)
        c.ironing_price = arena.message(ironingPrice)
        c.last_cancellable_stage = lastCancellableStage
        c.job_offer_timeout = arena.duration(jobOfferTimeout)
    }
}

extension SoukV1 {
    /// MARA lease and payment-split rules.
    public struct RentalSettings: Sendable, Hashable {
        /// Shortest lease, in months (6).
        public var minLeaseMonths: Int32
        /// Allowed deposit, in months of rent: from 1 to this (2).
        public var maxDepositMonths: Int32
        /// Payment provider's share of every rental payment, basis points.
        public var paymentProviderFeeBps: Int32
        /// Platform's share of every rental payment, basis points; the lessor gets the rest.
        public var platformFeeBps: Int32

        public init(
            minLeaseMonths: Int32 = 0,
            maxDepositMonths: Int32 = 0,
            paymentProviderFeeBps: Int32 = 0,
            platformFeeBps: Int32 = 0
        ) {
            self.minLeaseMonths = minLeaseMonths
            self.maxDepositMonths = maxDepositMonths
            self.paymentProviderFeeBps = paymentProviderFeeBps
            self.platformFeeBps = platformFeeBps
        }
    }
}

extension SoukV1.RentalSettings: CProtoMessage {
    public static var protoName: String { "souk.v1.RentalSettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RentalSettings>) { souk__v1__rental_settings__init(c) }

    init(c: Souk__V1__RentalSettings) throws {
        minLeaseMonths = c.min_lease_months
        maxDepositMonths = c.max_deposit_months
        paymentProviderFeeBps = c.payment_provider_fee_bps
        platformFeeBps = c.platform_fee_bps
    }

    func fill(_ c: inout Souk__V1__RentalSettings, _ arena: inout EncodingArena) {
        c.min_lease_months = minLeaseMonths
        c.max_deposit_months = maxDepositMonths
        c.payment_provider_fee_bps = paymentProviderFeeBps
        c.platform_fee_bps = platformFeeBps
    }
}

extension SoukV1 {
    /// Courier dispatch rules (food delivery).
    public struct DeliverySettings: Sendable, Hashable {
        /// How often an online driver's app should report its position (e.g.
        public var locationReportInterval: Duration?
        /// A driver whose last position is older than this is not offered work (e.g.
        public var locationStaleAfter: Duration?
        /// An offer not answered within this time lapses and the restaurant offers again (e.g.
        public var offerTimeout: Duration?

        public init(
            locationReportInterval: Duration? = nil,
            locationStaleAfter: Duration? = nil,
            offerTimeout: Duration? = nil
        ) {
            self.locationReportInterval = locationReportInterval
            self.locationStaleAfter = locationStaleAfter
            self.offerTimeout = offerTimeout
        }
    }
}

extension SoukV1.DeliverySettings: CProtoMessage {
    public static var protoName: String { "souk.v1.DeliverySettings" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__DeliverySettings>) { souk__v1__delivery_settings__init(c) }

    init(c: Souk__V1__DeliverySettings) throws {
        locationReportInterval = try Unpacked.duration(c.location_report_interval, "location_report_interval")
        locationStaleAfter = try Unpacked.duration(c.location_stale_after, "location_stale_after")
        offerTimeout = try Unpacked.duration(c.offer_timeout, "offer_timeout")
    }

    func fill(_ c: inout Souk__V1__DeliverySettings, _ arena: inout EncodingArena) {
        c.location_report_interval = arena.duration(locationReportInterval)
        c.location_stale_after = arena.duration(locationStaleAfter)
        c.offer_timeout = arena.duration(offerTimeout)
    }
}

extension SoukV1 {
    /// Request of Marketplaces.CreateMarketplace.
    public struct CreateMarketplaceRequest: Sendable, Hashable {
        /// Idempotency key.
        public var requestID: String
        /// id, version, times and archived are ignored.
        public var marketplace: SoukV1.Marketplace?

        public init(requestID: String = "", marketplace: SoukV1.Marketplace? = nil) {
            self.requestID = requestID
            self.marketplace = marketplace
        }
    }
}

extension SoukV1.CreateMarketplaceRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.CreateMarketplaceRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__CreateMarketplaceRequest>) { souk__v1__create_marketplace_request__init(c) }

    init(c: Souk__V1__CreateMarketplaceRequest) throws {
        requestID = try Unpacked.string(c.request_id, "request_id")
        marketplace = try Unpacked.message(c.marketplace, "marketplace")
    }

    func fill(_ c: inout Souk__V1__CreateMarketplaceRequest, _ arena: inout EncodingArena) {
        c.request_id = arena.string(requestID)
        c.marketplace = arena.message(marketplace)
    }
}

extension SoukV1 {
    /// Request of Marketplaces.GetMarketplace.
    public struct GetMarketplaceRequest: Sendable, Hashable {
        public var marketplaceID: String

        public init(marketplaceID: String = "") {
            self.marketplaceID = marketplaceID
        }
    }
}

extension SoukV1.GetMarketplaceRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.GetMarketplaceRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GetMarketplaceRequest>) { souk__v1__get_marketplace_request__init(c) }

    init(c: Souk__V1__GetMarketplaceRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
    }

    func fill(_ c: inout Souk__V1__GetMarketplaceRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
    }
}

extension SoukV1.GetMarketplaceRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Marketplaces.ListMarketplaces.
    public struct ListMarketplacesRequest: Sendable, Hashable {
        public var pageSize: Int32
        public var pageToken: String
        /// Exact slug; empty means any.
        public var slug: String
        /// Only this vertical; unspecified means any.
        public var vertical: SoukV1.Vertical
        /// Include archived marketplaces (operators only; ignored for others).
        public var showArchived: Bool

        public init(
            pageSize: Int32 = 0,
            pageToken: String = "",
            slug: String = "",
            vertical: SoukV1.Vertical = .unspecified,
            showArchived: Bool = false
        ) {
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.slug = slug
            self.vertical = vertical
            self.showArchived = showArchived
        }
    }
}

extension SoukV1.ListMarketplacesRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ListMarketplacesRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListMarketplacesRequest>) { souk__v1__list_marketplaces_request__init(c) }

    init(c: Souk__V1__ListMarketplacesRequest) throws {
        pageSize = c.page_size
        pageToken = try Unpacked.string(c.page_token, "page_token")
        slug = try Unpacked.string(c.slug, "slug")
        vertical = .init(cValue: c.vertical)
        showArchived = c.show_archived != 0
    }

    func fill(_ c: inout Souk__V1__ListMarketplacesRequest, _ arena: inout EncodingArena) {
        c.page_size = pageSize
        c.page_token = arena.string(pageToken)
        c.slug = arena.string(slug)
        c.vertical = vertical.cValue()
        c.show_archived = showArchived ? 1 : 0
    }
}

extension SoukV1 {
    /// Response of Marketplaces.ListMarketplaces.
    public struct ListMarketplacesResponse: Sendable, Hashable {
        public var marketplaces: [SoukV1.Marketplace]
        public var nextPageToken: String

        public init(marketplaces: [SoukV1.Marketplace] = [], nextPageToken: String = "") {
            self.marketplaces = marketplaces
            self.nextPageToken = nextPageToken
        }
    }
}

extension SoukV1.ListMarketplacesResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ListMarketplacesResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListMarketplacesResponse>) { souk__v1__list_marketplaces_response__init(c) }

    init(c: Souk__V1__ListMarketplacesResponse) throws {
        marketplaces = try Unpacked.messages(c.n_marketplaces, c.marketplaces, "marketplaces")
        nextPageToken = try Unpacked.string(c.next_page_token, "next_page_token")
    }

    func fill(_ c: inout Souk__V1__ListMarketplacesResponse, _ arena: inout EncodingArena) {
        c.n_marketplaces = marketplaces.count
        c.marketplaces = arena.messages(marketplaces)
        c.next_page_token = arena.string(nextPageToken)
    }
}

extension SoukV1 {
    /// Request of Marketplaces.UpdateMarketplace.
    public struct UpdateMarketplaceRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Fields to change; only the paths in update_mask are read.
        public var marketplace: SoukV1.Marketplace?
        public var updateMask: GoogleProtobuf.FieldMask?
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            marketplace: SoukV1.Marketplace? = nil,
            updateMask: GoogleProtobuf.FieldMask? = nil,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.marketplace = marketplace
            self.updateMask = updateMask
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.UpdateMarketplaceRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.UpdateMarketplaceRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__UpdateMarketplaceRequest>) { souk__v1__update_marketplace_request__init(c) }

    init(c: Souk__V1__UpdateMarketplaceRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        marketplace = try Unpacked.message(c.marketplace, "marketplace")
        updateMask = try Unpacked.message(c.update_mask, "update_mask")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__UpdateMarketplaceRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.marketplace = arena.message(marketplace)
        c.update_mask = arena.message(updateMask)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.UpdateMarketplaceRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Marketplaces.UpdateMarketplaceSettings.
    public struct UpdateMarketplaceSettingsRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// New values; only the paths in update_mask are read.
        public var settings: SoukV1.MarketplaceSettings?
        public var updateMask: GoogleProtobuf.FieldMask?
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            settings: SoukV1.MarketplaceSettings? = nil,
            updateMask: GoogleProtobuf.FieldMask? = nil,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.settings = settings
            self.updateMask = updateMask
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.UpdateMarketplaceSettingsRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.UpdateMarketplaceSettingsRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__UpdateMarketplaceSettingsRequest>) { souk__v1__update_marketplace_settings_request__init(c) }

    init(c: Souk__V1__UpdateMarketplaceSettingsRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        settings = try Unpacked.message(c.settings, "settings")
        updateMask = try Unpacked.message(c.update_mask, "update_mask")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__UpdateMarketplaceSettingsRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.settings = arena.message(settings)
        c.update_mask = arena.message(updateMask)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.UpdateMarketplaceSettingsRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Marketplaces.ArchiveMarketplace.
    public struct ArchiveMarketplaceRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.ArchiveMarketplaceRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ArchiveMarketplaceRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ArchiveMarketplaceRequest>) { souk__v1__archive_marketplace_request__init(c) }

    init(c: Souk__V1__ArchiveMarketplaceRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__ArchiveMarketplaceRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.ArchiveMarketplaceRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Marketplaces.RestoreMarketplace.
    public struct RestoreMarketplaceRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.RestoreMarketplaceRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RestoreMarketplaceRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RestoreMarketplaceRequest>) { souk__v1__restore_marketplace_request__init(c) }

    init(c: Souk__V1__RestoreMarketplaceRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__RestoreMarketplaceRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.RestoreMarketplaceRequest: MarketplaceScopedRequest {}

