import SoukCommerce
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukRentals

/// A MARA marketplace (VND, 3 % provider fee, 5 % platform fee) over a fresh store, with the
/// payments of the commerce domain mounted beside the rentals domain.
struct RentalsFixture {
    let harness: DomainHarness
    let marketplace: SoukV1.Marketplace
    let rentals: Rentals

    /// A signed-in account: id and token.
    struct Person: Sendable {
        let id: String
        let token: String
    }

    static func make() async throws -> RentalsFixture {
        nonisolated(unsafe) var made: Rentals?
        let harness = try DomainHarness(domainTypes: [Commerce.self, Rentals.self], makeDomains: { identity in
            let payables = PayableTargets()
            let rentals = Rentals(store: identity.store, identity: identity, payables: payables)
            made = rentals
            return [Commerce(store: identity.store, identity: identity, payables: payables), rentals]
        })
        let settings = SoukV1.MarketplaceSettings(
            rentals: SoukV1.RentalSettings(minLeaseMonths: 6, maxDepositMonths: 2, paymentProviderFeeBps: 300, platformFeeBps: 500))
        let marketplace = try await harness.marketplace(slug: "mara", vertical: .rentals, currency: "VND", settings: settings)
        return RentalsFixture(harness: harness, marketplace: marketplace, rentals: made!)
    }

    /// An account named `name`; a lessor holds the provider role, active.
    func person(_ name: String, lessor: Bool = false) async throws -> Person {
        let email = "\(name)@mara.example"
        let account: SoukV1.Account = try await harness.accounts("CreateAccount", SoukV1.CreateAccountRequest(
            marketplaceID: marketplace.id, requestID: "account-\(email)", email: email, initialPassword: "Role-pass-1",
            givenName: name.capitalized, familyName: "Nguyễn", roles: lessor ? [.provider] : []),
            token: try await harness.operatorToken())
        let session: SoukV1.Session = try await harness.accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: email, password: "Role-pass-1"))
        return Person(id: account.id, token: session.accessToken)
    }

    /// A published listing of `owner`, stored as the listings service would publish it.
    func listing(_ owner: Person, rent: Int64 = 8_000_000, depositMonths: Int32 = 2, title: String = "Căn hộ Quận 1") async throws -> String {
        var listing = SoukV1.Listing(
            ownerAccountID: owner.id, title: title, type: .apartment,
            address: SoukV1.Address(line1: "12 Lê Lợi", city: "Hồ Chí Minh", location: SoukV1.GeoPoint(latitude: 10.7757, longitude: 106.7004)),
            monthlyRent: SoukV1.Money(amountMinor: rent, currencyCode: "VND"), depositMonths: depositMonths)
        listing.status = .published
        let market = marketplace.id
        let record = try await harness.store.write { transaction in
            try transaction.insert(ListingTable.table, ListingRecord(marketplaceID: market, listing))
        }
        return record.id.description
    }

    func call<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ who: Person, as: Response.Type = Response.self) async throws -> Response {
        try await harness.call("souk.v1.Rentals", method, request, token: who.token)
    }

    func error<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ who: Person, as: Response.Type = SoukV1.Booking.self) async -> RPCError? {
        await harness.error("souk.v1.Rentals", method, request, token: who.token, as: Response.self)
    }

    /// The first day of the month after the clock's.
    var nextMonth: SoukV1.Date {
        let today = harness.clock.now.civilDate
        let next = LeaseDates.addingMonths(1, to: CivilDate(year: today.year, month: today.month, day: 1))
        return LeaseDates.proto(next)
    }

    func request(_ listing: String, _ lessee: Person, months: Int32 = 12, requestID: String? = nil) async throws -> SoukV1.Booking {
        try await call("RequestBooking", requestBooking(listing, months: months, requestID: requestID), lessee)
    }

    func requestBooking(_ listing: String, months: Int32 = 12, requestID: String? = nil) -> SoukV1.RequestBookingRequest {
        SoukV1.RequestBookingRequest(
            marketplaceID: marketplace.id, requestID: requestID ?? "request-\(UInt64.random(in: 0...UInt64.max))", listingID: listing,
            startDate: nextMonth, months: months, message: "Tôi muốn thuê")
    }

    func confirm(_ booking: SoukV1.Booking, _ lessor: Person) async throws -> SoukV1.Booking {
        try await call("ConfirmBooking", SoukV1.ConfirmBookingRequest(marketplaceID: marketplace.id, bookingID: booking.id), lessor)
    }

    /// Pays `bill` through Payments.CreatePayment with a test card that succeeds.
    func pay(_ billID: String, _ lessee: Person) async throws -> SoukV1.Payment {
        try await harness.call("souk.v1.Payments", "CreatePayment", SoukV1.CreatePaymentRequest(
            marketplaceID: marketplace.id, requestID: "pay-\(billID)", target: .billID(billID),
            method: SoukV1.PaymentMethodInput(method: .cardToken("tok_visa"))), token: lessee.token)
    }

    func bill(_ id: String, _ who: Person) async throws -> SoukV1.Bill {
        try await call("GetBill", SoukV1.GetBillRequest(marketplaceID: marketplace.id, billID: id), who)
    }

    func booking(_ id: String, _ who: Person) async throws -> SoukV1.Booking {
        try await call("GetBooking", SoukV1.GetBookingRequest(marketplaceID: marketplace.id, bookingID: id), who)
    }

    func monthlyBill(_ booking: SoukV1.Booking, month: SoukV1.BillingPeriod, electricity: Int64, water: Int64, _ lessor: Person) async throws -> SoukV1.Bill {
        try await call("CreateMonthlyBill", SoukV1.CreateMonthlyBillRequest(
            marketplaceID: marketplace.id, requestID: "bill-\(booking.id)-\(month.year)-\(month.month)", bookingID: booking.id, period: month,
            utilities: [
                SoukV1.UtilityCharge(kind: .electricity, description: "180 kWh", amount: SoukV1.Money(amountMinor: electricity, currencyCode: "VND")),
                SoukV1.UtilityCharge(kind: .water, description: "6 m³", amount: SoukV1.Money(amountMinor: water, currencyCode: "VND")),
            ]), lessor)
    }
}

extension RPCError {
    /// The error's AIP-193 reason.
    var reasonName: String { errorInfo?.reason ?? "" }
}
