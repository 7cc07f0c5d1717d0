import SoukMessages

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
                    lastCancellableStage: 2, jobOfferTimeout: .seconds(120)))))
        func room(_ campus: String, _ room: String) -> SoukV1.LaundryProfile {
            SoukV1.LaundryProfile(campus: campus, room: room)
        }
        let people = [
            Person(role: .customer, email: "customer.demo@rutgers.edu", password: "DripNDash-customer-2026",
                   givenName: "Jordan", familyName: "Patel", phone: "+17325550101", laundryProfile: room("Busch", "214")),
            Person(role: .provider, email: "provider.demo@rutgers.edu", password: "DripNDash-provider-2026",
                   givenName: "Maya", familyName: "Rodriguez", phone: "+17325550102", laundryProfile: room("College Avenue", "108")),
            Person(role: .courier, email: "dasher.demo@rutgers.edu", password: "DripNDash-courier-2026",
                   givenName: "Tyler", familyName: "Nguyen", phone: "+17325550103", laundryProfile: room("Busch", "319"),
                   dasherAge: 20),
            Person(role: .admin, email: "admin.demo@rutgers.edu", password: "DripNDash-admin-2026",
                   givenName: "Priya", familyName: "Shah", phone: "+17325550104", laundryProfile: room("Livingston", "002")),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
