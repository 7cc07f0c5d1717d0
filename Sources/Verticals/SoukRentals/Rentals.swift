import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukPayments
import SoukReports
import SoukStore

/// The rentals domain (MARA): regions with their districts (`Regions/`), listings and their
/// states (`Listings/`), text, nearby and recommended search (`Search/`), nearby places
/// (`Places/`), favorites (`Favorites/`), bookings and leases (`Leases/`), deposit and monthly
/// bills paid through `Payments.CreatePayment` (`Bills/`), and the lessors' monthly income
/// (`Income/`), with the lifecycles of `RentalLifecycles`.
public final class Rentals: SoukDomain {
    public let store: Store
    let identity: Identity?
    /// Where bills are made payable and deposits paid back.
    let payables: PayableTargets
    let logger: Logger

    public static var tables: [AnyTable] {
        [ListingTable.table.erased, RegionTable.table.erased, PlaceTable.table.erased, FavoriteTable.table.erased,
         BookingTable.table.erased, BillTable.table.erased, LessorIncomeTable.table.erased] + BookingReviews.tables
    }

    /// Registers rental bills with `payables` (the server's one, which the payments platform pays
    /// through) and bookings with `ratables` (shared with commerce, which serves feedback);
    /// without commerce mounted nothing rates them.
    public init(
        store: Store, identity: Identity? = nil, payables: PayableTargets = PayableTargets(), ratables: RatedSubjects = RatedSubjects(),
        logger: Logger = Logger(label: "souk.rentals")
    ) {
        self.store = store
        self.identity = identity
        self.payables = payables
        self.logger = logger
        payables.register(.bill, BillPayments())
        ratables.register(.booking, BookingReviews())
        if let identity {
            identity.accountParts.register(RentalsAccountPart(), for: [.rentals])
            RentalsSettings.register(in: identity.marketplaces.settingsValidators)
        }
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [RentalsService(rentals: self).declaration.rpcService(kit)]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await RentalsDemo(store: store, logger: logger).load(demo)
    }
}

extension Rentals {
    /// Makes bills payable and bookings ratable through the server's shared registries.
    public convenience init(mounting context: DomainContext) throws {
        self.init(
            store: context.store, identity: try context.require(Identity.self), payables: context.shared { PayableTargets() },
            ratables: context.shared { RatedSubjects() })
        let conversations = context.shared { ConversationSubjects() }
        conversations.register(.booking, BookingConversations())
        conversations.register(.listing, ListingConversations())
        context.shared { ReportSources() }.register(RentalReports.source)
    }

    /// Identity for the lessor role; the payments bills are paid with; the notifications
    /// bookings and bills send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Payments.self, Notifications.self] }

    public static var lifecycles: [DeclaredLifecycle] {
        [DeclaredLifecycle(ListingLifecycle.machine), DeclaredLifecycle(RentalLifecycles.booking), DeclaredLifecycle(RentalLifecycles.bill)]
    }

}
