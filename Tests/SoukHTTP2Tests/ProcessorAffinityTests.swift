import NIOCore
import SoukHTTP2
import Testing

/// The event-loop count follows the CPUs the process may run on.
@Suite("Processor affinity")
struct ProcessorAffinityTests {
    @Test(arguments: [
        ("0", 1), ("0-1", 2), ("0-3,8,10-11", 7), ("5\n", 1), (" 2-2 ", 1), ("0,2,4,6", 4),
    ])
    func cpuListsAreCounted(list: String, count: Int) {
        #expect(ProcessorAffinity.cpuCount(inList: list) == count)
    }

    @Test(arguments: ["", "x", "3-1", "1-", "-2", "0-1-2", "0,,a"])
    func malformedCPUListsAreRefused(list: String) {
        #expect(ProcessorAffinity.cpuCount(inList: list) == nil)
    }

    @Test func theAvailableCountIsWithinTheMachinesCores() {
        let count = ProcessorAffinity.availableCount
        #expect(count >= 1)
        #expect(count <= max(1, System.coreCount))
    }
}
