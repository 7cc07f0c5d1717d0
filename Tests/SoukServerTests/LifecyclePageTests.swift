import Foundation
import SoukKit
import Testing

@testable import SoukServer

/// The committed lifecycle page is what the mounted domains' declarations render to.
@Suite struct LifecyclePageTests {
    static let pagePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SoukKit/StateMachine/MACHINES.md").path

    @Test func theCommittedPageIsUpToDate() throws {
        let committed = try String(contentsOfFile: Self.pagePath, encoding: .utf8)
        #expect(committed == Domains.lifecyclePage.markdown, "MACHINES.md is stale: run scripts/generate")
    }

    @Test func aMachineRendersAsAStateDiagram() {
        let markdown = Domains.lifecyclePage.markdown
        for line in [
            "## Laundry job",
            "```mermaid\nstateDiagram-v2\n    [*] --> JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT",
            "    JOB_STAGE_PICKED_UP_LAUNDRY --> JOB_STAGE_LAUNDRY_IN_WASHER: advance (courier) [only the assigned Dasher]",
            "    ORDER_STATUS_PENDING --> ORDER_STATUS_APPROVED: approve (admin, system)",
            "    JOB_STATE_CANCELLED --> [*]",
            "| `cancel` | ORDER_STATUS_PENDING, ORDER_STATUS_APPROVED | ORDER_STATUS_CANCELLED | customer, admin |  | refund the payment, or void the cash | ERROR_REASON_CANCEL_NOT_ALLOWED |",
            "| offer lapse | `offer_expire_time` | the server fires `expire` |",
            "| offer lapse | `offer_expire_time` | a change that is not a transition |",
        ] {
            #expect(markdown.contains(line), "missing: \(line)")
        }
    }
}
