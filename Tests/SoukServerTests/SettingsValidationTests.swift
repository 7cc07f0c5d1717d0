import SoukCommerceTesting
import SoukFood
import SoukOrders
import SoukShops
import SoukGRPC
import SoukKit
import SoukLaundry
import SoukMessages
import SoukRentals
import SoukTesting
import Testing
@testable import SoukIdentity

/// Each vertical checks its own part of a marketplace's settings (`SettingsValidators`); identity
/// checks only the platform's parts.
@Suite struct SettingsValidationTests {
    @Test(arguments: [
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR",
                            settings: .init(commerce: .init(taxRateBps: 10_001))), "marketplace.settings.commerce.tax_rate_bps"),
        (SoukV1.Marketplace(slug: "aqua-hub", displayName: "A", vertical: .retail, currencyCode: "SAR",
                            settings: .init(commerce: .init(shippingFee: .init(amountMinor: 100, currencyCode: "USD")))), "marketplace.settings.commerce.shipping_fee"),
        (SoukV1.Marketplace(slug: "dnd", displayName: "A", vertical: .laundry, currencyCode: "USD",
                            settings: .init(laundry: .init(serviceFee: .init(amountMinor: 1001)))), "marketplace.settings.laundry.service_fee"),
        (SoukV1.Marketplace(slug: "mara", displayName: "A", vertical: .rentals, currencyCode: "VND",
                            settings: .init(rentals: .init(paymentProviderFeeBps: 6000, platformFeeBps: 5000))), "marketplace.settings.rentals.platform_fee_bps"),
        (SoukV1.Marketplace(slug: "dine", displayName: "A", vertical: .foodDelivery, currencyCode: "USD",
                            settings: .init(delivery: .init(offerTimeout: .seconds(601)))), "marketplace.settings.delivery.offer_timeout"),
    ])
    func eachVerticalNamesItsWrongSettings(marketplace: SoukV1.Marketplace, field: String) throws {
        let harness = try DomainHarness(domainTypes: [Commerce.self, Shops.self, Food.self, Laundry.self, Rentals.self], makeDomains: { identity in
            CommerceDomains.mounting(Commerce(store: identity.store, identity: identity), identity: identity) + [Laundry(store: identity.store, identity: identity), Rentals(store: identity.store, identity: identity)]
        })
        let validators = harness.identity.marketplaces.settingsValidators
        #expect(throws: (any Error).self) { _ = try MarketplaceValidation.newMarketplace(marketplace, validators: validators) }
        do {
            _ = try MarketplaceValidation.newMarketplace(marketplace, validators: validators)
        } catch let error as RPCError {
            #expect(error.code == .invalidArgument && error.fieldViolations.first?.field == field)
        }
        // Identity alone knows no vertical's rules: the part is kept as given.
        #expect(throws: Never.self) { _ = try MarketplaceValidation.newMarketplace(marketplace, validators: SettingsValidators()) }
    }

    @Test func verticalsFillInTheirMoneysCurrency() throws {
        let harness = try DomainHarness(domainTypes: [Laundry.self], makeDomains: { identity in [Laundry(store: identity.store, identity: identity)] })
        let marketplace = try MarketplaceValidation.newMarketplace(
            .init(slug: "dnd", displayName: "A", vertical: .laundry, currencyCode: "USD", settings: .init(laundry: .init(serviceFee: .init(amountMinor: 500)))),
            validators: harness.identity.marketplaces.settingsValidators)
        #expect(marketplace.settings?.laundry?.serviceFee == .init(amountMinor: 500, currencyCode: "USD"))
    }
}
