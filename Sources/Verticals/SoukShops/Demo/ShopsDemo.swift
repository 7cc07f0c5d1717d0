import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The demo catalogs of Aqua Hub and Chateau Du Nox, from their reports. Loaded idempotently: a
/// catalog that already has records is left as it is.
struct CommerceDemo {
    let commerce: Commerce

    func load(_ demo: DemoContext) async throws {
        try await loadAquaHub(demo)
        try await loadChateauDuNox(demo)
    }
}
