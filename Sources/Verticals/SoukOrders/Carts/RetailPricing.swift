import SoukGRPC
import SoukKit
import SoukMessages

/// The retail price rule (Chateau Du Nox): subtotal, tax on the subtotal at the marketplace's
/// rate rounded half away from zero to the minor unit, flat shipping per order, total. Carts
/// show it and checkout charges it, so both compute it here.
package enum RetailPricing {
    /// Most lines a cart holds, and most units of one line when the marketplace sets no cap: with
    /// the price cap (`CatalogLimits.maxPriceMinor`) no total can overflow.
    package static let maxLines = 100
    package static let maxQuantityWithoutCap: Int32 = 10_000

    /// INVALID_ARGUMENT naming `item_id` when a cart of `lines` lines has no room for another.
    package static func checkRoom(forLineAfter lines: Int) throws {
        guard lines < maxLines else {
            throw RPCError.invalidField("item_id", "a cart holds at most \(maxLines) lines", reason: .quantityLimit)
        }
    }

    /// `amount × bps / 10000`, rounded half away from zero (split so that the product cannot
    /// overflow for any amount).
    package static func tax(_ amount: Int64, bps: Int32) -> Int64 {
        let (whole, part) = amount.quotientAndRemainder(dividingBy: 10_000)
        let product = part * Int64(bps)
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 10_000)
        let rounded = remainder.magnitude * 2 >= 10_000 ? quotient + (product < 0 ? -1 : 1) : quotient
        return whole * Int64(bps) + rounded
    }

    /// The breakdown of `subtotal`; an empty cart (`hasLines` false) has no shipping.
    package static func breakdown(subtotal: Int64, hasLines: Bool, marketplace: SoukV1.Marketplace) -> SoukV1.PriceBreakdown {
        var fees: [SoukV1.Fee] = []
        if hasLines, let shipping = marketplace.settings?.commerce?.shippingFee, shipping.amountMinor > 0 {
            fees.append(SoukV1.Fee(kind: .shipping, label: "Shipping", amount: SoukV1.Money(amountMinor: shipping.amountMinor, currencyCode: marketplace.currencyCode)))
        }
        return breakdown(subtotal: subtotal, fees: fees, marketplace: marketplace)
    }

    /// Subtotal, tax on it at the marketplace's rate, `fees`, total.
    package static func breakdown(subtotal: Int64, fees: [SoukV1.Fee], marketplace: SoukV1.Marketplace) -> SoukV1.PriceBreakdown {
        let currency = marketplace.currencyCode
        let bps = marketplace.settings?.commerce?.taxRateBps ?? 0
        let tax = tax(subtotal, bps: bps)
        let feesTotal = fees.reduce(0) { $0 + $1.amount.minor }
        return SoukV1.PriceBreakdown(
            subtotal: SoukV1.Money(amountMinor: subtotal, currencyCode: currency), taxRateBps: bps,
            tax: SoukV1.Money(amountMinor: tax, currencyCode: currency), fees: fees,
            feesTotal: SoukV1.Money(amountMinor: feesTotal, currencyCode: currency),
            total: SoukV1.Money(amountMinor: subtotal + tax + feesTotal, currencyCode: currency))
    }

    /// The cap on one cart line's quantity; 0 in the settings means none.
    package static func maxQuantity(_ marketplace: SoukV1.Marketplace) -> Int32 {
        let cap = marketplace.settings?.commerce?.maxQuantityPerCartLine ?? 0
        return cap > 0 ? min(cap, maxQuantityWithoutCap) : maxQuantityWithoutCap
    }
}
