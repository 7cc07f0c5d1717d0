import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukFood

/// The restaurants and menu_items tables stored `souk.v1.Restaurant` and `souk.v1.MenuItem`
/// before they had records of their own (`souk.store.v1.Restaurant` and `MenuItem`, which keep
/// their field numbers): such records still read, and the projections send them as the contract
/// has them.
@Suite struct StoredFoodFormatTests {
    static let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)

    /// An approved, open restaurant as the previous format wrote it (its codec: format byte 1,
    /// the marketplace id, then the souk.v1.Restaurant's bytes, made with
    /// `protoc --encode=souk.v1.Restaurant` from the contract before this change).
    static let previousRestaurant = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064ea0112243031393066336134
        2d303030302d373030302d383030302d3030303030303030303063341a0d50697a7a6572696120526f6d612211576f6f642d
        66697265642070697a7a612e2a2b22095275652048616d726132064265697275744a024c42521209986e1283c0f24040112f
        6ea301bcbd4140322430313930663361342d303030302d373030302d383030302d303030303030303030306532420570697a
        7a6142076974616c69616e48dc0b50015a05080310d3038801029a012430313930663361342d303030302d373030302d3830
        30302d303030303030303030306131a2010608809cb8d806
        """)

    /// A hidden, discounted pizza with a required size, as the previous format wrote it
    /// (`protoc --encode=souk.v1.MenuItem`, the same codec).
    static let previousMenuItem = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064900112243031393066336134
        2d303030302d373030302d383030302d3030303030303030303062321a0a4d6172676865726974612a0808cf0f1203555344
        30e209420550697a7a61500158018a01430a0473697a65120453697a6518012001280132150a05736d616c6c1205536d616c
        6c1a05120355534432180a056c6172676512054c617267651a080890031203555344
        """)

    @Test func aRestaurantWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousRestaurant.withUnsafeBytes { try RestaurantTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let restaurant = value.subject
        #expect(restaurant.ownerAccountID == "0190f3a4-0000-7000-8000-0000000000c4" && restaurant.name == "Pizzeria Roma")
        #expect(restaurant.address?.city == "Beirut" && restaurant.address?.location == SoukV1.GeoPoint(latitude: 33.8965, longitude: 35.4823))
        #expect(restaurant.logoMediaID == "0190f3a4-0000-7000-8000-0000000000e2" && restaurant.categories == ["pizza", "italian"])
        #expect(restaurant.commissionBps == 1500 && restaurant.open && restaurant.rating == SoukV1.RatingSummary(count: 3, averageHundredths: 467))
        #expect(restaurant.approvalState == .approved && restaurant.decidedByAccountID == "0190f3a4-0000-7000-8000-0000000000a1")
        #expect(restaurant.decideTime?.seconds == 1_796_083_200 && RestaurantRules.isVisible(restaurant))
        let record = StoredRecord(id: RecordID.generate(), version: 4, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = RestaurantProjection.restaurant(record)
        #expect(shown.id == record.id.description && shown.version == 4 && shown.createTime == Timestamp(Self.time))
        #expect(shown.name == restaurant.name && shown.address == restaurant.address && shown.commissionBps == 1500 && shown.open)
        #expect(shown.approvalState == .approved && shown.decideTime == restaurant.decideTime && shown.rating == restaurant.rating)
    }

    @Test func aMenuItemWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousMenuItem.withUnsafeBytes { try MenuItemTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let item = value.subject
        #expect(item.restaurantID == "0190f3a4-0000-7000-8000-0000000000b2" && item.name == "Margherita" && item.section == "Pizza")
        #expect(item.price == SoukV1.Money(amountMinor: 1999, currencyCode: "USD") && item.discountBps == 1250)
        #expect(item.available && item.hidden && !item.archived)
        #expect(item.optionGroups.map(\.id) == ["size"] && item.optionGroups.first?.choices.map(\.id) == ["small", "large"])
        let record = StoredRecord(id: RecordID.generate(), version: 2, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = MenuItemProjection.item(record)
        #expect(shown.id == record.id.description && shown.version == 2 && shown.restaurantID == item.restaurantID)
        #expect(shown.effectivePrice == SoukV1.Money(amountMinor: 1749, currencyCode: "USD") && shown.hidden)
        #expect(shown.optionGroups == item.optionGroups)
    }
}
