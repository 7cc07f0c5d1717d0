import SoukMessages
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// Option codes: made from the base name, unique in the service, and the same whether a stored
/// option without one is read or next updated.
struct ServiceCodeTests {
    func option(_ name: String, code: String = "") -> SoukV1.ServiceOption {
        SoukV1.ServiceOption(name: name, price: .init(amountMinor: 100, currencyCode: "SAR"), available: true, code: code)
    }

    @Test func codesComeFromTheBaseNameAndStayUnique() throws {
        var taken: Set<String> = ["6-pack"]
        #expect(ServiceValidation.newCode(from: "12-pack (carton)", position: 0, taken: &taken) == "12-pack-carton")
        #expect(ServiceValidation.newCode(from: "6-Pack", position: 1, taken: &taken) == "6-pack-2")
        #expect(ServiceValidation.newCode(from: "٦ عبوات", position: 2, taken: &taken) == "option-3")
        #expect(ServiceValidation.newCode(from: "Crème brûlée", position: 3, taken: &taken) == "creme-brulee")
    }

    @Test func aStoredOptionWithoutACodeReadsWithTheCodeItsUpdateStores() throws {
        var stored = SoukV1.Service(name: "Safi Water", type: .delivery, options: [option("1 bottle", code: "one"), option("6-pack")])
        stored.options[0].id = "a"
        stored.options[1].id = "b"
        let read = ServiceValidation.withCodes(stored)
        #expect(read.options.map(\.code) == ["one", "6-pack"])
        let updated = try ServiceValidation.validated(stored, currency: "SAR", existing: stored.options)
        #expect(updated.options.map(\.code) == read.options.map(\.code))
    }
}
