import SoukKit
import SoukMessages
import SoukStore

extension CommerceDemo {
    /// Chateau Du Nox's wines from its report.
    func loadChateauDuNox(_ demo: DemoContext) async throws {}
}
