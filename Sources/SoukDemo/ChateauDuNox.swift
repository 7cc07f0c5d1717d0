import SoukMessages

extension DemoLoader {
    /// Chateau Du Nox: a wine shop in Malaysia (MYR; tax 26 %, shipping RM 59.90 per order, at
    /// most 12 bottles of a wine per order; card payments).
    func loadChateauDuNox() async throws -> [DemoLogin] {
        let marketplace = try await marketplace(SoukV1.Marketplace(
            slug: "chateau-du-nox", displayName: "Chateau Du Nox", vertical: .retail, currencyCode: "MYR",
            timeZone: "Asia/Kuala_Lumpur", defaultLocale: "en-MY",
            settings: SoukV1.MarketplaceSettings(
                commerce: SoukV1.CommerceSettings(
                    taxRateBps: 2600, shippingFee: Self.money(5990, "MYR"), maxQuantityPerCartLine: 12,
                    acceptedPaymentMethods: [.card]))))
        let people = [
            Person(role: .customer, email: "customer@chateaudunox.example", password: "Chateau-customer-2026",
                   givenName: "Nurul Aisyah", familyName: "binti Ahmad", phone: "+60123456701"),
            Person(role: .provider, email: "sommelier@chateaudunox.example", password: "Chateau-provider-2026",
                   givenName: "Wei Jie", familyName: "Tan", phone: "+60123456702"),
            Person(role: .courier, email: "courier@chateaudunox.example", password: "Chateau-courier-2026",
                   givenName: "Muhammad Hafiz", familyName: "bin Ismail", phone: "+60123456703"),
            Person(role: .admin, email: "admin@chateaudunox.example", password: "Chateau-admin-2026",
                   givenName: "Siti", familyName: "Rahman", phone: "+60123456704"),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
