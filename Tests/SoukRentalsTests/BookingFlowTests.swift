import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukRentals

/// A lease from request to the deposit's return, through the Rentals and Payments services.
@Suite struct BookingFlowTests {
    @Test func aLeaseFromRequestToDepositReturn() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let listing = try await mara.listing(lessor, rent: 8_000_000)

        let requested = try await mara.request(listing, lessee)
        #expect(requested.status == .requested)
        #expect(requested.deposit?.amountMinor == 16_000_000)
        #expect(requested.lessor?.accountID == lessor.id && requested.lessee?.accountID == lessee.id)
        let confirmed = try await mara.confirm(requested, lessor)
        #expect(confirmed.status == .confirmed)
        let deposit = try await mara.bill(confirmed.depositBillID, lessee)
        #expect(deposit.kind == .deposit && deposit.total?.amountMinor == 16_000_000 && deposit.status == .due)

        let payment = try await mara.pay(deposit.id, lessee)
        #expect(payment.status == .successful && payment.payeeAccountID == lessor.id)
        let paidDeposit = try await mara.bill(deposit.id, lessee)
        #expect(paidDeposit.status == .paid && paidDeposit.paymentID == payment.id)
        // 3 % and 5 % of 16,000,000.
        #expect(paidDeposit.split?.providerFee?.amountMinor == 480_000)
        #expect(paidDeposit.split?.platformFee?.amountMinor == 800_000)
        #expect(paidDeposit.split?.lessorShare?.amountMinor == 14_720_000)
        #expect(try await mara.booking(requested.id, lessee).status == .active)

        let start = try #require(CivilDate(requested.startDate))
        let month = SoukV1.BillingPeriod(year: Int32(start.year), month: Int32(start.month))
        let monthly = try await mara.monthlyBill(confirmed, month: month, electricity: 612_345, water: 98_765, lessor)
        #expect(monthly.total?.amountMinor == 8_711_110)
        #expect(monthly.dueDate == SoukV1.Date(year: month.year, month: month.month, day: 5))
        let again = await mara.error("CreateMonthlyBill", SoukV1.CreateMonthlyBillRequest(
            marketplaceID: mara.marketplace.id, requestID: "another", bookingID: requested.id, period: month), lessor, as: SoukV1.Bill.self)
        #expect(again?.code == .alreadyExists && again?.reasonName == "DUPLICATE")

        // The lease cannot end with a bill due.
        let early = await mara.error("EndLease", SoukV1.EndLeaseRequest(marketplaceID: mara.marketplace.id, bookingID: requested.id), lessor)
        #expect(early?.code == .failedPrecondition && early?.reasonName == "OPEN_OBLIGATIONS")

        _ = try await mara.pay(monthly.id, lessee)
        let paidMonthly = try await mara.bill(monthly.id, lessor)
        let split = try #require(paidMonthly.split)
        // 3 % of 8,711,110 is 261,333.3 → 261,333; 5 % is 435,555.5 → 435,556 (half away from zero).
        #expect(split.providerFee?.amountMinor == 261_333 && split.platformFee?.amountMinor == 435_556)
        let monthlyShare: Int64 = 8_711_110 - 261_333 - 435_556
        #expect(split.lessorShare?.amountMinor == monthlyShare)

        let income: SoukV1.LessorIncome = try await mara.call("GetLessorIncome", SoukV1.GetLessorIncomeRequest(marketplaceID: mara.marketplace.id), lessor)
        #expect(income.total?.paidBills == 2)
        #expect(income.total?.gross?.amountMinor == 24_711_110)
        #expect(income.total?.lessorShare?.amountMinor == 14_720_000 + monthlyShare)
        #expect(income.months.count == 12 && income.activeLeases == 1)

        // The lessee's paid bills, one a page, latest due first; another lessee sees none of them.
        var paid = [String]()
        var token = ""
        repeat {
            let page: SoukV1.ListBillsResponse = try await mara.call(
                "ListBills", SoukV1.ListBillsRequest(marketplaceID: mara.marketplace.id, pageSize: 1, pageToken: token, statuses: [.paid]), lessee)
            paid += page.bills.map(\.id)
            token = page.nextPageToken
        } while !token.isEmpty
        #expect(paid == [monthly.id, deposit.id])
        let stranger = try await mara.person("tuan")
        let hidden = await mara.error("GetBill", SoukV1.GetBillRequest(marketplaceID: mara.marketplace.id, billID: monthly.id), stranger, as: SoukV1.Bill.self)
        #expect(hidden?.code == .permissionDenied)

        let ended: SoukV1.Booking = try await mara.call("EndLease", SoukV1.EndLeaseRequest(marketplaceID: mara.marketplace.id, bookingID: requested.id), lessor)
        #expect(ended.status == .ended)
        let returnRequest = { (amount: Int64, reason: String) in
            SoukV1.ReturnDepositRequest(
                marketplaceID: mara.marketplace.id, bookingID: requested.id, amount: SoukV1.Money(amountMinor: amount, currencyCode: "VND"), reason: reason)
        }
        let tooMuch = await mara.error("ReturnDeposit", returnRequest(16_000_001, ""), lessor)
        #expect(tooMuch?.code == .invalidArgument && tooMuch?.fieldViolations.first?.field == "amount")
        let noReason = await mara.error("ReturnDeposit", returnRequest(15_000_000, ""), lessor)
        #expect(noReason?.code == .invalidArgument && noReason?.fieldViolations.first?.field == "reason")
        let returned: SoukV1.Booking = try await mara.call("ReturnDeposit", returnRequest(15_000_000, "a broken window"), lessor)
        #expect(returned.depositReturn?.amount?.amountMinor == 15_000_000 && returned.depositReturn?.reason == "a broken window")
        let refund: SoukV1.Payment = try await mara.harness.call(
            "souk.v1.Payments", "GetPayment", SoukV1.GetPaymentRequest(marketplaceID: mara.marketplace.id, paymentID: returned.depositReturn?.paymentID ?? ""),
            token: lessee.token)
        #expect(refund.payeeAccountID == lessee.id && refund.amount?.amountMinor == 15_000_000 && refund.status == .successful)
        let twice = await mara.error("ReturnDeposit", returnRequest(1, "x"), lessor)
        #expect(twice?.code == .failedPrecondition && twice?.reasonName == "DUPLICATE")
    }

    @Test func requestsAreCheckedAndIdempotent() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let listing = try await mara.listing(lessor)

        let short = await mara.error("RequestBooking", mara.requestBooking(listing, months: 5), lessee)
        #expect(short?.code == .invalidArgument && short?.reasonName == "LEASE_TOO_SHORT")
        #expect(short?.message.contains("months") == true && short?.fieldViolations.first?.field == "months")
        let own = await mara.error("RequestBooking", mara.requestBooking(listing), lessor)
        #expect(own?.code == .failedPrecondition && own?.reasonName == "SELF_ACTION")

        let first = try await mara.request(listing, lessee, requestID: "same")
        let retry = try await mara.request(listing, lessee, requestID: "same")
        #expect(retry.id == first.id)
        let second = await mara.error("RequestBooking", mara.requestBooking(listing), lessee)
        #expect(second?.code == .failedPrecondition && second?.reasonName == "DUPLICATE")

        let noReason = await mara.error("DeclineBooking", SoukV1.DeclineBookingRequest(marketplaceID: mara.marketplace.id, bookingID: first.id), lessor)
        #expect(noReason?.code == .invalidArgument && noReason?.fieldViolations.first?.field == "reason")
        let byLessee = await mara.error("ConfirmBooking", SoukV1.ConfirmBookingRequest(marketplaceID: mara.marketplace.id, bookingID: first.id), lessee)
        #expect(byLessee?.code == .permissionDenied)
        let withdrawn: SoukV1.Booking = try await mara.call(
            "CancelBooking", SoukV1.CancelBookingRequest(marketplaceID: mara.marketplace.id, bookingID: first.id, reason: "found another"), lessee)
        #expect(withdrawn.status == .cancelled)
        let late = await mara.error("ConfirmBooking", SoukV1.ConfirmBookingRequest(marketplaceID: mara.marketplace.id, bookingID: first.id), lessor)
        #expect(late?.code == .failedPrecondition && late?.reasonName == "INVALID_TRANSITION")

        let page: SoukV1.ListBookingsResponse = try await mara.call("ListBookings", SoukV1.ListBookingsRequest(marketplaceID: mara.marketplace.id), lessee)
        #expect(page.bookings.map(\.id) == [first.id])
        let incoming: SoukV1.ListBookingsResponse = try await mara.call(
            "ListBookings", SoukV1.ListBookingsRequest(marketplaceID: mara.marketplace.id, party: .lessorAccountID(lessor.id)), lessor)
        #expect(incoming.bookings.map(\.id) == [first.id])
        let others = await mara.error(
            "ListBookings", SoukV1.ListBookingsRequest(marketplaceID: mara.marketplace.id, party: .lessorAccountID(lessor.id)), lessee, as: SoukV1.ListBookingsResponse.self)
        #expect(others?.code == .permissionDenied)
    }

    @Test func aConfirmationDeclinesTheOtherRequestsAndACancellationFreesTheListing() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let listing = try await mara.listing(lessor)
        var requests = [SoukV1.Booking]()
        var lessees = [RentalsFixture.Person]()
        for name in ["an", "binh", "chi"] {
            let lessee = try await mara.person(name)
            lessees.append(lessee)
            requests.append(try await mara.request(listing, lessee))
        }
        let confirmed = try await mara.confirm(requests[1], lessor)
        for index in [0, 2] {
            let other = try await mara.booking(requests[index].id, lessees[index])
            #expect(other.status == .declined && other.reason == BookingDecisions.supersededReason)
        }
        let held = await mara.error("RequestBooking", mara.requestBooking(listing), lessees[0])
        #expect(held?.code == .failedPrecondition && held?.reasonName == "LISTING_LEASED")

        let cancelled: SoukV1.Booking = try await mara.call(
            "CancelBooking", SoukV1.CancelBookingRequest(marketplaceID: mara.marketplace.id, bookingID: confirmed.id), lessees[1])
        #expect(cancelled.status == .cancelled)
        #expect(try await mara.bill(confirmed.depositBillID, lessees[1]).status == .void)
        let again = try await mara.request(listing, lessees[0])
        #expect(again.status == .requested)
    }
}

extension BookingFlowTests {
    @Test func archivingAListingDeclinesItsRequests() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let listing = try await mara.listing(lessor)
        let booking = try await mara.request(listing, lessee)
        let _: SoukV1.Listing = try await mara.call(
            "ArchiveListing", SoukV1.ArchiveListingRequest(marketplaceID: mara.marketplace.id, listingID: listing), lessor)
        let declined = try await mara.booking(booking.id, lessee)
        #expect(declined.status == .declined && declined.reason == BookingDecisions.archivedReason)
    }

    @Test func watchingABookingSeesItsBillsAndEndsWithIt() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let booking = try await mara.request(try await mara.listing(lessor), lessee)
        let confirmed = try await mara.confirm(booking, lessor)
        _ = try await mara.pay(confirmed.depositBillID, lessee)
        // From the start: the request, the deposit bill, the confirmation, the payment, the activation.
        let events = try await mara.watch(booking.id, lessee, resumeAfter: 1, count: 4)
        #expect(events.map(\.sequence) == [2, 3, 4, 5])
        #expect(events.compactMap(\.bill?.id) == [confirmed.depositBillID, confirmed.depositBillID])
        #expect(events.last?.booking?.status == .active)
    }
}

extension BookingFlowTests {
    @Test func aRefundOfABillPaymentComesOffTheLessorsIncome() async throws {
        let mara = try await RentalsFixture.make()
        let lessor = try await mara.person("lan", lessor: true)
        let lessee = try await mara.person("minh")
        let confirmed = try await mara.confirm(try await mara.request(try await mara.listing(lessor, rent: 8_000_000), lessee), lessor)
        let payment = try await mara.pay(confirmed.depositBillID, lessee)
        let refund = SoukV1.RefundPaymentRequest(
            marketplaceID: mara.marketplace.id, requestID: "refund-1", paymentID: payment.id,
            amount: SoukV1.Money(amountMinor: 1_000_000, currencyCode: "VND"), reason: "charged twice for the key")
        let refunded: SoukV1.Payment = try await mara.harness.call("souk.v1.Payments", "RefundPayment", refund, token: mara.adminToken)
        #expect(refunded.refundedAmount?.amountMinor == 1_000_000)
        let income: SoukV1.LessorIncome = try await mara.call("GetLessorIncome", SoukV1.GetLessorIncomeRequest(marketplaceID: mara.marketplace.id), lessor)
        // 16,000,000 paid, less 3 % and 5 % in fees, less the refund.
        #expect(income.total?.gross?.amountMinor == 15_000_000)
        #expect(income.total?.lessorShare?.amountMinor == 13_720_000)
        #expect(income.total?.paidBills == 1)
        #expect(try await mara.bill(confirmed.depositBillID, lessee).status == .paid)
    }
}
