import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// A restaurant account describes its restaurant while pending; an admin approves or rejects
/// the account and the restaurant in one transaction.
@Suite struct RestaurantApprovalTests {
    @Test func aPendingAccountDescribesItsRestaurantAndTheAdminApprovesBoth() async throws {
        let food = try await FoodFixture.make()
        let owner = try await food.pendingOwner("roma@dineswift.example")
        let created = try await food.createRestaurant("Pizza Roma", token: owner.token)
        #expect(created.approvalState == .pending && !created.open && created.commissionBps == 1500)
        #expect(created.ownerAccountID == owner.account.id)
        // One restaurant per account.
        let second = await food.catalogError("CreateRestaurant", SoukV1.CreateRestaurantRequest(
            marketplaceID: food.market.id, requestID: "second", restaurant: food.restaurantInput("Roma Two")), token: owner.token)
        #expect(second?.code == .alreadyExists)
        // The owner edits it while pending; it cannot open before approval.
        let edited: SoukV1.Restaurant = try await food.catalog("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: created.id, description: "Wood-fired since 1990"),
            updateMask: .init(paths: ["description"])), token: owner.token)
        #expect(edited.description == "Wood-fired since 1990")
        let early = await food.catalogError("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: created.id, open: true), updateMask: .init(paths: ["open"])), token: owner.token)
        #expect(early?.code == .failedPrecondition && early?.message.contains("restaurant.open") == true)
        // Guests see nothing of it; menus need the active provider role.
        let guest = await food.catalogError("GetRestaurant", SoukV1.GetRestaurantRequest(marketplaceID: food.market.id, restaurantID: created.id))
        #expect(guest?.code == .notFound)
        let menu = await food.catalogError("CreateMenuItem", SoukV1.CreateMenuItemRequest(
            marketplaceID: food.market.id, requestID: "m", menuItem: food.pizzaInput(created)), token: owner.token)
        #expect(menu?.code == .permissionDenied && menu?.soukReason == .rolePending)
        // The admin lists what awaits approval, with the details.
        let pending: SoukV1.ListRestaurantsResponse = try await food.catalog("ListRestaurants", SoukV1.ListRestaurantsRequest(
            marketplaceID: food.market.id, approvalStates: [.pending]), token: food.admin)
        #expect(pending.restaurants.map { $0.restaurant?.id } == [created.id])
        #expect(pending.restaurants.first?.restaurant?.description == "Wood-fired since 1990")
        #expect(pending.restaurants.first?.restaurant?.address?.location == FoodFixture.beirut)
        let customer = try await food.harness.token(.customer, in: food.market)
        let notAdmin = await food.catalogError("ListRestaurants", SoukV1.ListRestaurantsRequest(
            marketplaceID: food.market.id, approvalStates: [.pending]), token: customer)
        #expect(notAdmin?.code == .permissionDenied)
        // ApproveRole alone is refused, naming the RPC that decides both.
        let roleOnly = await food.harness.error("souk.v1.Accounts", "ApproveRole", SoukV1.ApproveRoleRequest(
            marketplaceID: food.market.id, accountID: owner.account.id, role: .provider), token: food.admin, as: SoukV1.Account.self)
        #expect(roleOnly?.code == .failedPrecondition && roleOnly?.message.contains("Catalog.ApproveRestaurant") == true)
        let approved: SoukV1.Restaurant = try await food.catalog("ApproveRestaurant", SoukV1.ApproveRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id), token: food.admin)
        #expect(approved.approvalState == .approved && approved.decideTime != nil && !approved.decidedByAccountID.isEmpty)
        let account: SoukV1.Account = try await food.harness.accounts("GetAccount", SoukV1.GetAccountRequest(
            marketplaceID: food.market.id, accountID: owner.account.id), token: food.admin)
        #expect(account.roles.first { $0.role == .provider }?.status == .active)
        let seen: SoukV1.Restaurant = try await food.catalog("GetRestaurant", SoukV1.GetRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id))
        #expect(seen.name == "Pizza Roma")
        let again = await food.catalogError("ApproveRestaurant", SoukV1.ApproveRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id), token: food.admin)
        #expect(again?.code == .failedPrecondition)
        // Now the owner builds its menu.
        let item = try await food.createItem(food.pizzaInput(approved), token: owner.token)
        #expect(item.effectivePrice?.amountMinor == 900)
    }

    @Test func aRejectionRejectsTheRoleAndTheRestaurantWithTheReason() async throws {
        let food = try await FoodFixture.make()
        let owner = try await food.pendingOwner("shady@dineswift.example")
        let created = try await food.createRestaurant("Shady Grill", token: owner.token)
        let noReason = await food.catalogError("RejectRestaurant", SoukV1.RejectRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id, reason: "  "), token: food.admin)
        #expect(noReason?.code == .invalidArgument && noReason?.message.hasPrefix("reason") == true)
        let roleOnly = await food.harness.error("souk.v1.Accounts", "RejectRole", SoukV1.RejectRoleRequest(
            marketplaceID: food.market.id, accountID: owner.account.id, role: .provider, reason: "no"), token: food.admin, as: SoukV1.Account.self)
        #expect(roleOnly?.code == .failedPrecondition && roleOnly?.message.contains("Catalog.RejectRestaurant") == true)
        let rejected: SoukV1.Restaurant = try await food.catalog("RejectRestaurant", SoukV1.RejectRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id, reason: "No food licence attached"), token: food.admin)
        #expect(rejected.approvalState == .rejected && rejected.rejectionReason == "No food licence attached")
        let account: SoukV1.Account = try await food.harness.accounts("GetAccount", SoukV1.GetAccountRequest(
            marketplaceID: food.market.id, accountID: owner.account.id), token: food.admin)
        let grant = try #require(account.roles.first { $0.role == .provider })
        #expect(grant.status == .rejected && grant.reason == "No food licence attached")
        // Its owner no longer edits it; guests never saw it.
        let edit = await food.catalogError("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: created.id, name: "Sunny Grill"), updateMask: .init(paths: ["name"])),
            token: owner.token)
        #expect(edit?.code == .permissionDenied)
        let list: SoukV1.ListRestaurantsResponse = try await food.catalog("ListRestaurants", SoukV1.ListRestaurantsRequest(
            marketplaceID: food.market.id, near: FoodFixture.beirut))
        #expect(list.restaurants.isEmpty)
    }

    @Test func anAccountWithoutARestaurantIsDecidedWithApproveRole() async throws {
        let food = try await FoodFixture.make()
        let owner = try await food.pendingOwner("later@dineswift.example")
        let account: SoukV1.Account = try await food.harness.accounts("ApproveRole", SoukV1.ApproveRoleRequest(
            marketplaceID: food.market.id, accountID: owner.account.id, role: .provider), token: food.admin)
        #expect(account.roles.first { $0.role == .provider }?.status == .active)
        // Its restaurant, described later, still waits for approval.
        let created = try await food.createRestaurant("Late Bistro", token: owner.token)
        #expect(created.approvalState == .pending)
        let approved: SoukV1.Restaurant = try await food.catalog("ApproveRestaurant", SoukV1.ApproveRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: created.id), token: food.admin)
        #expect(approved.approvalState == .approved)
    }

    /// The Access line says customer: any account describes its restaurant, and one without the
    /// provider role asks for it by doing so, to be approved with the restaurant.
    @Test func aCustomerCreatingARestaurantAsksForTheProviderRole() async throws {
        let food = try await FoodFixture.make()
        let customer = try await food.harness.token(.customer, in: food.market)
        let created = try await food.createRestaurant("Home Kitchen", token: customer)
        #expect(created.approvalState == .pending)
        let creator = try #require(RecordID(created.ownerAccountID))
        let account = try #require(try IdentityRecords.account(creator, food.harness.store))
        #expect(account.roles.first { $0.role == .provider }?.status == .pending)
        let owner = try await food.pendingOwner("nolocation@dineswift.example")
        var input = food.restaurantInput("Nowhere")
        input.address?.location = nil
        let noLocation = await food.catalogError("CreateRestaurant", SoukV1.CreateRestaurantRequest(
            marketplaceID: food.market.id, requestID: "n", restaurant: input), token: owner.token)
        #expect(noLocation?.code == .invalidArgument && noLocation?.message.hasPrefix("restaurant.address.location") == true)
    }

    /// An approval and a rejection of the same restaurant at once: exactly one wins, and the
    /// owner's role matches the restaurant.
    @Test func concurrentDecisionsHaveOneWinner() async throws {
        let food = try await FoodFixture.make()
        for round in 0..<4 {
            let owner = try await food.pendingOwner("race\(round)@dineswift.example")
            let created = try await food.createRestaurant("Race \(round)", token: owner.token)
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for approve in [true, false, true, false] {
                    group.addTask {
                        let error = approve
                            ? await food.catalogError("ApproveRestaurant", SoukV1.ApproveRestaurantRequest(
                                marketplaceID: food.market.id, restaurantID: created.id), token: food.admin)
                            : await food.catalogError("RejectRestaurant", SoukV1.RejectRestaurantRequest(
                                marketplaceID: food.market.id, restaurantID: created.id, reason: "duplicate"), token: food.admin)
                        if let error, error.code != .failedPrecondition { throw error }
                        return error == nil
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count { $0 } == 1)
            let restaurant: SoukV1.Restaurant = try await food.catalog("GetRestaurant", SoukV1.GetRestaurantRequest(
                marketplaceID: food.market.id, restaurantID: created.id), token: food.admin)
            let account: SoukV1.Account = try await food.harness.accounts("GetAccount", SoukV1.GetAccountRequest(
                marketplaceID: food.market.id, accountID: owner.account.id), token: food.admin)
            let role = account.roles.first { $0.role == .provider }?.status
            #expect((restaurant.approvalState == .approved && role == .active) || (restaurant.approvalState == .rejected && role == .rejected))
        }
    }

    @Test func commissionIsSetByAdminsWithinRange() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Commission Cafe")
        let bad = await food.catalogError("SetRestaurantCommission", SoukV1.SetRestaurantCommissionRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id, optionalCommissionBps: .commissionBps(10_001)), token: food.admin)
        #expect(bad?.code == .invalidArgument && bad?.message.hasPrefix("commission_bps") == true)
        let byOwner = await food.catalogError("SetRestaurantCommission", SoukV1.SetRestaurantCommissionRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id, optionalCommissionBps: .commissionBps(0)), token: owner)
        #expect(byOwner?.code == .permissionDenied)
        let unset = await food.catalogError("SetRestaurantCommission", SoukV1.SetRestaurantCommissionRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id), token: food.admin)
        #expect(unset?.code == .invalidArgument && unset?.fieldViolations.map(\.field) == ["commission_bps"])
        let set: SoukV1.Restaurant = try await food.catalog("SetRestaurantCommission", SoukV1.SetRestaurantCommissionRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id, optionalCommissionBps: .commissionBps(1200)), token: food.admin)
        #expect(set.commissionBps == 1200)
        let none: SoukV1.Restaurant = try await food.catalog("SetRestaurantCommission", SoukV1.SetRestaurantCommissionRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id, optionalCommissionBps: .commissionBps(0)), token: food.admin)
        #expect(none.commissionBps == 0)
    }

    @Test func anOrderInProgressKeepsTheRestaurantOutOfTheArchive() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, owner) = try await food.openRestaurant("Busy Kitchen")
        var order = SoukStoreV1.Order()
        order.orderNumber = "DS-1"
        order.restaurantID = restaurant.id
        order.status = .preparing
        let market = food.market.id
        let stored = try await food.harness.store.write { [order] transaction in
            try transaction.insert(OrderTable.table, OrderRecord(marketplaceID: market, order))
        }
        let archive = SoukV1.ArchiveRestaurantRequest(marketplaceID: market, restaurantID: restaurant.id)
        let busy = await food.catalogError("ArchiveRestaurant", archive, token: owner)
        #expect(busy?.code == .failedPrecondition && busy?.message.contains("DS-1") == true)
        try await food.harness.store.write { transaction in
            _ = try transaction.update(OrderTable.table, stored.id) { $0.subject.status = .completed }
        }
        let archived: SoukV1.Restaurant = try await food.catalog("ArchiveRestaurant", archive, token: owner)
        #expect(archived.archived)
        let restored: SoukV1.Restaurant = try await food.catalog("RestoreRestaurant", SoukV1.RestoreRestaurantRequest(
            marketplaceID: market, restaurantID: restaurant.id), token: food.admin)
        #expect(!restored.archived)
    }

    @Test func ratingsAreKeptExactWithoutChangingTheVersion() async throws {
        let food = try await FoodFixture.make()
        let (restaurant, _) = try await food.openRestaurant("Rated Place")
        let id = try #require(RecordID(restaurant.id))
        for stars: Int32 in [5, 4, 4] {
            try await food.harness.store.write { transaction in try FoodRestaurants.rated(id, try RatingTotalTable.add(stars, to: id, transaction: transaction), transaction: transaction) }
        }
        let read: SoukV1.Restaurant = try await food.catalog("GetRestaurant", SoukV1.GetRestaurantRequest(
            marketplaceID: food.market.id, restaurantID: restaurant.id))
        #expect(read.rating?.count == 3 && read.rating?.averageHundredths == 433 && read.version == restaurant.version)
    }
}
