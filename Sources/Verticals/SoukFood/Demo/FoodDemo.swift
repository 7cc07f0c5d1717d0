import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The demo restaurants and menus of DineSwift, from its report. Loaded idempotently: a catalog
/// that already has records is left as it is.
struct CommerceDemo {
    let commerce: Commerce

    func load(_ demo: DemoContext) async throws {
        try await loadDineSwift(demo)
    }
}
