import SoukMessages
import SoukStore

/// A Rutgers dorm the Drip 'n Dash demo people live in. Its id is fixed: the laundry catalog
/// creates the dorm records with these ids when it adds its demo data, and the demo accounts'
/// laundry profiles already point at them.
public struct DemoDorm: Sendable {
    public let id: RecordID
    public let campus: String
    public let name: String

    public static let mattiaHall = DemoDorm(id: RecordID("01900000-0000-7000-8000-00000000d001")!, campus: "Busch", name: "Mattia Hall")
    public static let hardenberghHall = DemoDorm(
        id: RecordID("01900000-0000-7000-8000-00000000d002")!, campus: "College Avenue", name: "Hardenbergh Hall")
    public static let livingstonQuads = DemoDorm(
        id: RecordID("01900000-0000-7000-8000-00000000d003")!, campus: "Livingston", name: "Livingston Quads")
    public static let all = [mattiaHall, hardenberghHall, livingstonQuads]
}

extension DemoLoader {
    /// Drip 'n Dash: peer-to-peer laundry in the Rutgers dorms (USD; sign-up with an
    /// @rutgers.edu address only; folding $2.50, ironing $5.00, service fee $5.00).
    func loadDripNDash() async throws -> [DemoLogin] {
        let marketplace = try await marketplace(SoukV1.Marketplace(
            slug: "drip-n-dash", displayName: "Drip 'n Dash", vertical: .laundry, currencyCode: "USD",
            timeZone: "America/New_York", defaultLocale: "en-US",
            settings: SoukV1.MarketplaceSettings(
                accounts: SoukV1.AccountSettings(allowedEmailDomains: ["rutgers.edu"]),
                commerce: SoukV1.CommerceSettings(acceptedPaymentMethods: [.applePay, .googlePay, .card]),
                laundry: SoukV1.LaundrySettings(
                    machineCostPerLoad: Self.money(300, "USD"), serviceFee: Self.money(500, "USD"),
                    foldingPrice: Self.money(250, "USD"), ironingPrice: Self.money(500, "USD"),
                    lastCancellableStage: 2, jobOfferTimeout: .seconds(120), quizRetryDelay: .seconds(24 * 3600)))))
        func room(_ dorm: DemoDorm, _ room: String) -> SoukV1.LaundryProfile {
            SoukV1.LaundryProfile(campus: dorm.campus, dormID: dorm.id.description, room: room)
        }
        let people = [
            Person(role: .customer, email: "customer.demo@rutgers.edu", password: "DripNDash-customer-2026",
                   givenName: "Jordan", familyName: "Patel", phone: "+17325550101", laundryProfile: room(.mattiaHall, "214")),
            Person(role: .provider, email: "provider.demo@rutgers.edu", password: "DripNDash-provider-2026",
                   givenName: "Maya", familyName: "Rodriguez", phone: "+17325550102", laundryProfile: room(.hardenberghHall, "108")),
            Person(role: .courier, email: "dasher.demo@rutgers.edu", password: "DripNDash-courier-2026",
                   givenName: "Tyler", familyName: "Nguyen", phone: "+17325550103", laundryProfile: room(.mattiaHall, "319"),
                   dasherAge: 20),
            Person(role: .admin, email: "admin.demo@rutgers.edu", password: "DripNDash-admin-2026",
                   givenName: "Priya", familyName: "Shah", phone: "+17325550104", laundryProfile: room(.livingstonQuads, "002")),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
