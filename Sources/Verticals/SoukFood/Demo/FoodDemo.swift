import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The demo restaurants and menus of DineSwift, from its report. Loaded idempotently, one record
/// per transaction: a restaurant is found by its owner, a menu item by its section and name.
struct CommerceDemo {
    let commerce: Commerce

    func load(_ demo: DemoContext) async throws {
        try await loadDineSwift(demo)
    }
}
