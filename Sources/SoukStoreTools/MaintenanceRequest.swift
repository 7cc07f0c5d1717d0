import SoukStore

/// A maintenance task that needs the open store (backup, verify, build-index, compact), run either by a
/// command that opened the store itself or, through the control socket, by the process that
/// holds the store open.
public enum MaintenanceRequest: Equatable, Sendable {
    case backup(directory: String, keepLast: Int?)
    case verify
    /// Build these indexes (all pending ones when empty).
    case buildIndex(names: [String])
    /// Merge all data into the bottom level (after a bulk import or a restore).
    case compact

    /// Runs the request; returns the text to show and the exit status (0 = success). `online`:
    /// whether a server has the store open and serving (recorded with a backup).
    public func run(on store: Store, online: Bool) async -> (output: String, exitStatus: Int32) {
        do {
            switch self {
            case .backup(let directory, let keepLast):
                let info = try await store.backup(to: directory, keepLast: keepLast, online: online)
                return ("\(info)\n", 0)
            case .verify:
                let report = try await store.verify()
                return ("\(report)\n", report.isConsistent ? 0 : 1)
            case .buildIndex(let requested):
                let names = requested.isEmpty ? store.pendingIndexes : requested
                if names.isEmpty { return ("every index is built\n", 0) }
                var output = ""
                for name in names {
                    let count = try await store.buildIndex(name)
                    output += "built \(name) from \(count) record(s)\n"
                }
                return (output, 0)
            case .compact:
                let before = try store.statistics()
                let start = ContinuousClock.now
                try await store.compact()
                let after = try store.statistics()
                return ("compacted in \(ContinuousClock.now - start): level-0 files \(before.levelZeroFiles) → \(after.levelZeroFiles), "
                    + "live data \(before.liveDataFileBytes) → \(after.liveDataFileBytes) bytes\n", 0)
            }
        } catch {
            return ("error: \(error)\n", 2)
        }
    }

    /// One line: fields separated by tabs (paths and index names never contain tabs or newlines).
    var line: String {
        switch self {
        case .backup(let directory, let keepLast): ["backup", directory, keepLast.map(String.init) ?? ""].joined(separator: "\t")
        case .verify: "verify"
        case .buildIndex(let names): (["build-index"] + names).joined(separator: "\t")
        case .compact: "compact"
        }
    }

    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch fields.first {
        case "backup" where fields.count == 3:
            self = .backup(directory: fields[1], keepLast: fields[2].isEmpty ? nil : Int(fields[2]))
        case "verify" where fields.count == 1:
            self = .verify
        case "build-index":
            self = .buildIndex(names: Array(fields.dropFirst()))
        case "compact" where fields.count == 1:
            self = .compact
        default:
            return nil
        }
    }
}
