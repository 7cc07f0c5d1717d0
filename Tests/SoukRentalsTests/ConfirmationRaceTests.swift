import SoukGRPC
import SoukMessages
import SoukTesting
import Testing

@testable import SoukRentals

/// Confirmations racing for one listing, run at once against the store: exactly one lease.
@Suite struct ConfirmationRaceTests {
    /// The outcome of one confirmation: the booking, or the refusal's code and reason.
    enum Outcome: Sendable {
        case confirmed(String)
        case refused(StatusCode, String)
    }

    static func confirmAll(_ bookings: [SoukV1.Booking], _ lessor: RentalsFixture.Person, mara: RentalsFixture) async throws -> [Outcome] {
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for booking in bookings {
                group.addTask {
                    let request = SoukV1.ConfirmBookingRequest(marketplaceID: mara.marketplace.id, bookingID: booking.id)
                    if let error = await mara.error("ConfirmBooking", request, lessor) { return .refused(error.code, error.reasonName) }
                    return .confirmed(booking.id)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func twoRequestsOfOneListingConfirmedAtOnce() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let first = try await mara.person("an")
        let second = try await mara.person("binh")
        for round in 0..<8 {
            let listing = try await mara.listing(lessor, title: "Phòng \(round)")
            let bookings = [try await mara.request(listing, first), try await mara.request(listing, second)]
            let outcomes = try await Self.confirmAll(bookings, lessor, mara: mara)
            let winners = outcomes.compactMap { if case .confirmed(let id) = $0 { id } else { nil } }
            #expect(winners.count == 1)
            for outcome in outcomes {
                if case .refused(let code, let reason) = outcome {
                    #expect(code == .failedPrecondition)
                    // The loser is either held off by the lease or already declined by the winner.
                    #expect(reason == "LISTING_LEASED" || reason == "INVALID_TRANSITION")
                }
            }
            let leases: SoukV1.ListBookingsResponse = try await mara.call(
                "ListBookings", SoukV1.ListBookingsRequest(marketplaceID: mara.marketplace.id, party: .listingID(listing), statuses: [.confirmed]), lessor)
            #expect(leases.bookings.map(\.id) == winners)
        }
    }

    @Test func oneRequestConfirmedTwiceAtOnce() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("an")
        for round in 0..<8 {
            let listing = try await mara.listing(lessor, title: "Nhà \(round)")
            let booking = try await mara.request(listing, lessee)
            let outcomes = try await Self.confirmAll([booking, booking], lessor, mara: mara)
            let winners = outcomes.filter { if case .confirmed = $0 { true } else { false } }
            #expect(winners.count == 1)
            for outcome in outcomes {
                if case .refused(let code, let reason) = outcome { #expect(code == .failedPrecondition && reason == "INVALID_TRANSITION") }
            }
            let bills: SoukV1.ListBillsResponse = try await mara.call(
                "ListBills", SoukV1.ListBillsRequest(marketplaceID: mara.marketplace.id, party: .bookingID(booking.id)), lessee)
            #expect(bills.bills.count == 1)
        }
    }
}
