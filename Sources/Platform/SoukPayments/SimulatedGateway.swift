import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The built-in simulated payment gateway (payments.proto, THE SIMULATED GATEWAY): card checks,
/// card tokens, wallet tokens and the documented test outcomes. It is deterministic, so a charge
/// can be decided inside the transaction that stores its result: nothing leaves the process.
public enum SimulatedGateway {
    /// Why the gateway declines a card, by its test number's last four digits.
    static let declines: [String: String] = [
        "0002": "generic decline", "9995": "insufficient funds", "0069": "expired card", "0119": "processing error",
    ]

    /// The documented test tokens: brand, last four; reusable, owned by nobody.
    static let testTokens: [String: (brand: String, last4: String)] = [
        "tok_visa": ("visa", "4242"), "tok_mastercard": ("mastercard", "4444"), "tok_decline": ("visa", "0002"),
        "tok_insufficient_funds": ("visa", "9995"), "tok_expired_card": ("visa", "0069"), "tok_processing_error": ("visa", "0119"),
    ]

    /// How long a card token may be used.
    static let tokenLifetime: Duration = .seconds(3600)

    /// A card checked by the gateway: what Souk may keep of it.
    struct CheckedCard: Sendable, Equatable {
        var brand: String
        var last4: String
        var expiryMonth: Int32
        var expiryYear: Int32
    }

    /// Checks a typed card: 16 digits with a valid Luhn sum, a 3-digit CVV, an expiry month that
    /// has not passed at `now` (UTC). INVALID_ARGUMENT (CARD_INVALID) names the field.
    static func check(_ card: SoukV1.CardInput, now: StoreTime) throws -> CheckedCard {
        let digits = card.number.filter { $0 != " " && $0 != "-" }
        guard digits.count == 16, digits.allSatisfy(\.isASCIIDigit) else {
            throw RPCError.invalidField("card.number", "must have 16 digits", reason: .cardInvalid)
        }
        guard luhnValid(digits) else {
            throw RPCError.invalidField("card.number", "fails the Luhn check", reason: .cardInvalid)
        }
        guard card.cvv.count == 3, card.cvv.allSatisfy(\.isASCIIDigit) else {
            throw RPCError.invalidField("card.cvv", "must have 3 digits", reason: .cardInvalid)
        }
        guard (1...12).contains(card.expiryMonth) else {
            throw RPCError.invalidField("card.expiry_month", "must be 1 to 12", reason: .cardInvalid)
        }
        let today = now.civilDate
        guard card.expiryYear >= 2000, card.expiryYear <= 2100,
              (card.expiryYear, card.expiryMonth) >= (Int32(today.year), Int32(today.month))
        else {
            throw RPCError.invalidField("card.expiry_year", "the card expired (\(card.expiryMonth)/\(card.expiryYear))", reason: .cardInvalid)
        }
        return CheckedCard(brand: brand(digits), last4: String(digits.suffix(4)), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear)
    }

    static func luhnValid(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            var digit = Int(character.asciiValue! - 48)
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    static func brand(_ digits: String) -> String {
        let two = Int(digits.prefix(2)) ?? 0
        let four = Int(digits.prefix(4)) ?? 0
        if digits.hasPrefix("4") { return "visa" }
        if (51...55).contains(two) || (2221...2720).contains(four) { return "mastercard" }
        if two == 34 || two == 37 { return "amex" }
        return "card"
    }

    /// A new card token's text: "tok_" and 32 hex digits.
    static func newToken() -> String {
        "tok_" + SecretToken.randomHex(bytes: 16)
    }

    /// What a wallet token decides: nil when it is charged, else the decline reason. Throws
    /// INVALID_ARGUMENT (PAYMENT_TOKEN_INVALID) for a token of another shape.
    static func walletOutcome(_ token: String, prefix: String, field: String) throws -> String? {
        let rest = token.dropFirst(prefix.count)
        guard token.hasPrefix(prefix), (8...512).contains(rest.count),
              rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw RPCError.invalidField(
                field, "is not a \(prefix)… token (8 to 512 letters, digits, '-' or '_' after the prefix)", reason: .paymentTokenInvalid)
        }
        return rest.hasPrefix("decline") ? "declined by the wallet" : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
