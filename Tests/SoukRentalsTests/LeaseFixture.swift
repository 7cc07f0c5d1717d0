import NIOCore
import SoukGRPC
import Synchronization
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukRentals

/// Leases and bills over `RentalsFixture`: calls by a person, published listings, requests,
/// confirmations, payments through Payments.CreatePayment and monthly bills.
extension RentalsFixture {
    func call<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ who: Person, as: Response.Type = Response.self) async throws -> Response {
        try await call(method, request, who.token)
    }

    func error<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ who: Person, as: Response.Type = SoukV1.Booking.self) async -> RPCError? {
        await error(method, request, who.token, as: Response.self)
    }

    /// A published listing of `owner`; returns its id.
    func listing(_ owner: Person, rent: Int64 = 8_000_000, title: String = "Căn hộ 2 phòng ngủ Quận 1") async throws -> String {
        try await publish(try await create(draft(title: title, rent: rent), by: owner), by: owner.token).id
    }

    /// The first `count` events WatchBooking writes for `booking` after `resumeAfter`.
    func watch(_ booking: String, _ who: Person, resumeAfter: Int64, count: Int) async throws -> [SoukV1.BookingEvent] {
        guard case .serverStreaming(let handler)? = harness.method("souk.v1.Rentals", "WatchBooking")?.handler else {
            throw RPCError(.unimplemented, "WatchBooking")
        }
        struct Enough: Error {}
        let events = Mutex<[SoukV1.BookingEvent]>([])
        let writer = RPCWriter<ByteBuffer> { bytes, _ in
            let event = try SoukV1.BookingEvent(decoding: Array(bytes.readableBytesView))
            // The stream of an active booking stays open: it is left once `count` events came.
            if events.withLock({ $0.append(event); return $0.count >= count }) { throw Enough() }
        }
        let request = SoukV1.WatchBookingRequest(marketplaceID: marketplace.id, bookingID: booking, resumeAfterSequence: resumeAfter)
        do {
            try await handler(ByteBuffer(bytes: request.encoded()), writer, try harness.context("souk.v1.Rentals", "WatchBooking", token: who.token))
        } catch {
            // The handler reports the writer's `Enough` as its own error.
            guard events.withLock({ $0.count >= count }) else { throw error }
        }
        return events.withLock { $0 }
    }

    /// The first day of the month after the clock's.
    var nextMonth: SoukV1.Date {
        let today = harness.clock.now.civilDate
        let next = LeaseDates.addingMonths(1, to: CivilDate(year: today.year, month: today.month, day: 1))
        return LeaseDates.proto(next)
    }

    func request(_ listing: String, _ lessee: Person, months: Int32 = 12, requestID: String? = nil) async throws -> SoukV1.Booking {
        try await call("RequestBooking", requestBooking(listing, months: months, requestID: requestID), lessee)
    }

    func requestBooking(_ listing: String, months: Int32 = 12, requestID: String? = nil) -> SoukV1.RequestBookingRequest {
        SoukV1.RequestBookingRequest(
            marketplaceID: marketplace.id, requestID: requestID ?? "request-\(UInt64.random(in: 0...UInt64.max))", listingID: listing,
            startDate: nextMonth, months: months, message: "Tôi muốn thuê")
    }

    func confirm(_ booking: SoukV1.Booking, _ lessor: Person) async throws -> SoukV1.Booking {
        try await call("ConfirmBooking", SoukV1.ConfirmBookingRequest(marketplaceID: marketplace.id, bookingID: booking.id), lessor)
    }

    /// Pays `bill` through Payments.CreatePayment with a test card that succeeds.
    func pay(_ billID: String, _ lessee: Person) async throws -> SoukV1.Payment {
        try await harness.call("souk.v1.Payments", "CreatePayment", SoukV1.CreatePaymentRequest(
            marketplaceID: marketplace.id, requestID: "pay-\(billID)", target: .billID(billID),
            method: SoukV1.PaymentMethodInput(method: .cardToken("tok_visa"))), token: lessee.token)
    }

    func bill(_ id: String, _ who: Person) async throws -> SoukV1.Bill {
        try await call("GetBill", SoukV1.GetBillRequest(marketplaceID: marketplace.id, billID: id), who)
    }

    func booking(_ id: String, _ who: Person) async throws -> SoukV1.Booking {
        try await call("GetBooking", SoukV1.GetBookingRequest(marketplaceID: marketplace.id, bookingID: id), who)
    }

    func monthlyBill(_ booking: SoukV1.Booking, month: SoukV1.BillingPeriod, electricity: Int64, water: Int64, _ lessor: Person) async throws -> SoukV1.Bill {
        try await call("CreateMonthlyBill", SoukV1.CreateMonthlyBillRequest(
            marketplaceID: marketplace.id, requestID: "bill-\(booking.id)-\(month.year)-\(month.month)", bookingID: booking.id, period: month,
            utilities: [
                SoukV1.UtilityCharge(kind: .electricity, description: "180 kWh", amount: SoukV1.Money(amountMinor: electricity, currencyCode: "VND")),
                SoukV1.UtilityCharge(kind: .water, description: "6 m³", amount: SoukV1.Money(amountMinor: water, currencyCode: "VND")),
            ]), lessor)
    }
}

extension RPCError {
    /// The error's AIP-193 reason.
    var reasonName: String { errorInfo?.reason ?? "" }
}
