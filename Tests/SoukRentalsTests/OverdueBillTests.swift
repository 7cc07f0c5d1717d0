import SoukGRPC
import SoukKit
import SoukMessages
import SoukTesting
import Testing

@testable import SoukRentals

/// Bills past their due date, marked once with the injected clock.
@Suite struct OverdueBillTests {
    @Test func aDueBillIsMarkedOverdueOnceAfterItsDueDate() async throws {
        let mara = try await RentalsFixture.make(accessTokenTTL: .seconds(30 * 86_400))
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let listing = try await mara.listing(lessor)
        let booking = try await mara.confirm(try await mara.request(listing, lessee), lessor)
        let deposit = try await mara.bill(booking.depositBillID, lessee)
        // Due 7 days after the confirmation.
        #expect(deposit.dueDate == LeaseDates.proto(CivilDate(daysSinceEpoch: mara.harness.clock.now.civilDate.daysSinceEpoch + 7)))

        mara.harness.clock.advance(.seconds(7 * 86_400))
        #expect(try await mara.rentals.markOverdueBills() == 0)
        #expect(try await mara.bill(deposit.id, lessee).overdue == false)

        mara.harness.clock.advance(.seconds(86_400))
        #expect(try await mara.rentals.markOverdueBills() == 1)
        let overdue = try await mara.bill(deposit.id, lessee)
        #expect(overdue.overdue && overdue.status == .due && overdue.overdueTime != nil)
        #expect(overdue.version == deposit.version)
        #expect(try await mara.rentals.markOverdueBills() == 0)

        let notes: SoukV1.ListNotificationsResponse = try await mara.harness.call(
            "souk.v1.Notifications", "ListNotifications", SoukV1.ListNotificationsRequest(marketplaceID: mara.marketplace.id), token: lessee.token)
        #expect(notes.notifications.filter { $0.title == "Bill overdue" }.count == 1)

        // Paid late, it stays marked; it is paid all the same.
        _ = try await mara.pay(deposit.id, lessee)
        #expect(try await mara.bill(deposit.id, lessee).status == .paid)
    }
}
