import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukStore

/// The rentals domain (MARA): regions with their districts (`Regions/`), listings and their
/// states (`Listings/`), text, nearby and recommended search (`Search/`), nearby places
/// (`Places/`), favorites (`Favorites/`), and bookings and bills with their lifecycles
/// (`RentalLifecycles`).
///
/// Not served yet: bookings, bills and lessor income (`RentalsService` answers those RPCs
/// UNIMPLEMENTED).
public final class Rentals: SoukDomain {
    public let store: Store
    let identity: Identity?
    /// Where rental bills become payable with Payments.CreatePayment (bookings and bills
    /// register their target here).
    let payables: PayableTargets?
    let logger: Logger

    public static var tables: [AnyTable] {
        [ListingTable.table.erased, RegionTable.table.erased, PlaceTable.table.erased, FavoriteTable.table.erased]
    }

    public init(store: Store, identity: Identity? = nil, payables: PayableTargets? = nil, logger: Logger = Logger(label: "souk.rentals")) {
        self.store = store
        self.identity = identity
        self.payables = payables
        self.logger = logger
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [RentalsService(rentals: self).declaration.rpcService(kit)]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await RentalsDemo(store: store).load(demo)
    }
}
