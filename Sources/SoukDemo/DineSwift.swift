import SoukMessages

extension DemoLoader {
    /// DineSwift: restaurant food delivery in Beirut (USD; cash on delivery, a flat delivery fee
    /// and a default restaurant commission set by the admin).
    func loadDineSwift() async throws -> [DemoLogin] {
        let marketplace = try await marketplace(SoukV1.Marketplace(
            slug: "dineswift", displayName: "DineSwift", vertical: .foodDelivery, currencyCode: "USD",
            timeZone: "Asia/Beirut", defaultLocale: "en-US",
            settings: SoukV1.MarketplaceSettings(
                commerce: SoukV1.CommerceSettings(
                    deliveryFee: Self.money(300, "USD"), defaultCommissionBps: 1500, acceptedPaymentMethods: [.cash]),
                delivery: SoukV1.DeliverySettings(
                    locationReportInterval: .seconds(5), locationStaleAfter: .seconds(60), offerTimeout: .seconds(90)))))
        // The owners of the other demo restaurants come before the demo provider, so that the
        // provider login printed last (the one tools and DemoContext pick) stays
        // restaurant@dineswift.example.
        let people = [
            Person(role: .customer, email: "customer@dineswift.example", password: "DineSwift-customer-2026",
                   givenName: "Rami", familyName: "Haddad", phone: "+9613123401"),
            Person(role: .provider, email: "zaatar@dineswift.example", password: "DineSwift-zaatar-2026",
                   givenName: "Omar", familyName: "Nassar", phone: "+9613123405"),
            Person(role: .provider, email: "burger@dineswift.example", password: "DineSwift-burger-2026",
                   givenName: "Nadine", familyName: "Fares", phone: "+9613123406"),
            Person(role: .provider, email: "restaurant@dineswift.example", password: "DineSwift-provider-2026",
                   givenName: "Lina", familyName: "Khoury", phone: "+9613123402"),
            Person(role: .courier, email: "driver@dineswift.example", password: "DineSwift-courier-2026",
                   givenName: "Karim", familyName: "Saab", phone: "+9613123403"),
            Person(role: .admin, email: "admin@dineswift.example", password: "DineSwift-admin-2026",
                   givenName: "Maya", familyName: "Azar", phone: "+9613123404"),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
