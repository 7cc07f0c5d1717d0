import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// Food checkout: a cart of one restaurant becomes a PLACED cash order with its snapshots.
@Suite struct FoodCheckoutTests {
    func checkout(_ food: FoodFixture, token: String, requestID: String = "co-1") -> SoukV1.CheckoutRequest {
        SoukV1.CheckoutRequest(
            marketplaceID: food.market.id, requestID: requestID,
            address: .init(choice: .address(.init(recipientName: "Rami", phone: "+9611234567", line1: "Rue Hamra 12", city: "Beirut",
                                                  countryCode: "LB", location: FoodFixture.beirut))),
            addressConfirmed: true, note: "Ring twice")
    }

    @Test func aCartBecomesAPlacedCashOrderWithItsSnapshots() async throws {
        let food = try await FoodFixture.make(deliveryFee: 300)
        let (roma, owner) = try await food.openRestaurant("Pizza Roma")
        let pizza = try await food.createItem(food.pizzaInput(roma, price: 900, discountBps: 1000), token: owner)
        let customer = try await food.harness.token(.customer, in: food.market, email: "rami@example.com")
        _ = try await food.addLine(pizza, [("size", "large"), ("extras", "cheese")], quantity: 2, note: "no basil", token: customer)

        let order: SoukV1.Order = try await food.harness.call("souk.v1.Orders", "Checkout", checkout(food, token: customer), token: customer)
        // (9.00 − 10 % + 4.00 + 1.50) × 2 = 27.20; delivery 3.00; commission 15 % of 27.20 = 4.08.
        #expect(order.status == .placed && order.restaurantID == roma.id && order.restaurantName == "Pizza Roma")
        #expect(order.price?.subtotal?.amountMinor == 2720 && order.price?.total?.amountMinor == 3020)
        #expect(order.commissionBps == 1500 && order.commission?.amountMinor == 408)
        #expect(order.paymentMethod == .cash && order.paymentStatus == .pending)
        let line = try #require(order.lines.first)
        #expect(line.options.map(\.choiceName) == ["Large", "Cheese"] && line.note == "no basil" && line.unitPrice?.amountMinor == 1360)
        // A retry answers the same order; the cart is empty.
        let again: SoukV1.Order = try await food.harness.call("souk.v1.Orders", "Checkout", checkout(food, token: customer), token: customer)
        #expect(again.id == order.id)
        let cart: SoukV1.Cart = try await food.carts("GetCart", SoukV1.GetCartRequest(marketplaceID: food.market.id), token: customer)
        #expect(cart.lines.isEmpty && cart.restaurantID.isEmpty)
        // The restaurant sees it and accepts it.
        let accepted: SoukV1.Order = try await food.harness.call(
            "souk.v1.Orders", "AcceptOrder", SoukV1.AcceptOrderRequest(marketplaceID: food.market.id, orderID: order.id), token: owner)
        #expect(accepted.status == .preparing && accepted.address?.phone == "+9611234567")
    }

    @Test func aClosedRestaurantTakesNoOrder() async throws {
        let food = try await FoodFixture.make()
        let (roma, owner) = try await food.openRestaurant("Pizza Roma")
        let pizza = try await food.createItem(food.pizzaInput(roma), token: owner)
        let customer = try await food.harness.token(.customer, in: food.market, email: "rami@example.com")
        _ = try await food.addLine(pizza, [("size", "small")], token: customer)
        let _: SoukV1.Restaurant = try await food.catalog("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: roma.id, open: false), updateMask: .init(paths: ["open"])), token: owner)
        let refused = await food.harness.error("souk.v1.Orders", "Checkout", checkout(food, token: customer), token: customer, as: SoukV1.Order.self)
        #expect(refused?.code == .failedPrecondition && refused?.errorInfo?.reason.hasSuffix("RESTAURANT_CLOSED") == true)
        let empty = await food.harness.error(
            "souk.v1.Orders", "Checkout", checkout(food, token: food.admin, requestID: "co-2"), token: food.admin, as: SoukV1.Order.self)
        #expect(empty?.code == .failedPrecondition)
    }
}
