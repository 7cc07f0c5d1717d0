import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// The orders and carts tables stored `souk.v1.Order` and `souk.v1.Cart` before they had records
/// of their own (`souk.store.v1`, which keep their field numbers): such records still read, and
/// the projections send what each caller may see.
@Suite struct StoredOrderAndCartFormatTests {
    static let marketplace = "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d"
    static let time = StoreTime(microsecondsSinceEpoch: 1_790_009_000_000_000)

    /// A completed cash food order as the previous format wrote it (its codec: format byte 1,
    /// the marketplace id, then the souk.v1.Order's bytes).
    static let previousOrder = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064d703120844532d3130343832
        1a2430313930663361342d303030302d373030302d383030302d30303030303030303030306320092a4a0a24303139306633
        61342d303030302d373030302d383030302d30303030303030303030613110071a0a4e617369206c656d616b420808b00912
        034d59524802520808e01212034d5952320a320808d41612034d59523a36120441696e611a0c2b3630313233343536373839
        220e31204a616c616e20416d70616e67320c4b75616c61204c756d7075724a024d59422430313930663361342d303030302d
        373030302d383030302d3030303030303030303062314a0b576172756e672041696e6150dc0b5a0808e80212034d59527224
        30313930663361342d303030302d373030302d383030302d30303030303030303030666178048001028a0124303139306633
        61342d303030302d373030302d383030302d30303030303030303030646592012430313930663361342d303030302d373030
        302d383030302d303030303030303030306461e2010608a8bdc5d506a2022922154a616c616e2042756b69742042696e7461
        6e672032320c4b75616c61204c756d7075724a024d59c2022430313930663361342d303030302d373030302d383030302d30
        3030303030303030306230
        """)

    /// A cart as the previous format wrote it: a food line with an option and a note, and a line
    /// stored before lines had ids (its id is its item's).
    static let previousCart = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064e40112243031393066336134
        2d303030302d373030302d383030302d3030303030303030303030631a2430313930663361342d303030302d373030302d38
        3030302d303030303030303030306231226a0a2430313930663361342d303030302d373030302d383030302d303030303030
        303030306131100728024a2430313930663361342d303030302d373030302d383030302d303030303030303030306331520c
        0a0573706963651203686f745a0a6e6f207065616e757473222a0a2430313930663361342d303030302d373030302d383030
        302d30303030303030303030613210052801
        """)

    static func stored<Value>(_ bytes: [UInt8], _ table: Table<Value>) throws -> StoredRecord<Value> {
        let value = try bytes.withUnsafeBytes { try table.codec.decode($0) }
        return StoredRecord(id: RecordID.generate(), version: 7, createdAt: time, updatedAt: time, value: value)
    }

    @Test func anOrderWrittenByThePreviousFormatReads() throws {
        let record = try Self.stored(Self.previousOrder, OrderTable.table)
        #expect(record.value.marketplaceID == Self.marketplace)
        let order = record.value.subject
        #expect(order.orderNumber == "DS-10482" && order.status == .completed && order.paymentMethod == .cash)
        #expect(order.lines.map(\.name) == ["Nasi lemak"] && order.lines.first?.quantity == 2)
        #expect(order.address?.phone == "+60123456789" && order.pickupAddress?.line1 == "Jalan Bukit Bintang 2")
        #expect(order.commissionBps == 1500 && order.commission?.amountMinor == 360)
        #expect(order.sellerAccountID == "0190f3a4-0000-7000-8000-0000000000b0" && order.completeTime?.seconds == 1_790_009_000)
    }

    @Test func theOrderProjectionNamesWhatEachCallerSees() throws {
        let record = try Self.stored(Self.previousOrder, OrderTable.table)
        let customer = OrderProjection.order(record, for: .customerOrAdmin)
        #expect(customer.id == record.id.description && customer.version == 7 && customer.createTime == Timestamp(Self.time))
        #expect(customer.customerAccountID == "0190f3a4-0000-7000-8000-00000000000c" && customer.address?.phone == "+60123456789")
        #expect(customer.price?.total?.amountMinor == 2900 && customer.courierAccountID == "0190f3a4-0000-7000-8000-0000000000da")
        // The order is final: its restaurant and driver see nothing of the customer.
        let restaurant = OrderProjection.order(record, for: .providerOrCourier)
        #expect(restaurant.customerAccountID.isEmpty && restaurant.address == nil && restaurant.orderNumber == "DS-10482")
        // Anyone else allowed to read it never sees the phone.
        #expect(OrderProjection.order(record, for: .other).address?.phone == "")
    }

    @Test func aCartWrittenByThePreviousFormatReads() throws {
        let record = try Self.stored(Self.previousCart, CartTable.table)
        let cart = record.value.subject
        #expect(cart.restaurantID == "0190f3a4-0000-7000-8000-0000000000b1" && cart.lines.count == 2)
        #expect(cart.lines[0].options == [SoukStoreV1.CartLineOption(groupID: "spice", choiceID: "hot")] && cart.lines[0].note == "no peanuts")
        let account = RecordID("0190f3a4-0000-7000-8000-00000000000c")!
        let shown = CartProjection.cart(record, accountID: account)
        #expect(shown.id == account.description && shown.version == 7)
        #expect(shown.lines.map(\.lineID) == ["0190f3a4-0000-7000-8000-0000000000c1", "0190f3a4-0000-7000-8000-0000000000a2"])
        #expect(shown.lines.map(\.quantity) == [2, 1] && shown.lines[0].options.map(\.choiceID) == ["hot"])
        // Prices and names are not stored: the retail and food views add them from the catalog.
        #expect(shown.price == nil && shown.lines.allSatisfy { $0.name.isEmpty && $0.unitPrice == nil })
    }
}
