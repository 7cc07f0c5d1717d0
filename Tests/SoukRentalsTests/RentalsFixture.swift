import SoukCommerceTesting
import SoukFood
import SoukOrders
import SoukShops
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore
import SoukTesting
import Testing

@testable import SoukRentals

/// A MARA marketplace (VND; 3 % payment provider fee, 5 % platform fee) over a fresh store, with
/// its regions, an admin and callers of every kind, and the payments of the commerce domain
/// mounted beside the rentals domain.
struct RentalsFixture {
    let harness: DomainHarness
    let marketplace: SoukV1.Marketplace
    let rentals: Rentals
    let adminToken: String
    /// Region ids by name (`DemoRegions`).
    let regions: [String: String]

    var hcmc: String { regions[DemoRegions.hoChiMinhCity]! }
    var binhDuong: String { regions[DemoRegions.binhDuong]! }

    /// A signed-in account: id and token.
    struct Person: Sendable {
        let id: String
        let token: String
    }

    /// Tests that move the clock by days keep their tokens with a long `accessTokenTTL`.
    static func make(accessTokenTTL: Duration = .seconds(3600)) async throws -> RentalsFixture {
        nonisolated(unsafe) var made: Rentals?
        let harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self, Rentals.self], accessTokenTTL: accessTokenTTL, makeDomains: { identity in
            let payables = PayableTargets()
            let ratables = RatedSubjects()
            let rentals = Rentals(store: identity.store, identity: identity, payables: payables, ratables: ratables)
            made = rentals
            return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)]
                + CommerceDomains.mounting(Commerce(store: identity.store, identity: identity, payables: payables, ratables: ratables), identity: identity)
                + [rentals]
        })
        let marketplace = try await harness.marketplace(
            slug: "mara", vertical: .rentals, currency: "VND",
            settings: SoukV1.MarketplaceSettings(
                rentals: SoukV1.RentalSettings(minLeaseMonths: 6, maxDepositMonths: 2, paymentProviderFeeBps: 300, platformFeeBps: 500)))
        let regions = try await DemoRegions.load(marketplace.id, store: harness.store)
        return RentalsFixture(
            harness: harness, marketplace: marketplace, rentals: made!, adminToken: try await harness.adminToken(marketplace), regions: regions)
    }

    /// An account that signed up; a lessor asks for the provider role, approved when `approved`.
    func person(_ name: String, lessor: Bool = false, approved: Bool = true) async throws -> Person {
        let signUp = try await harness.signUp(marketplace, email: "\(name)@mara.test", roles: lessor ? [.provider] : [])
        let person = Person(id: signUp.account!.id, token: signUp.session!.accessToken)
        if lessor && approved {
            let _: SoukV1.Account = try await harness.accounts(
                "ApproveRole", SoukV1.ApproveRoleRequest(marketplaceID: marketplace.id, accountID: person.id, role: .provider), token: adminToken)
        }
        return person
    }

    func call<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ token: String?, as: Response.Type = Response.self) async throws -> Response {
        try await harness.call("souk.v1.Rentals", method, request, token: token)
    }

    func error<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ token: String?, as: Response.Type) async -> RPCError? {
        await harness.error("souk.v1.Rentals", method, request, token: token, as: Response.self)
    }

    /// A listing in `district` of `region` (HCMC by default) at a point.
    func draft(
        title: String = "Căn hộ 2 phòng ngủ Quận 1", line1: String = "12 Đường Nguyễn Huệ", district: String = "Quận 1", region: String? = nil,
        latitude: Double = 10.7769, longitude: Double = 106.7009, rent: Int64 = 12_000_000, type: SoukV1.ListingType = .apartment
    ) -> SoukV1.Listing {
        SoukV1.Listing(
            title: title, description: "Gần chợ Bến Thành", type: type,
            address: SoukV1.Address(line1: line1, city: "Thành phố Hồ Chí Minh", countryCode: "VN", location: SoukV1.GeoPoint(latitude: latitude, longitude: longitude)),
            monthlyRent: SoukV1.Money(amountMinor: rent, currencyCode: "VND"), depositMonths: 2, features: ["air_conditioning", "wifi"],
            areaSquareMeters: 70, bedrooms: 2, bathrooms: 2, regionID: region ?? hcmc, district: district, furnished: true, parking: true)
    }

    func create(_ listing: SoukV1.Listing, by lessor: Person, requestID: String = "create-\(UInt64.random(in: 0...UInt64.max))") async throws -> SoukV1.Listing {
        try await call("CreateListing", SoukV1.CreateListingRequest(marketplaceID: marketplace.id, requestID: requestID, listing: listing), lessor.token)
    }

    func publish(_ listing: SoukV1.Listing, by token: String) async throws -> SoukV1.Listing {
        try await call("PublishListing", SoukV1.PublishListingRequest(marketplaceID: marketplace.id, listingID: listing.id), token)
    }
}
