import SoukKit
import SoukMessages
import SoukStore

extension CommerceDemo {
    /// Aqua Hub's services, options and prices from its report, in Arabic and English.
    func loadAquaHub(_ demo: DemoContext) async throws {}
}
