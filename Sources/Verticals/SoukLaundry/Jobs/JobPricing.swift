import SoukGRPC
import SoukKit
import SoukMessages

/// The price of a job (DOMAIN.md): machine cost + the flat service fee + add-ons, in integer
/// minor units. The estimate's machine cost is loads × the marketplace's machine cost per load;
/// the final price's is the total the Dasher paid. Estimates, submissions and stage 7 all price
/// here.
enum JobPricing {
    /// Most loads one job may name, so that no price can overflow.
    static let maxLoads: Int32 = 100

    /// The estimate of `loads` with `addOns` under the marketplace's laundry settings.
    static func estimate(loads: Int32, addOns: [SoukV1.LaundryAddOn], marketplace: SoukV1.Marketplace) throws -> SoukV1.PriceBreakdown {
        var checks = FieldChecks()
        try checks.check { try checkLoads(loads, field: "loads_estimate") }
        try checks.check { try checkAddOns(addOns) }
        try checks.finish()
        let perLoad = marketplace.settings?.laundry?.machineCostPerLoad?.amountMinor ?? 0
        return try breakdown(machineCost: Int64(loads) * perLoad, addOns: addOns, marketplace: marketplace)
    }

    /// The final price: `machineCostTotal` paid by the Dasher, with the job's fee and add-ons.
    static func final(machineCostTotal: Int64, addOns: [SoukV1.LaundryAddOn], marketplace: SoukV1.Marketplace) throws -> SoukV1.PriceBreakdown {
        try breakdown(machineCost: machineCostTotal, addOns: addOns, marketplace: marketplace)
    }

    /// A final price more than twice the estimate needs the customer's confirmation.
    static func needsConfirmation(final: SoukV1.PriceBreakdown, estimate: SoukV1.PriceBreakdown?) -> Bool {
        (final.total?.amountMinor ?? 0) > 2 * (estimate?.total?.amountMinor ?? 0)
    }

    static func checkLoads(_ loads: Int32, field: String) throws {
        guard (1...maxLoads).contains(loads) else { throw RPCError.invalidField(field, "must be between 1 and \(maxLoads)") }
    }

    /// Each add-on once, in the order given; UNSPECIFIED or a repeat is refused.
    static func checkAddOns(_ addOns: [SoukV1.LaundryAddOn]) throws {
        for (index, addOn) in addOns.enumerated() {
            guard addOn == .folding || addOn == .ironing else {
                throw RPCError.invalidField("add_ons[\(index)]", "must be LAUNDRY_ADD_ON_FOLDING or LAUNDRY_ADD_ON_IRONING")
            }
            guard !addOns[..<index].contains(addOn) else { throw RPCError.invalidField("add_ons[\(index)]", "\(addOn.protoName) is named twice") }
        }
    }

    private static func breakdown(machineCost: Int64, addOns: [SoukV1.LaundryAddOn], marketplace: SoukV1.Marketplace) throws -> SoukV1.PriceBreakdown {
        try checkAddOns(addOns)
        let settings = marketplace.settings?.laundry
        let currency = marketplace.currencyCode
        func money(_ minor: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: minor, currencyCode: currency) }
        var fees = [SoukV1.Fee(kind: .service, label: "Service fee", amount: money(settings?.serviceFee?.amountMinor ?? 0))]
        for addOn in addOns {
            let (label, price) = addOn == .folding ? ("Folding", settings?.foldingPrice) : ("Ironing", settings?.ironingPrice)
            fees.append(SoukV1.Fee(kind: .addOn, label: label, amount: money(price?.amountMinor ?? 0)))
        }
        let feesTotal = fees.reduce(0) { $0 + ($1.amount?.amountMinor ?? 0) }
        return SoukV1.PriceBreakdown(
            subtotal: money(machineCost), taxRateBps: 0, tax: money(0), fees: fees, feesTotal: money(feesTotal),
            total: money(machineCost + feesTotal))
    }
}
