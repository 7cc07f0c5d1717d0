import SoukMessages

extension DemoLoader {
    /// MARA: long-term rentals in Ho Chi Minh City and Binh Duong (VND; leases of at least 6
    /// months, deposits of 1 or 2 months' rent).
    func loadMARA() async throws -> [DemoLogin] {
        let marketplace = try await marketplace(SoukV1.Marketplace(
            slug: "mara", displayName: "MARA", vertical: .rentals, currencyCode: "VND",
            timeZone: "Asia/Ho_Chi_Minh", defaultLocale: "vi-VN",
            settings: SoukV1.MarketplaceSettings(
                commerce: SoukV1.CommerceSettings(acceptedPaymentMethods: [.card, .applePay, .googlePay]),
                rentals: SoukV1.RentalSettings(minLeaseMonths: 6, maxDepositMonths: 2, paymentProviderFeeBps: 300, platformFeeBps: 500))))
        let people = [
            Person(role: .customer, email: "lessee@mara.example", password: "MARA-customer-2026",
                   givenName: "Nguyễn Thị", familyName: "Lan", phone: "+84901234501"),
            // The other demo lessors come before the demo provider, so that the provider login
            // printed last (the one tools and DemoContext pick) stays lessor@mara.example.
            Person(role: .provider, email: "hoa.lessor@mara.example", password: "MARA-hoa-2026",
                   givenName: "Lê Thị", familyName: "Hoa", phone: "+84901234505"),
            Person(role: .provider, email: "duc.lessor@mara.example", password: "MARA-duc-2026",
                   givenName: "Võ Minh", familyName: "Đức", phone: "+84901234506"),
            Person(role: .provider, email: "lessor@mara.example", password: "MARA-provider-2026",
                   givenName: "Trần Văn", familyName: "Minh", phone: "+84901234502"),
            Person(role: .courier, email: "courier@mara.example", password: "MARA-courier-2026",
                   givenName: "Lê Hoàng", familyName: "Phúc", phone: "+84901234503"),
            Person(role: .admin, email: "admin@mara.example", password: "MARA-admin-2026",
                   givenName: "Phạm Thu", familyName: "Hà", phone: "+84901234504"),
        ]
        var logins: [DemoLogin] = []
        for person in people { logins.append(try await account(person, in: marketplace)) }
        return logins
    }
}
