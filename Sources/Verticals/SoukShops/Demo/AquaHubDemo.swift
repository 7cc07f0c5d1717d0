import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

extension CommerceDemo {
    /// Aqua Hub's services, options and prices from its report, in English with Arabic translations;
    /// options carry stable codes ("12-pack", "tank-12000"). The report gives no tank prices: the
    /// capacities and prices below are the demo's.
    func loadAquaHub(_ demo: DemoContext) async throws {
        guard let marketplace = demo.marketplaces["aqua-hub"], let marketplaceID = RecordID(marketplace.id) else { return }
        let market = marketplaceID.description
        let store = commerce.store
        let sar = { (minor: Int64) in SoukV1.Money(amountMinor: minor, currencyCode: "SAR") }
        func option(_ code: String, _ name: String, _ arabic: String, _ minor: Int64) -> SoukV1.ServiceOption {
            SoukV1.ServiceOption(
                name: name, price: sar(minor), available: true, translations: [SoukV1.Translation(languageCode: "ar", name: arabic)], code: code)
        }
        func tanks(_ prices: [Int64]) -> [SoukV1.ServiceOption] {
            zip([("tank-6000", "6,000 L tank", "وايت ٦٠٠٠ لتر"), ("tank-12000", "12,000 L tank", "وايت ١٢٠٠٠ لتر"),
                 ("tank-18000", "18,000 L tank", "وايت ١٨٠٠٠ لتر")], prices)
                .map { option($0.0.0, $0.0.1, $0.0.2, $0.1) }
        }
        func service(
            _ name: String, _ arabic: String, _ description: String, _ arabicDescription: String, _ type: SoukV1.ServiceType,
            from minor: Int64, options: [SoukV1.ServiceOption] = []
        ) -> SoukV1.Service {
            var service = SoukV1.Service()
            service.name = name
            service.description = description
            service.type = type
            service.languageCode = "en"
            service.basePrice = sar(minor)
            service.available = true
            service.options = options
            service.translations = [SoukV1.Translation(languageCode: "ar", name: arabic, description: arabicDescription)]
            return service
        }
        let services = [
            service("Safi Water", "مياه صافي", "Bottled drinking water delivered to your door.", "مياه شرب معبأة توصل إلى باب منزلك.",
                    .delivery, from: 300,
                    options: [option("1-bottle", "1 bottle", "١ عبوة", 300), option("6-pack", "6-pack", "٦ عبوات", 1500),
                              option("12-pack", "12-pack (carton)", "كرتون (١٢ عبوة)", 2500)]),
            service("Water Tank (Drinking Water)", "وايت ماء (صالح للشرب)", "A tanker of drinking water; choose the tank capacity.",
                    "وايت ماء صالح للشرب؛ اختر سعة الخزان.", .delivery, from: 12000, options: tanks([12000, 20000, 28000])),
            service("Non-Drinking Water", "وايت ماء (غير صالح للشرب)", "A tanker of non-drinking water for cleaning and gardens; choose the tank capacity.",
                    "وايت ماء غير صالح للشرب للتنظيف والحدائق؛ اختر سعة الخزان.", .delivery, from: 9000, options: tanks([9000, 15000, 21000])),
            service("Tank Cleaning", "تنظيف الخزانات", "Cleaning and disinfection of your water tank, from 50 SAR.",
                    "تنظيف وتعقيم خزان المياه، ابتداءً من ٥٠ ريال.", .cleaning, from: 5000),
            service("HydroFix", "خدمات السباكة", "Plumbing maintenance and repairs, from 25 SAR.", "صيانة وإصلاح السباكة، ابتداءً من ٢٥ ريال.",
                    .maintenance, from: 2500),
        ]
        // One service per transaction (a service with its index entries and audit entry is about
        // 50 keys; the five at once exceed etcd's default 128 writes per commit), added only when
        // the catalog has no service of that name, archived ones included: a load cut off halfway
        // is completed by the next one, and a second load adds nothing.
        for input in services {
            let service = ServiceStorage.record(try ServiceValidation.validated(input, currency: "SAR", existing: []))
            let sameName = try store.list(
                ServiceTable.table, ServiceTable.byName,
                .starting(with: [.string(market), .int(Int64(ServiceShelf.all.rawValue)), .enumCase(SoukV1.ServiceType.unspecified),
                                 .string(ServiceText.sortName(service))]))
            guard !sameName.items.contains(where: { $0.value.subject.name == service.name }) else { continue }
            try await store.write { transaction in
                let record = try transaction.insert(ServiceTable.table, ServiceRecord(marketplaceID: market, service))
                try AuditLog.record(
                    in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .service, id: record.id.description),
                    actor: .system("LoadDemo"), to: "ACTIVE", resourceVersion: record.version)
            }
        }
    }
}
