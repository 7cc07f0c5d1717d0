import SoukKit
import SoukMessages

// The commerce messages stored as `MarketRecord`s.
extension SoukV1.Service: StampedMessage {}
extension SoukV1.Product: StampedMessage {}
extension SoukV1.Cart: StampedMessage {}
extension SoukV1.Order: StampedMessage {}
extension SoukV1.Delivery: StampedMessage {}
