import SoukMessages

/// The marketplace's lease and bill rules (`RentalSettings`), with the defaults the contract
/// states when a marketplace sets none.
struct RentalRules: Sendable {
    var minLeaseMonths: Int32
    /// Longest lease a request may ask for.
    static let maxLeaseMonths: Int32 = 120
    var providerFeeBps: Int32
    var platformFeeBps: Int32
    /// Day of the month monthly bills fall due by default.
    var billDueDay: Int32
    /// Days from confirmation to the deposit's due date by default.
    var depositDueDays: Int32

    init(_ marketplace: SoukV1.Marketplace) {
        let settings = marketplace.settings?.rentals
        minLeaseMonths = settings.map { $0.minLeaseMonths > 0 ? $0.minLeaseMonths : 6 } ?? 6
        providerFeeBps = settings?.paymentProviderFeeBps ?? 0
        platformFeeBps = settings?.platformFeeBps ?? 0
        billDueDay = settings.map { $0.billDueDay > 0 ? $0.billDueDay : 5 } ?? 5
        depositDueDays = settings.map { $0.depositDueDays > 0 ? $0.depositDueDays : 7 } ?? 7
    }

    /// How a payment of `amount` minor units divides.
    func split(_ amount: Int64) -> RentSplit {
        RentSplit(amount: amount, providerBps: providerFeeBps, platformBps: platformFeeBps)
    }
}
