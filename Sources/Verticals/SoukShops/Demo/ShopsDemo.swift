import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The demo catalogs of Aqua Hub and Chateau Du Nox, from their reports. Loaded idempotently, one
/// record per transaction: a service or wine is added only when the catalog has none of its name.
struct CommerceDemo {
    let commerce: Commerce

    func load(_ demo: DemoContext) async throws {
        try await loadAquaHub(demo)
        try await loadChateauDuNox(demo)
    }
}
