import SoukGRPC
import SoukKit
import SoukStore

/// The messaging domain (conversations between the parties of an order, a job or a lease):
/// mounted with no tables yet, so the Messaging service answers UNIMPLEMENTED until its
/// conversations are stored here.
public final class Messaging: SoukDomain {
    public let store: Store

    public static var tables: [AnyTable] { [] }

    public init(mounting context: DomainContext) throws {
        store = context.store
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] { [] }
}
