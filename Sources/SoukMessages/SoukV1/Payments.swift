import CProtobufC
import SoukProtoC

// souk/v1/payments.proto (the payment method enum; payments themselves come with their service).
extension SoukV1 {
    /// How a customer pays.
    public enum PaymentMethod: ProtoEnum, CaseIterable {
        case unspecified
        /// Debit or credit card, validated and charged by the gateway.
        case card
        case applePay
        case googlePay
        /// Cash on delivery, marked collected by a courier or provider.
        case cash
        case unrecognized(Int32)

        public static let allCases: [PaymentMethod] = [.unspecified, .card, .applePay, .googlePay, .cash]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .card
            case 2: self = .applePay
            case 3: self = .googlePay
            case 4: self = .cash
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .card: 1
            case .applePay: 2
            case .googlePay: 3
            case .cash: 4
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `PAYMENT_METHOD_CARD`.
        public var protoName: String {
            switch self {
            case .unspecified: "PAYMENT_METHOD_UNSPECIFIED"
            case .card: "PAYMENT_METHOD_CARD"
            case .applePay: "PAYMENT_METHOD_APPLE_PAY"
            case .googlePay: "PAYMENT_METHOD_GOOGLE_PAY"
            case .cash: "PAYMENT_METHOD_CASH"
            case .unrecognized(let value): "PAYMENT_METHOD_\(value)"
            }
        }
    }
}

