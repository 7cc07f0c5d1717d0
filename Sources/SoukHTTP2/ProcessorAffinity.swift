#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// How many CPUs this process may run on, for sizing its event-loop group.
///
/// NIO's `System.coreCount` honours cgroup CPU quotas but not the affinity mask, so a server
/// started under `taskset -c 0` on a two-core machine would run two event loops on one core: they
/// take turns in scheduler time slices, which adds latency to the connections of the loop that
/// waits, and each evicts the other's data from the core's caches.
public enum ProcessorAffinity {
    /// The CPUs in this process's affinity mask, within `System.coreCount`; at least 1.
    public static var availableCount: Int {
        let limit = max(1, System.coreCount)
        guard let list = statusField("Cpus_allowed_list:"), let allowed = cpuCount(inList: list) else { return limit }
        return min(limit, allowed)
    }

    /// The number of CPUs in a kernel CPU list such as `0-3,8,10-11` (7); nil when it does not parse.
    public static func cpuCount(inList list: String) -> Int? {
        var count = 0
        for part in list.split(separator: ",") {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int(String($0.filter { !$0.isWhitespace })) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                count += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
                count += high - low + 1
            default:
                return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// The rest of the line of `/proc/self/status` that starts with `name`; nil where there is none
    /// (not Linux, or no such field).
    private static func statusField(_ name: String) -> String? {
        #if os(Linux)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            if text.hasPrefix(name) { return String(text.dropFirst(name.count)) }
        }
        #endif
        return nil
    }
}
