import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

/// One contract service served by two domains, each for its own verticals: `ServiceAssembly`
/// routes each call to the domain of its marketplace's vertical, and refuses the others.
@Suite struct ServiceAssemblyTests {
    /// A domain serving `Reports.ListCourierEarnings` for `verticals`, answering with `name` as
    /// the page token so the test sees which one served.
    final class EarningsDomain: SoukDomain {
        let name: String
        let verticals: Set<SoukV1.Vertical>

        static var tables: [AnyTable] { [] }

        init(mounting context: DomainContext) throws {
            (name, verticals) = ("", [])
        }

        init(name: String, verticals: Set<SoukV1.Vertical>) {
            (self.name, self.verticals) = (name, verticals)
        }

        func services(_ kit: ServiceKit) -> [any RPCService] {
            let name = name
            return [
                SoukV1Services.Reports(
                    getOrdersOverview: .unimplemented, listRestaurantReports: .unimplemented,
                    listCourierEarnings: .handler(verticals: verticals, owner: .account(\.courierAccountID)) { _, _ in
                        SoukV1.ListCourierEarningsResponse(nextPageToken: name)
                    },
                    getTransactionReport: .unimplemented, getRentalRevenueReport: .unimplemented
                ).rpcService(kit)
            ]
        }
    }

    @Test func eachVerticalIsServedByItsDomain() async throws {
        let harness = try DomainHarness(makeDomains: { _ in
            [EarningsDomain(name: "food", verticals: [.foodDelivery]), EarningsDomain(name: "water", verticals: [.waterServices])]
        })
        #expect(harness.services["souk.v1.Reports"]?.count == 1, "the two declarations are assembled into one service")
        func earnings(_ vertical: SoukV1.Vertical, _ slug: String) async throws -> (String?, RPCError?) {
            let market = try await harness.marketplace(slug: slug, vertical: vertical)
            let token = try await harness.adminToken(market, email: "admin@\(slug).example")
            let request = SoukV1.ListCourierEarningsRequest(marketplaceID: market.id)
            let error = await harness.error("souk.v1.Reports", "ListCourierEarnings", request, token: token, as: SoukV1.ListCourierEarningsResponse.self)
            if let error { return (nil, error) }
            let response: SoukV1.ListCourierEarningsResponse = try await harness.call("souk.v1.Reports", "ListCourierEarnings", request, token: token)
            return (response.nextPageToken, nil)
        }
        #expect(try await earnings(.foodDelivery, "dine").0 == "food")
        #expect(try await earnings(.waterServices, "aqua").0 == "water")
        let (_, refused) = try await earnings(.retail, "wine")
        #expect(refused?.code == .failedPrecondition && refused?.errorInfo?.reason.hasSuffix("WRONG_VERTICAL") == true)
    }
}
