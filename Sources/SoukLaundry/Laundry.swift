import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukStore

/// The laundry domain (Drip 'n Dash): dorms, verified students, the Dasher quiz and profile,
/// and the jobs of `souk.v1.Laundry`.
public final class Laundry: SoukDomain {
    public let store: Store
    let logger: Logger

    public static var tables: [AnyTable] { PeopleTables.all }

    /// With `identity`, sign-up and profile changes check that a laundry profile's dorm exists.
    public init(store: Store, identity: Identity? = nil, logger: Logger = Logger(label: "souk.laundry")) {
        self.store = store
        self.logger = logger
        if let identity { Dorms.register(in: identity) }
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [LaundryService(laundry: self).declaration.rpcService(kit)]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await LaundryDemo(store: store).load(demo)
    }
}
