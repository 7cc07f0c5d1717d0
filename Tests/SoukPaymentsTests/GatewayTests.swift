import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing

@testable import SoukPayments

@Suite struct GatewayTests {
    let now = StoreTime(microsecondsSinceEpoch: 1_795_000_000_000_000)  // 2026-11-18

    @Test func luhnAcceptsTheDocumentedTestNumbersAndRefusesAChangedDigit() {
        for number in ["4242424242424242", "5555555555554444", "4000000000000002", "4000000000009995", "4000000000000069", "4000000000000119"] {
            #expect(SimulatedGateway.luhnValid(number), "\(number)")
        }
        #expect(!SimulatedGateway.luhnValid("4242424242424241"))
    }

    @Test func aCardIsCheckedFieldByField() throws {
        var card = SoukV1.CardInput(number: "4242 4242 4242 4242", cvv: "123", expiryMonth: 12, expiryYear: 2030)
        let checked = try SimulatedGateway.check(card, now: now)
        #expect(checked == .init(brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2030))
        card.cvv = "12"
        #expect(throws: RPCError.self) { try SimulatedGateway.check(card, now: now) }
        card.cvv = "123"
        card.expiryYear = 2026
        card.expiryMonth = 10
        #expect(throws: RPCError.self) { try SimulatedGateway.check(card, now: now) }
        card.expiryMonth = 11  // the current month has not passed
        #expect(try SimulatedGateway.check(card, now: now).last4 == "4242")
    }

    @Test func walletTokensHaveOneShape() throws {
        #expect(try SimulatedGateway.walletOutcome("applepay_abcdefgh12", prefix: "applepay_", field: "f") == nil)
        #expect(try SimulatedGateway.walletOutcome("applepay_decline_1234", prefix: "applepay_", field: "f") != nil)
        #expect(throws: RPCError.self) { try SimulatedGateway.walletOutcome("applepay_short", prefix: "applepay_", field: "f") }
        #expect(throws: RPCError.self) { try SimulatedGateway.walletOutcome("googlepay_abcdefgh12", prefix: "applepay_", field: "f") }
    }

    @Test func civilDatesRoundTrip() {
        for days in [-1, 0, 1, 59, 365, 20_000, 20_775] {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(now.civilDate == CivilDate(year: 2026, month: 11, day: 18))
        let riyadh = MarketplaceClock(timeZone: "Asia/Riyadh")
        let eight = riyadh.instant(CivilDate(year: 2026, month: 11, day: 24), minute: 8 * 60)
        #expect(eight.civilDate == CivilDate(year: 2026, month: 11, day: 24))
        #expect(eight.microsecondsSinceEpoch % 86_400_000_000 == 5 * 3_600_000_000)  // 05:00 UTC
    }
}
