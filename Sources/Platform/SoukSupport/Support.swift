import SoukGRPC
import SoukKit
import SoukStore

/// The support domain: for now its ticket lifecycle, on the lifecycle page; the Support
/// service answers UNIMPLEMENTED until its tickets are stored here.
public final class Support: SoukDomain {
    public let store: Store

    public static var tables: [AnyTable] { [] }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(TicketLifecycle.machine)] }

    public init(mounting context: DomainContext) throws {
        store = context.store
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] { [] }
}
