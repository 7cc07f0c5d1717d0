import CProtobufC
import SoukProtoC

// souk/v1/common.proto: shared messages and enums of the contract.
extension SoukV1 {
    /// Kinds of fees.
    public enum FeeKind: ProtoEnum, CaseIterable {
        case unspecified
        /// Flat shipping per order (retail; RM 59.90 at Chateau Du Nox).
        case shipping
        /// Flat delivery fee per order (food delivery; a marketplace setting).
        case delivery
        /// Flat service fee (laundry: between $5 and $10).
        case service
        /// A priced add-on (laundry folding or ironing).
        case addOn
        case unrecognized(Int32)

        public static let allCases: [FeeKind] = [.unspecified, .shipping, .delivery, .service, .addOn]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .shipping
            case 2: self = .delivery
            case 3: self = .service
            case 4: self = .addOn
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .shipping: 1
            case .delivery: 2
            case .service: 3
            case .addOn: 4
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `FEE_KIND_SHIPPING`.
        public var protoName: String {
            switch self {
            case .unspecified: "FEE_KIND_UNSPECIFIED"
            case .shipping: "FEE_KIND_SHIPPING"
            case .delivery: "FEE_KIND_DELIVERY"
            case .service: "FEE_KIND_SERVICE"
            case .addOn: "FEE_KIND_ADD_ON"
            case .unrecognized(let value): "FEE_KIND_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// Roles an account can hold (platform decision 3).
    public enum Role: ProtoEnum, CaseIterable {
        case unspecified
        /// Buys, orders, books, requests laundry.
        case customer
        /// Sells: shop staff, restaurant owner, service company, lessor.
        case provider
        /// Delivers: delivery staff, driver, Dasher.
        case courier
        /// Runs the marketplace.
        case admin
        /// Runs the platform; held only by platform accounts, never granted inside a marketplace.
        case `operator`
        case unrecognized(Int32)

        public static let allCases: [Role] = [.unspecified, .customer, .provider, .courier, .admin, .`operator`]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .customer
            case 2: self = .provider
            case 3: self = .courier
            case 4: self = .admin
            case 5: self = .`operator`
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .customer: 1
            case .provider: 2
            case .courier: 3
            case .admin: 4
            case .`operator`: 5
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `ROLE_CUSTOMER`.
        public var protoName: String {
            switch self {
            case .unspecified: "ROLE_UNSPECIFIED"
            case .customer: "ROLE_CUSTOMER"
            case .provider: "ROLE_PROVIDER"
            case .courier: "ROLE_COURIER"
            case .admin: "ROLE_ADMIN"
            case .`operator`: "ROLE_OPERATOR"
            case .unrecognized(let value): "ROLE_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// Kinds of resources, for references that may point at several kinds.
    public enum ResourceType: ProtoEnum, CaseIterable {
        case unspecified
        case marketplace
        case account
        case address
        case service
        case product
        case restaurant
        case menuItem
        case cart
        case order
        case payment
        case delivery
        case feedback
        case dorm
        case job
        case listing
        case place
        case booking
        case bill
        case conversation
        case message
        case notification
        case ticket
        case announcement
        case policy
        case advertisement
        case device
        case unrecognized(Int32)

        public static let allCases: [ResourceType] = [
            .unspecified, .marketplace, .account, .address, .service, .product, .restaurant, .menuItem, .cart,
            .order, .payment, .delivery, .feedback, .dorm, .job, .listing, .place, .booking, .bill, .conversation,
            .message, .notification, .ticket, .announcement, .policy, .advertisement, .device,
        ]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .marketplace
            case 2: self = .account
            case 3: self = .address
            case 4: self = .service
            case 5: self = .product
            case 6: self = .restaurant
            case 7: self = .menuItem
            case 8: self = .cart
            case 9: self = .order
            case 10: self = .payment
            case 11: self = .delivery
            case 12: self = .feedback
            case 13: self = .dorm
            case 14: self = .job
            case 15: self = .listing
            case 16: self = .place
            case 17: self = .booking
            case 18: self = .bill
            case 19: self = .conversation
            case 20: self = .message
            case 21: self = .notification
            case 22: self = .ticket
            case 23: self = .announcement
            case 24: self = .policy
            case 25: self = .advertisement
            case 26: self = .device
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .marketplace: 1
            case .account: 2
            case .address: 3
            case .service: 4
            case .product: 5
            case .restaurant: 6
            case .menuItem: 7
            case .cart: 8
            case .order: 9
            case .payment: 10
            case .delivery: 11
            case .feedback: 12
            case .dorm: 13
            case .job: 14
            case .listing: 15
            case .place: 16
            case .booking: 17
            case .bill: 18
            case .conversation: 19
            case .message: 20
            case .notification: 21
            case .ticket: 22
            case .announcement: 23
            case .policy: 24
            case .advertisement: 25
            case .device: 26
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `RESOURCE_TYPE_MARKETPLACE`.
        public var protoName: String {
            switch self {
            case .unspecified: "RESOURCE_TYPE_UNSPECIFIED"
            case .marketplace: "RESOURCE_TYPE_MARKETPLACE"
            case .account: "RESOURCE_TYPE_ACCOUNT"
            case .address: "RESOURCE_TYPE_ADDRESS"
            case .service: "RESOURCE_TYPE_SERVICE"
            case .product: "RESOURCE_TYPE_PRODUCT"
            case .restaurant: "RESOURCE_TYPE_RESTAURANT"
            case .menuItem: "RESOURCE_TYPE_MENU_ITEM"
            case .cart: "RESOURCE_TYPE_CART"
            case .order: "RESOURCE_TYPE_ORDER"
            case .payment: "RESOURCE_TYPE_PAYMENT"
            case .delivery: "RESOURCE_TYPE_DELIVERY"
            case .feedback: "RESOURCE_TYPE_FEEDBACK"
            case .dorm: "RESOURCE_TYPE_DORM"
            case .job: "RESOURCE_TYPE_JOB"
            case .listing: "RESOURCE_TYPE_LISTING"
            case .place: "RESOURCE_TYPE_PLACE"
            case .booking: "RESOURCE_TYPE_BOOKING"
            case .bill: "RESOURCE_TYPE_BILL"
            case .conversation: "RESOURCE_TYPE_CONVERSATION"
            case .message: "RESOURCE_TYPE_MESSAGE"
            case .notification: "RESOURCE_TYPE_NOTIFICATION"
            case .ticket: "RESOURCE_TYPE_TICKET"
            case .announcement: "RESOURCE_TYPE_ANNOUNCEMENT"
            case .policy: "RESOURCE_TYPE_POLICY"
            case .advertisement: "RESOURCE_TYPE_ADVERTISEMENT"
            case .device: "RESOURCE_TYPE_DEVICE"
            case .unrecognized(let value): "RESOURCE_TYPE_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// Reasons for errors, sent as google.rpc.ErrorInfo.reason without the `ERROR_REASON_` prefix. RPC comments name them in their Errors line.
    public enum ErrorReason: ProtoEnum, CaseIterable {
        case unspecified
        /// A field failed validation (INVALID_ARGUMENT); BadRequest and ErrorInfo metadata `field` name it.
        case fieldInvalid
        /// expected_version differs from the stored version (ABORTED).
        case staleVersion
        /// The request_id was used before with a different request (INVALID_ARGUMENT).
        case requestIDReused
        /// The RPC belongs to another vertical than the marketplace's (FAILED_PRECONDITION).
        case wrongVertical
        /// The request's marketplace_id is not the token's marketplace (PERMISSION_DENIED).
        case marketplaceMismatch
        /// The caller lacks the role or does not own the resource (PERMISSION_DENIED).
        case notAllowed
        /// The role needed is still pending approval (PERMISSION_DENIED).
        case rolePending
        /// The account is blocked by an admin (PERMISSION_DENIED).
        case accountBlocked
        /// Five failed logins in a row locked the account for 15 minutes (RESOURCE_EXHAUSTED).
        case accountLocked
        /// Wrong e-mail or password (UNAUTHENTICATED).
        case badCredentials
        /// The e-mail is already used in this marketplace (ALREADY_EXISTS).
        case emailTaken
        /// Sign-up is restricted to other e-mail domains (INVALID_ARGUMENT).
        case emailDomainNotAllowed
        /// The password misses a required character class or is too short (INVALID_ARGUMENT).
        case weakPassword
        /// A password-reset or refresh token is unknown, used or expired (FAILED_PRECONDITION or UNAUTHENTICATED as the RPC says).
        case tokenInvalid
        /// The resource's state does not allow this transition (FAILED_PRECONDITION).
        case invalidTransition
        /// The product is already in the cart; change its quantity instead (ALREADY_EXISTS).
        case cartLineExists
        /// Quantity outside 1..the marketplace's cap per line (INVALID_ARGUMENT).
        case quantityLimit
        /// The cart holds items of another restaurant (FAILED_PRECONDITION).
        case cartOtherRestaurant
        /// Checkout of an empty cart (FAILED_PRECONDITION).
        case cartEmpty
        /// Not enough stock for a line (FAILED_PRECONDITION).
        case outOfStock
        /// The item, service or option is unavailable, hidden or archived (FAILED_PRECONDITION).
        case itemUnavailable
        /// The restaurant is closed (FAILED_PRECONDITION).
        case restaurantClosed
        /// The delivery address was not confirmed (INVALID_ARGUMENT).
        case addressNotConfirmed
        /// Card number, CVV or expiry invalid (INVALID_ARGUMENT).
        case cardInvalid
        /// The gateway declined the payment (FAILED_PRECONDITION); nothing was created.
        case paymentDeclined
        /// The payment method is not accepted in this marketplace (INVALID_ARGUMENT).
        case paymentMethodNotAccepted
        /// The target is already paid (FAILED_PRECONDITION).
        case alreadyPaid
        /// Cancelling is no longer possible (FAILED_PRECONDITION): laundry from stage 3 on, retail after shipping.
        case cancelNotAllowed
        /// A laundry stage move that is not exactly one step forward (FAILED_PRECONDITION).
        case stageNotNext
        /// Moving to stage 7 needs the actual loads and machine cost (INVALID_ARGUMENT).
        case finalCostRequired
        /// The preferred Dasher is not accepting requests or lives in another dorm (FAILED_PRECONDITION).
        case dasherNotAccepting
        /// The lease is shorter than the marketplace minimum of 6 months (INVALID_ARGUMENT).
        case leaseTooShort
        /// The listing already has an active lease (FAILED_PRECONDITION).
        case listingLeased
        /// The courier is offline (FAILED_PRECONDITION).
        case courierOffline
        /// No available courier to offer the delivery to (FAILED_PRECONDITION).
        case noCourierAvailable
        /// The caller already rated this (ALREADY_EXISTS).
        case alreadyRated
        /// The subject cannot be rated yet: not completed (FAILED_PRECONDITION).
        case notRatable
        /// The watch resume point is older than the kept events (OUT_OF_RANGE).
        case eventsExpired
        /// A record with this unique key already exists (ALREADY_EXISTS): slug, bill period, one restaurant per provider, one feedback per order.
        case duplicate
        /// The account still has open obligations (active lease, job in progress, unpaid bill) and cannot be deleted (FAILED_PRECONDITION).
        case openObligations
        /// The resource named does not exist, or lives in another marketplace (NOT_FOUND).
        case resourceNotFound
        /// Concurrent changes to the same records kept colliding with the request, which the server retried (ABORTED); try again.
        case concurrentChange
        /// The marketplace is archived; only platform operators act in it (FAILED_PRECONDITION).
        case marketplaceArchived
        /// An admin may not block their own account or revoke their own admin role (FAILED_PRECONDITION).
        case selfAction
        /// The RPC is in the contract but not served yet (UNIMPLEMENTED).
        case notImplemented
        /// A request or response message is larger than the server accepts (RESOURCE_EXHAUSTED).
        case messageTooLarge
        /// The call's deadline passed before it finished (DEADLINE_EXCEEDED).
        case deadlineExceeded
        /// The call was cancelled (CANCELLED).
        case cancelled
        /// The server cannot answer now (shutting down, an index being built); retry with backoff (UNAVAILABLE).
        case unavailable
        /// A fault in the server, logged there; not caused by the request (INTERNAL).
        case internalError
        case unrecognized(Int32)

        public static let allCases: [ErrorReason] = [
            .unspecified, .fieldInvalid, .staleVersion, .requestIDReused, .wrongVertical, .marketplaceMismatch,
            .notAllowed, .rolePending, .accountBlocked, .accountLocked, .badCredentials, .emailTaken,
            .emailDomainNotAllowed, .weakPassword, .tokenInvalid, .invalidTransition, .cartLineExists,
            .quantityLimit, .cartOtherRestaurant, .cartEmpty, .outOfStock, .itemUnavailable, .restaurantClosed,
            .addressNotConfirmed, .cardInvalid, .paymentDeclined, .paymentMethodNotAccepted, .alreadyPaid,
            .cancelNotAllowed, .stageNotNext, .finalCostRequired, .dasherNotAccepting, .leaseTooShort,
            .listingLeased, .courierOffline, .noCourierAvailable, .alreadyRated, .notRatable, .eventsExpired,
            .duplicate, .openObligations, .resourceNotFound, .concurrentChange, .marketplaceArchived, .selfAction,
            .notImplemented, .messageTooLarge, .deadlineExceeded, .cancelled, .unavailable, .internalError,
        ]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .fieldInvalid
            case 2: self = .staleVersion
            case 3: self = .requestIDReused
            case 4: self = .wrongVertical
            case 5: self = .marketplaceMismatch
            case 6: self = .notAllowed
            case 7: self = .rolePending
            case 8: self = .accountBlocked
            case 9: self = .accountLocked
            case 10: self = .badCredentials
            case 11: self = .emailTaken
            case 12: self = .emailDomainNotAllowed
            case 13: self = .weakPassword
            case 14: self = .tokenInvalid
            case 15: self = .invalidTransition
            case 16: self = .cartLineExists
            case 17: self = .quantityLimit
            case 18: self = .cartOtherRestaurant
            case 19: self = .cartEmpty
            case 20: self = .outOfStock
            case 21: self = .itemUnavailable
            case 22: self = .restaurantClosed
            case 23: self = .addressNotConfirmed
            case 24: self = .cardInvalid
            case 25: self = .paymentDeclined
            case 26: self = .paymentMethodNotAccepted
            case 27: self = .alreadyPaid
            case 28: self = .cancelNotAllowed
            case 29: self = .stageNotNext
            case 30: self = .finalCostRequired
            case 31: self = .dasherNotAccepting
            case 32: self = .leaseTooShort
            case 33: self = .listingLeased
            case 34: self = .courierOffline
            case 35: self = .noCourierAvailable
            case 36: self = .alreadyRated
            case 37: self = .notRatable
            case 38: self = .eventsExpired
            case 39: self = .duplicate
            case 40: self = .openObligations
            case 41: self = .resourceNotFound
            case 42: self = .concurrentChange
            case 43: self = .marketplaceArchived
            case 44: self = .selfAction
            case 45: self = .notImplemented
            case 46: self = .messageTooLarge
            case 47: self = .deadlineExceeded
            case 48: self = .cancelled
            case 49: self = .unavailable
            case 50: self = .internalError
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .fieldInvalid: 1
            case .staleVersion: 2
            case .requestIDReused: 3
            case .wrongVertical: 4
            case .marketplaceMismatch: 5
            case .notAllowed: 6
            case .rolePending: 7
            case .accountBlocked: 8
            case .accountLocked: 9
            case .badCredentials: 10
            case .emailTaken: 11
            case .emailDomainNotAllowed: 12
            case .weakPassword: 13
            case .tokenInvalid: 14
            case .invalidTransition: 15
            case .cartLineExists: 16
            case .quantityLimit: 17
            case .cartOtherRestaurant: 18
            case .cartEmpty: 19
            case .outOfStock: 20
            case .itemUnavailable: 21
            case .restaurantClosed: 22
            case .addressNotConfirmed: 23
            case .cardInvalid: 24
            case .paymentDeclined: 25
            case .paymentMethodNotAccepted: 26
            case .alreadyPaid: 27
            case .cancelNotAllowed: 28
            case .stageNotNext: 29
            case .finalCostRequired: 30
            case .dasherNotAccepting: 31
            case .leaseTooShort: 32
            case .listingLeased: 33
            case .courierOffline: 34
            case .noCourierAvailable: 35
            case .alreadyRated: 36
            case .notRatable: 37
            case .eventsExpired: 38
            case .duplicate: 39
            case .openObligations: 40
            case .resourceNotFound: 41
            case .concurrentChange: 42
            case .marketplaceArchived: 43
            case .selfAction: 44
            case .notImplemented: 45
            case .messageTooLarge: 46
            case .deadlineExceeded: 47
            case .cancelled: 48
            case .unavailable: 49
            case .internalError: 50
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `ERROR_REASON_FIELD_INVALID`.
        public var protoName: String {
            switch self {
            case .unspecified: "ERROR_REASON_UNSPECIFIED"
            case .fieldInvalid: "ERROR_REASON_FIELD_INVALID"
            case .staleVersion: "ERROR_REASON_STALE_VERSION"
            case .requestIDReused: "ERROR_REASON_REQUEST_ID_REUSED"
            case .wrongVertical: "ERROR_REASON_WRONG_VERTICAL"
            case .marketplaceMismatch: "ERROR_REASON_MARKETPLACE_MISMATCH"
            case .notAllowed: "ERROR_REASON_NOT_ALLOWED"
            case .rolePending: "ERROR_REASON_ROLE_PENDING"
            case .accountBlocked: "ERROR_REASON_ACCOUNT_BLOCKED"
            case .accountLocked: "ERROR_REASON_ACCOUNT_LOCKED"
            case .badCredentials: "ERROR_REASON_BAD_CREDENTIALS"
            case .emailTaken: "ERROR_REASON_EMAIL_TAKEN"
            case .emailDomainNotAllowed: "ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED"
            case .weakPassword: "ERROR_REASON_WEAK_PASSWORD"
            case .tokenInvalid: "ERROR_REASON_TOKEN_INVALID"
            case .invalidTransition: "ERROR_REASON_INVALID_TRANSITION"
            case .cartLineExists: "ERROR_REASON_CART_LINE_EXISTS"
            case .quantityLimit: "ERROR_REASON_QUANTITY_LIMIT"
            case .cartOtherRestaurant: "ERROR_REASON_CART_OTHER_RESTAURANT"
            case .cartEmpty: "ERROR_REASON_CART_EMPTY"
            case .outOfStock: "ERROR_REASON_OUT_OF_STOCK"
            case .itemUnavailable: "ERROR_REASON_ITEM_UNAVAILABLE"
            case .restaurantClosed: "ERROR_REASON_RESTAURANT_CLOSED"
            case .addressNotConfirmed: "ERROR_REASON_ADDRESS_NOT_CONFIRMED"
            case .cardInvalid: "ERROR_REASON_CARD_INVALID"
            case .paymentDeclined: "ERROR_REASON_PAYMENT_DECLINED"
            case .paymentMethodNotAccepted: "ERROR_REASON_PAYMENT_METHOD_NOT_ACCEPTED"
            case .alreadyPaid: "ERROR_REASON_ALREADY_PAID"
            case .cancelNotAllowed: "ERROR_REASON_CANCEL_NOT_ALLOWED"
            case .stageNotNext: "ERROR_REASON_STAGE_NOT_NEXT"
            case .finalCostRequired: "ERROR_REASON_FINAL_COST_REQUIRED"
            case .dasherNotAccepting: "ERROR_REASON_DASHER_NOT_ACCEPTING"
            case .leaseTooShort: "ERROR_REASON_LEASE_TOO_SHORT"
            case .listingLeased: "ERROR_REASON_LISTING_LEASED"
            case .courierOffline: "ERROR_REASON_COURIER_OFFLINE"
            case .noCourierAvailable: "ERROR_REASON_NO_COURIER_AVAILABLE"
            case .alreadyRated: "ERROR_REASON_ALREADY_RATED"
            case .notRatable: "ERROR_REASON_NOT_RATABLE"
            case .eventsExpired: "ERROR_REASON_EVENTS_EXPIRED"
            case .duplicate: "ERROR_REASON_DUPLICATE"
            case .openObligations: "ERROR_REASON_OPEN_OBLIGATIONS"
            case .resourceNotFound: "ERROR_REASON_RESOURCE_NOT_FOUND"
            case .concurrentChange: "ERROR_REASON_CONCURRENT_CHANGE"
            case .marketplaceArchived: "ERROR_REASON_MARKETPLACE_ARCHIVED"
            case .selfAction: "ERROR_REASON_SELF_ACTION"
            case .notImplemented: "ERROR_REASON_NOT_IMPLEMENTED"
            case .messageTooLarge: "ERROR_REASON_MESSAGE_TOO_LARGE"
            case .deadlineExceeded: "ERROR_REASON_DEADLINE_EXCEEDED"
            case .cancelled: "ERROR_REASON_CANCELLED"
            case .unavailable: "ERROR_REASON_UNAVAILABLE"
            case .internalError: "ERROR_REASON_INTERNAL_ERROR"
            case .unrecognized(let value): "ERROR_REASON_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// An amount of money in one currency, as an integer count of its minor units.
    public struct Money: Sendable, Hashable {
        /// Count of minor units as defined by ISO 4217 for the currency: cents for USD (2 decimals), halalas for SAR (2), sen for MYR (2), dong for VND (0 decimals, so 5000000 is 5,000,000 ₫).
        public var amountMinor: Int64
        /// ISO 4217 alphabetic code in upper case: "SAR", "MYR", "USD", "VND".
        public var currencyCode: String

        public init(amountMinor: Int64 = 0, currencyCode: String = "") {
            self.amountMinor = amountMinor
            self.currencyCode = currencyCode
        }
    }
}

extension SoukV1.Money: CProtoMessage {
    public static var protoName: String { "souk.v1.Money" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Money>) { souk__v1__money__init(c) }

    init(c: Souk__V1__Money) throws {
        amountMinor = c.amount_minor
        currencyCode = try Unpacked.string(c.currency_code, "currency_code")
    }

    func fill(_ c: inout Souk__V1__Money, _ arena: inout EncodingArena) {
        c.amount_minor = amountMinor
        c.currency_code = arena.string(currencyCode)
    }
}

extension SoukV1 {
    /// A point on Earth (WGS 84).
    public struct GeoPoint: Sendable, Hashable {
        /// Degrees, -90 to 90.
        public var latitude: Double
        /// Degrees, -180 to 180.
        public var longitude: Double

        public init(latitude: Double = 0, longitude: Double = 0) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }
}

extension SoukV1.GeoPoint: CProtoMessage {
    public static var protoName: String { "souk.v1.GeoPoint" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GeoPoint>) { souk__v1__geo_point__init(c) }

    init(c: Souk__V1__GeoPoint) throws {
        latitude = c.latitude
        longitude = c.longitude
    }

    func fill(_ c: inout Souk__V1__GeoPoint, _ arena: inout EncodingArena) {
        c.latitude = latitude
        c.longitude = longitude
    }
}

extension SoukV1 {
    /// A calendar date without a time of day, read in the marketplace's time zone.
    public struct Date: Sendable, Hashable {
        /// Full year, e.g.
        public var year: Int32
        /// 1 to 12.
        public var month: Int32
        /// 1 to 31, valid for the month.
        public var day: Int32

        public init(year: Int32 = 0, month: Int32 = 0, day: Int32 = 0) {
            self.year = year
            self.month = month
            self.day = day
        }
    }
}

extension SoukV1.Date: CProtoMessage {
    public static var protoName: String { "souk.v1.Date" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Date>) { souk__v1__date__init(c) }

    init(c: Souk__V1__Date) throws {
        year = c.year
        month = c.month
        day = c.day
    }

    func fill(_ c: inout Souk__V1__Date, _ arena: inout EncodingArena) {
        c.year = year
        c.month = month
        c.day = day
    }
}

extension SoukV1 {
    /// A span of time [start_time, end_time).
    public struct TimeWindow: Sendable, Hashable {
        public var startTime: Timestamp?
        /// Must be after start_time.
        public var endTime: Timestamp?

        public init(startTime: Timestamp? = nil, endTime: Timestamp? = nil) {
            self.startTime = startTime
            self.endTime = endTime
        }
    }
}

extension SoukV1.TimeWindow: CProtoMessage {
    public static var protoName: String { "souk.v1.TimeWindow" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__TimeWindow>) { souk__v1__time_window__init(c) }

    init(c: Souk__V1__TimeWindow) throws {
        startTime = try Unpacked.message(c.start_time, "start_time")
        endTime = try Unpacked.message(c.end_time, "end_time")
    }

    func fill(_ c: inout Souk__V1__TimeWindow, _ arena: inout EncodingArena) {
        c.start_time = arena.message(startTime)
        c.end_time = arena.message(endTime)
    }
}

extension SoukV1 {
    /// A postal address, as typed by a user; used live (saved addresses, listings, restaurants) and as a snapshot copied into orders.
    public struct Address: Sendable, Hashable {
        /// The user's name for it: "Home", "Office", "Dorm".
        public var label: String
        /// Person to hand the delivery to; empty means the account holder.
        public var recipientName: String
        /// Contact phone in E.164 ("+966512345678"); empty means the account's phone.
        public var phone: String
        /// Street and number.
        public var line1: String
        /// Building, floor, apartment or room.
        public var line2: String
        public var city: String
        /// State, province or district.
        public var region: String
        public var postalCode: String
        /// ISO 3166-1 alpha-2 country code: "SA", "MY", "US", "VN".
        public var countryCode: String
        /// Map position, when known (required for restaurants, listings and food delivery).
        public var location: SoukV1.GeoPoint?
        /// Free text for the courier: gate code, landmark.
        public var deliveryNotes: String

        public init(
            label: String = "",
            recipientName: String = "",
            phone: String = "",
            line1: String = "",
            line2: String = "",
            city: String = "",
            region: String = "",
            postalCode: String = "",
            countryCode: String = "",
            location: SoukV1.GeoPoint? = nil,
            deliveryNotes: String = ""
        ) {
            self.label = label
            self.recipientName = recipientName
            self.phone = phone
            self.line1 = line1
            self.line2 = line2
            self.city = city
            self.region = region
            self.postalCode = postalCode
            self.countryCode = countryCode
            self.location = location
            self.deliveryNotes = deliveryNotes
        }
    }
}

extension SoukV1.Address: CProtoMessage {
    public static var protoName: String { "souk.v1.Address" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Address>) { souk__v1__address__init(c) }

    init(c: Souk__V1__Address) throws {
        label = try Unpacked.string(c.label, "label")
        recipientName = try Unpacked.string(c.recipient_name, "recipient_name")
        phone = try Unpacked.string(c.phone, "phone")
        line1 = try Unpacked.string(c.line1, "line1")
        line2 = try Unpacked.string(c.line2, "line2")
        city = try Unpacked.string(c.city, "city")
        region = try Unpacked.string(c.region, "region")
        postalCode = try Unpacked.string(c.postal_code, "postal_code")
        countryCode = try Unpacked.string(c.country_code, "country_code")
        location = try Unpacked.message(c.location, "location")
        deliveryNotes = try Unpacked.string(c.delivery_notes, "delivery_notes")
    }

    func fill(_ c: inout Souk__V1__Address, _ arena: inout EncodingArena) {
        c.label = arena.string(label)
        c.recipient_name = arena.string(recipientName)
        c.phone = arena.string(phone)
        c.line1 = arena.string(line1)
        c.line2 = arena.string(line2)
        c.city = arena.string(city)
        c.region = arena.string(region)
        c.postal_code = arena.string(postalCode)
        c.country_code = arena.string(countryCode)
        c.location = arena.message(location)
        c.delivery_notes = arena.string(deliveryNotes)
    }
}

extension SoukV1 {
    /// A fee added on top of the subtotal of an order, a cart or a laundry job.
    public struct Fee: Sendable, Hashable {
        /// What the fee is for.
        public var kind: SoukV1.FeeKind
        /// Human-readable label ("Shipping", "Folding").
        public var label: String
        public var amount: SoukV1.Money?

        public init(kind: SoukV1.FeeKind = .unspecified, label: String = "", amount: SoukV1.Money? = nil) {
            self.kind = kind
            self.label = label
            self.amount = amount
        }
    }
}

extension SoukV1.Fee: CProtoMessage {
    public static var protoName: String { "souk.v1.Fee" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Fee>) { souk__v1__fee__init(c) }

    init(c: Souk__V1__Fee) throws {
        kind = .init(cValue: c.kind)
        label = try Unpacked.string(c.label, "label")
        amount = try Unpacked.message(c.amount, "amount")
    }

    func fill(_ c: inout Souk__V1__Fee, _ arena: inout EncodingArena) {
        c.kind = kind.cValue()
        c.label = arena.string(label)
        c.amount = arena.message(amount)
    }
}

extension SoukV1 {
    /// How a price is made up.
    public struct PriceBreakdown: Sendable, Hashable {
        /// Sum of the lines (after line discounts).
        public var subtotal: SoukV1.Money?
        /// Tax rate applied to the subtotal, in basis points (2600 = 26 %).
        public var taxRateBps: Int32
        /// subtotal × tax_rate_bps / 10000, rounded half away from zero.
        public var tax: SoukV1.Money?
        /// Every fee, one entry each.
        public var fees: [SoukV1.Fee]
        /// Sum of fees.
        public var feesTotal: SoukV1.Money?
        /// subtotal + tax + fees_total: the amount the customer pays.
        public var total: SoukV1.Money?

        public init(
            subtotal: SoukV1.Money? = nil,
            taxRateBps: Int32 = 0,
            tax: SoukV1.Money? = nil,
            fees: [SoukV1.Fee] = [],
            feesTotal: SoukV1.Money? = nil,
            total: SoukV1.Money? = nil
        ) {
            self.subtotal = subtotal
            self.taxRateBps = taxRateBps
            self.tax = tax
            self.fees = fees
            self.feesTotal = feesTotal
            self.total = total
        }
    }
}

extension SoukV1.PriceBreakdown: CProtoMessage {
    public static var protoName: String { "souk.v1.PriceBreakdown" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__PriceBreakdown>) { souk__v1__price_breakdown__init(c) }

    init(c: Souk__V1__PriceBreakdown) throws {
        subtotal = try Unpacked.message(c.subtotal, "subtotal")
        taxRateBps = c.tax_rate_bps
        tax = try Unpacked.message(c.tax, "tax")
        fees = try Unpacked.messages(c.n_fees, c.fees, "fees")
        feesTotal = try Unpacked.message(c.fees_total, "fees_total")
        total = try Unpacked.message(c.total, "total")
    }

    func fill(_ c: inout Souk__V1__PriceBreakdown, _ arena: inout EncodingArena) {
        c.subtotal = arena.message(subtotal)
        c.tax_rate_bps = taxRateBps
        c.tax = arena.message(tax)
        c.n_fees = fees.count
        c.fees = arena.messages(fees)
        c.fees_total = arena.message(feesTotal)
        c.total = arena.message(total)
    }
}

extension SoukV1 {
    /// A privacy-safe view of another account: what one party may see of the other (a customer sees a Dasher's first name and rating, never the last name or phone).
    public struct PersonSummary: Sendable, Hashable {
        public var accountID: String
        /// First name only.
        public var givenName: String
        /// Picture URL, if the account set one.
        public var avatarURL: String
        /// Their rating as rated party.
        public var rating: SoukV1.RatingSummary?

        public init(
            accountID: String = "",
            givenName: String = "",
            avatarURL: String = "",
            rating: SoukV1.RatingSummary? = nil
        ) {
            self.accountID = accountID
            self.givenName = givenName
            self.avatarURL = avatarURL
            self.rating = rating
        }
    }
}

extension SoukV1.PersonSummary: CProtoMessage {
    public static var protoName: String { "souk.v1.PersonSummary" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__PersonSummary>) { souk__v1__person_summary__init(c) }

    init(c: Souk__V1__PersonSummary) throws {
        accountID = try Unpacked.string(c.account_id, "account_id")
        givenName = try Unpacked.string(c.given_name, "given_name")
        avatarURL = try Unpacked.string(c.avatar_url, "avatar_url")
        rating = try Unpacked.message(c.rating, "rating")
    }

    func fill(_ c: inout Souk__V1__PersonSummary, _ arena: inout EncodingArena) {
        c.account_id = arena.string(accountID)
        c.given_name = arena.string(givenName)
        c.avatar_url = arena.string(avatarURL)
        c.rating = arena.message(rating)
    }
}

extension SoukV1 {
    /// The average of the star ratings an account (or a listing) received.
    public struct RatingSummary: Sendable, Hashable {
        /// Number of ratings received.
        public var count: Int64
        /// Average stars × 100, rounded half away from zero: 4.67 stars is 467.
        public var averageHundredths: Int32

        public init(count: Int64 = 0, averageHundredths: Int32 = 0) {
            self.count = count
            self.averageHundredths = averageHundredths
        }
    }
}

extension SoukV1.RatingSummary: CProtoMessage {
    public static var protoName: String { "souk.v1.RatingSummary" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RatingSummary>) { souk__v1__rating_summary__init(c) }

    init(c: Souk__V1__RatingSummary) throws {
        count = c.count
        averageHundredths = c.average_hundredths
    }

    func fill(_ c: inout Souk__V1__RatingSummary, _ arena: inout EncodingArena) {
        c.count = count
        c.average_hundredths = averageHundredths
    }
}

extension SoukV1 {
    /// A typed pointer to a resource in the same marketplace.
    public struct ResourceRef: Sendable, Hashable {
        public var type: SoukV1.ResourceType
        public var id: String

        public init(type: SoukV1.ResourceType = .unspecified, id: String = "") {
            self.type = type
            self.id = id
        }
    }
}

extension SoukV1.ResourceRef: CProtoMessage {
    public static var protoName: String { "souk.v1.ResourceRef" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ResourceRef>) { souk__v1__resource_ref__init(c) }

    init(c: Souk__V1__ResourceRef) throws {
        type = .init(cValue: c.type)
        id = try Unpacked.string(c.id, "id")
    }

    func fill(_ c: inout Souk__V1__ResourceRef, _ arena: inout EncodingArena) {
        c.type = type.cValue()
        c.id = arena.string(id)
    }
}

extension SoukV1 {
    /// One recorded state transition (platform decision 16): who did what to which resource, when.
    public struct AuditEntry: Sendable, Hashable {
        public var id: String
        /// The resource that changed.
        public var resource: SoukV1.ResourceRef?
        /// Account that made the change; empty when the server did it on its own (an offer that timed out, an automatic approval).
        public var actorAccountID: String
        /// The role the actor acted in.
        public var actorRole: SoukV1.Role
        /// The RPC that caused it, as its full method name ("souk.v1.Orders/CancelOrder"), or a server action name ("system/ExpireOffer").
        public var action: String
        /// State before and after, as the enum value name ("ORDER_STATUS_PENDING"); empty when the change is not a state change (a reschedule, an update).
        public var fromState: String
        public var toState: String
        /// Reason given by the actor (rejection, cancellation, block), if any.
        public var reason: String
        /// Resource version after the change.
        public var resourceVersion: Int64
        /// The idempotency key of the call, if it had one.
        public var requestID: String
        public var createTime: Timestamp?

        public init(
            id: String = "",
            resource: SoukV1.ResourceRef? = nil,
            actorAccountID: String = "",
            actorRole: SoukV1.Role = .unspecified,
            action: String = "",
            fromState: String = "",
            toState: String = "",
            reason: String = "",
            resourceVersion: Int64 = 0,
            requestID: String = "",
            createTime: Timestamp? = nil
        ) {
            self.id = id
            self.resource = resource
            self.actorAccountID = actorAccountID
            self.actorRole = actorRole
            self.action = action
            self.fromState = fromState
            self.toState = toState
            self.reason = reason
            self.resourceVersion = resourceVersion
            self.requestID = requestID
            self.createTime = createTime
        }
    }
}

extension SoukV1.AuditEntry: CProtoMessage {
    public static var protoName: String { "souk.v1.AuditEntry" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__AuditEntry>) { souk__v1__audit_entry__init(c) }

    init(c: Souk__V1__AuditEntry) throws {
        id = try Unpacked.string(c.id, "id")
        resource = try Unpacked.message(c.resource, "resource")
        actorAccountID = try Unpacked.string(c.actor_account_id, "actor_account_id")
        actorRole = .init(cValue: c.actor_role)
        action = try Unpacked.string(c.action, "action")
        fromState = try Unpacked.string(c.from_state, "from_state")
        toState = try Unpacked.string(c.to_state, "to_state")
        reason = try Unpacked.string(c.reason, "reason")
        resourceVersion = c.resource_version
        requestID = try Unpacked.string(c.request_id, "request_id")
        createTime = try Unpacked.message(c.create_time, "create_time")
    }

    func fill(_ c: inout Souk__V1__AuditEntry, _ arena: inout EncodingArena) {
        c.id = arena.string(id)
        c.resource = arena.message(resource)
        c.actor_account_id = arena.string(actorAccountID)
        c.actor_role = actorRole.cValue()
        c.action = arena.string(action)
        c.from_state = arena.string(fromState)
        c.to_state = arena.string(toState)
        c.reason = arena.string(reason)
        c.resource_version = resourceVersion
        c.request_id = arena.string(requestID)
        c.create_time = arena.message(createTime)
    }
}
