import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import Testing
@testable import SoukIdentity

@Suite struct AddressFlowTests {
    let fixture: IdentityFixture

    init() throws {
        fixture = try IdentityFixture()
    }

    static let home = SoukV1.Address(label: "Home", line1: "King Abdulaziz Rd 12", city: "Arar", countryCode: "SA")

    @Test func addressBookWithOneDefaultArchivedNotErased() async throws {
        let marketplace = try await fixture.marketplace(slug: "aqua-hub", vertical: .waterServices, currency: "SAR")
        let session = try #require(try await fixture.signUp(marketplace, email: "jo@aquahub.example").session)
        let token = session.accessToken
        let first: SoukV1.SavedAddress = try await fixture.accounts("CreateAddress", SoukV1.CreateAddressRequest(
            marketplaceID: marketplace.id, requestID: "a1", address: Self.home, isDefault: true), token: token)
        var office = Self.home
        office.label = "Office"
        let second: SoukV1.SavedAddress = try await fixture.accounts("CreateAddress", SoukV1.CreateAddressRequest(
            marketplaceID: marketplace.id, requestID: "a2", address: office, isDefault: true), token: token)
        let list: SoukV1.ListAddressesResponse = try await fixture.accounts(
            "ListAddresses", SoukV1.ListAddressesRequest(marketplaceID: marketplace.id), token: token)
        #expect(list.addresses.map(\.id) == [first.id, second.id])
        #expect(list.addresses.map(\.isDefault) == [false, true])
        let updated: SoukV1.SavedAddress = try await fixture.accounts("UpdateAddress", SoukV1.UpdateAddressRequest(
            marketplaceID: marketplace.id, savedAddress: .init(id: first.id, address: .init(city: "Rafha")),
            updateMask: .init(paths: ["address.city"]), expectedVersion: 2), token: token)
        #expect(updated.address?.city == "Rafha" && updated.address?.line1 == Self.home.line1)
        let archived: SoukV1.SavedAddress = try await fixture.accounts(
            "ArchiveAddress", SoukV1.ArchiveAddressRequest(marketplaceID: marketplace.id, addressID: second.id), token: token)
        #expect(archived.archived && !archived.isDefault)
        let visible: SoukV1.ListAddressesResponse = try await fixture.accounts(
            "ListAddresses", SoukV1.ListAddressesRequest(marketplaceID: marketplace.id), token: token)
        #expect(visible.addresses.map(\.id) == [first.id])
        let all: SoukV1.ListAddressesResponse = try await fixture.accounts(
            "ListAddresses", SoukV1.ListAddressesRequest(marketplaceID: marketplace.id, showArchived: true), token: token)
        #expect(all.addresses.count == 2)
        let restored: SoukV1.SavedAddress = try await fixture.accounts(
            "RestoreAddress", SoukV1.RestoreAddressRequest(marketplaceID: marketplace.id, addressID: second.id), token: token)
        #expect(!restored.archived)
    }

    @Test func othersAddressesAreNotTheirs() async throws {
        let marketplace = try await fixture.marketplace(slug: "aqua-hub", vertical: .waterServices, currency: "SAR")
        let jo = try #require(try await fixture.signUp(marketplace, email: "jo@aquahub.example").session?.accessToken)
        let ann = try #require(try await fixture.signUp(marketplace, email: "ann@aquahub.example").session?.accessToken)
        let address: SoukV1.SavedAddress = try await fixture.accounts("CreateAddress", SoukV1.CreateAddressRequest(
            marketplaceID: marketplace.id, requestID: "a1", address: Self.home), token: jo)
        let denied = await fixture.error("souk.v1.Accounts", "GetAddress", SoukV1.GetAddressRequest(
            marketplaceID: marketplace.id, addressID: address.id), token: ann, as: SoukV1.SavedAddress.self)
        #expect(denied?.code == .permissionDenied)
        let listOther = await fixture.error("souk.v1.Accounts", "ListAddresses", SoukV1.ListAddressesRequest(
            marketplaceID: marketplace.id, accountID: address.accountID), token: ann, as: SoukV1.ListAddressesResponse.self)
        #expect(listOther?.code == .permissionDenied)
        let admin = try await fixture.adminToken(marketplace, email: "admin@aquahub.example")
        let byAdmin: SoukV1.SavedAddress = try await fixture.accounts(
            "GetAddress", SoukV1.GetAddressRequest(marketplaceID: marketplace.id, addressID: address.id), token: admin)
        #expect(byAdmin == address)
        let missing = await fixture.error("souk.v1.Accounts", "GetAddress", SoukV1.GetAddressRequest(
            marketplaceID: marketplace.id, addressID: "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d"), token: jo, as: SoukV1.SavedAddress.self)
        #expect(missing?.code == .notFound)
    }

    @Test func addressFieldsAreChecked() async throws {
        let marketplace = try await fixture.marketplace(slug: "dineswift", vertical: .foodDelivery, currency: "USD")
        let token = try #require(try await fixture.signUp(marketplace, email: "jo@dineswift.example").session?.accessToken)
        func field(_ address: SoukV1.Address) async -> String? {
            await fixture.error("souk.v1.Accounts", "CreateAddress", SoukV1.CreateAddressRequest(
                marketplaceID: marketplace.id, requestID: "x", address: address), token: token, as: SoukV1.SavedAddress.self
            )?.fieldViolations.first?.field
        }
        #expect(await field(Self.home) == "address.location")  // food delivery needs the map position
        var address = Self.home
        address.location = .init(latitude: 33.89, longitude: 35.5)
        address.phone = "12345"
        #expect(await field(address) == "address.phone")
        address.phone = ""
        address.countryCode = "Lebanon"
        #expect(await field(address) == "address.country_code")
        address.countryCode = "LB"
        address.location?.latitude = 95
        #expect(await field(address) == "address.location.latitude")
    }
}
