import SoukMessages

extension DemoLoader {
    /// Aqua Hub: water deliveries, tank cleaning and HydroFix maintenance in Arar, Saudi Arabia
    /// (SAR; Apple Pay or cash on delivery).
    func loadAquaHub() async throws -> [DemoLogin] {
        let marketplace = try await marketplace(SoukV1.Marketplace(
            slug: "aqua-hub", displayName: "Aqua Hub", vertical: .waterServices, currencyCode: "SAR",
            timeZone: "Asia/Riyadh", defaultLocale: "ar-SA",
            settings: SoukV1.MarketplaceSettings(
                commerce: SoukV1.CommerceSettings(
                    acceptedPaymentMethods: [.applePay, .cash],
                    // 08:00–10:00, 10:00–12:00, 12:00–14:00, 16:00–18:00, 18:00–20:00 in Arar, three orders each.
                    serviceWindows: [(480, 600), (600, 720), (720, 840), (960, 1080), (1080, 1200)].map {
                        SoukV1.DailyWindow(startMinute: $0.0, endMinute: $0.1)
                    },
                    windowCapacity: 3))))
        let people = [
            Person(role: .customer, email: "customer@aquahub.example", password: "AquaHub-customer-2026",
                   givenName: "عبدالله", familyName: "العنزي", phone: "+966512345601"),
            Person(role: .provider, email: "provider@aquahub.example", password: "AquaHub-provider-2026",
                   givenName: "Faisal", familyName: "Al-Shammari", phone: "+966512345602"),
            Person(role: .courier, email: "courier@aquahub.example", password: "AquaHub-courier-2026",
                   givenName: "سلطان", familyName: "الرويلي", phone: "+966512345603"),
            Person(role: .admin, email: "admin@aquahub.example", password: "AquaHub-admin-2026",
                   givenName: "Noura", familyName: "Al-Anazi", phone: "+966512345604"),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
