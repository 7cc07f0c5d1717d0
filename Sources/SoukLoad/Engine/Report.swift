/// The summary of a run: the table printed at the end, and the JSON and CSV files for scripts.
public struct Report: Sendable {
    public var mode: String
    public var target: String
    /// The method (single RPC) or the scenario's name.
    public var workload: String
    /// Seconds from the start of the timed run to the end of its last call.
    public var elapsed: Double
    public var settings: [(String, JSON)]
    public var table: StatsTable
    public var setup: StatsTable

    public init(mode: String, target: String, workload: String, elapsed: Double, settings: [(String, JSON)], table: StatsTable, setup: StatsTable) {
        self.mode = mode
        self.target = target
        self.workload = workload
        self.elapsed = elapsed
        self.settings = settings
        self.table = table
        self.setup = setup
        self.table.settle()
        self.setup.settle()
    }

    /// The percentiles reported, with their JSON and CSV names.
    public static let percentiles: [(String, Double)] = [("p50", 50), ("p90", 90), ("p99", 99), ("p99_9", 99.9), ("p99_99", 99.99)]

    static func ms(_ nanoseconds: UInt64) -> JSON { number(Double(nanoseconds) / 1e6) }

    static func number(_ value: Double) -> JSON {
        guard value.isFinite else { return .number("0") }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return .number(String(Int64(rounded))) }
        return .number(String(rounded))
    }

    static func latencyJSON(_ h: LatencyHistogram) -> JSON {
        guard h.totalCount > 0 else { return .object([]) }
        var members: [(String, JSON)] = [("min", ms(h.min)), ("mean", number(h.mean / 1e6))]
        for (name, p) in percentiles { members.append((name, ms(h.valueAtPercentile(p)))) }
        members.append(("max", ms(h.max)))
        return .object(members)
    }

    static func entryJSON(_ name: String, _ s: CallStats, elapsed: Double) -> JSON {
        var members: [(String, JSON)] = [
            ("name", .string(name)), ("calls", .number(String(s.calls))), ("ok", .number(String(s.statuses["OK"] ?? 0))),
            ("errors", .number(String(s.errors))), ("rate", number(elapsed > 0 ? Double(s.calls) / elapsed : 0)),
            ("late", .number(String(s.late))), ("dropped", .number(String(s.dropped))), ("retries", .number(String(s.retries))),
            ("refused_retries", .number(String(s.refusedRetries))),
            ("statuses", .object(s.statuses.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })),
            ("reasons", .object(s.reasons.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })),
            ("latency_ms", latencyJSON(s.latency)),
            ("admitted_latency_ms", latencyJSON(s.admittedLatency)),
        ]
        if s.messages > 0 {
            members.append(("messages", .number(String(s.messages))))
            members.append(("message_gap_ms", latencyJSON(s.messageGaps)))
        }
        if !s.examples.isEmpty {
            members.append(("error_examples", .object(s.examples.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return .object(members)
    }

    /// All the run's entries together (every RPC and step).
    public var total: CallStats {
        var total = CallStats()
        for name in table.names where name != "(iteration)" { total.add(table[name]) }
        total.late += table["(iteration)"].late
        total.dropped += table["(iteration)"].dropped
        total.retries = table.names.reduce(0) { $0 + table[$1].retries }
        total.refusedRetries = table.names.reduce(0) { $0 + table[$1].refusedRetries }
        return total
    }

    public func json() -> JSON {
        let total = self.total
        return .object([
            ("tool", .string("souk-load")), ("mode", .string(mode)), ("target", .string(target)), ("workload", .string(workload)),
            ("settings", .object(settings)), ("elapsed_s", Report.number(elapsed)),
            ("calls", .number(String(total.calls))), ("errors", .number(String(total.errors))),
            ("rate", Report.number(elapsed > 0 ? Double(total.calls) / elapsed : 0)),
            ("late", .number(String(total.late))), ("dropped", .number(String(total.dropped))), ("retries", .number(String(total.retries))),
            ("refused_retries", .number(String(total.refusedRetries))),
            ("statuses", .object(total.statuses.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })),
            ("reasons", .object(total.reasons.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })),
            ("rpcs", .array(table.names.map { Report.entryJSON($0, table[$0], elapsed: elapsed) })),
            ("setup", .array(setup.names.map { Report.entryJSON($0, setup[$0], elapsed: 0) })),
        ])
    }

    public static let csvHeader =
        "name,calls,ok,errors,rate,late,dropped,min_ms,mean_ms,p50_ms,p90_ms,p99_ms,p99_9_ms,p99_99_ms,max_ms,messages,gap_p50_ms,gap_p99_ms,errors_by_reason"

    public func csv() -> String {
        var lines = [Report.csvHeader]
        for name in table.names {
            let s = table[name]
            let h = s.latency
            var fields = [csvField(name), "\(s.calls)", "\(s.statuses["OK"] ?? 0)", "\(s.errors)", Report.number(elapsed > 0 ? Double(s.calls) / elapsed : 0).text, "\(s.late)", "\(s.dropped)"]
            let values: [UInt64] = h.totalCount == 0 ? [] : [h.min] + [0] + Report.percentiles.map { h.valueAtPercentile($0.1) } + [h.max]
            if values.isEmpty {
                fields += Array(repeating: "", count: 8)
            } else {
                fields += values.enumerated().map { $0.offset == 1 ? Report.number(h.mean / 1e6).text : Report.ms($0.element).text }
            }
            fields.append("\(s.messages)")
            fields.append(s.messages > 0 ? Report.ms(s.messageGaps.valueAtPercentile(50)).text : "")
            fields.append(s.messages > 0 ? Report.ms(s.messageGaps.valueAtPercentile(99)).text : "")
            fields.append(csvField(s.reasons.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")))
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func csvField(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// The table for people.
    public func text() -> String {
        var out = "\nsouk-load \(mode) · \(workload) · \(target) · \(String(format1(elapsed)))s\n"
        let header = ["rpc", "calls", "errors", "rate/s", "p50", "p90", "p99", "p99.9", "p99.99", "max"]
        var rows: [[String]] = []
        for name in table.names {
            let s = table[name]
            let h = s.latency
            var row = [name, "\(s.calls)", "\(s.errors)", format1(elapsed > 0 ? Double(s.calls) / elapsed : 0)]
            row += h.totalCount == 0 ? Array(repeating: "-", count: 6) : (Report.percentiles.map { h.valueAtPercentile($0.1) } + [h.max]).map(Report.human)
            rows.append(row)
            if s.messages > 0 {
                let g = s.messageGaps
                rows.append(["  messages (gap)", "\(s.messages)", "", ""] + (Report.percentiles.map { g.valueAtPercentile($0.1) } + [g.max]).map(Report.human))
            }
        }
        let total = self.total
        rows.append(["total", "\(total.calls)", "\(total.errors)", format1(elapsed > 0 ? Double(total.calls) / elapsed : 0)] + Array(repeating: "", count: 6))
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in i == 0 ? cell.padding(widths[i]) : cell.leftPadding(widths[i]) }.joined(separator: "  ")
        }
        out += line(header) + "\n"
        for row in rows { out += line(row) + "\n" }
        if total.late > 0 || total.dropped > 0 { out += "late: \(total.late)  dropped: \(total.dropped)\n" }
        let retried = table.names.filter { table[$0].retries > 0 }.map { "\($0) \(table[$0].retries)" }
        if !retried.isEmpty { out += "retried (not errors unless the last try failed): " + retried.joined(separator: ", ") + "\n" }
        let refused = table.names.filter { table[$0].refusedRetries > 0 }.map { "\($0) \(table[$0].refusedRetries)" }
        if !refused.isEmpty {
            out += "sent again after a refusal unexecuted (not errors unless the last try failed): " + refused.joined(separator: ", ") + "\n"
        }
        var reasons: [String: UInt64] = [:]
        var examples: [String: String] = [:]
        for name in table.names {
            for (key, count) in table[name].reasons { reasons["\(name) \(key)", default: 0] += count }
            for (key, text) in table[name].examples { examples["\(name) \(key)"] = text }
        }
        if !reasons.isEmpty {
            out += "errors by status/reason:\n"
            for (key, count) in reasons.sorted(by: { $0.key < $1.key }) { out += "  \(key): \(count)  (\(examples[key] ?? ""))\n" }
        }
        let setupErrors = setup.names.reduce(UInt64(0)) { $0 + setup[$1].errors }
        if !setup.names.isEmpty {
            out += "setup: \(setup.names.reduce(UInt64(0)) { $0 + setup[$1].calls }) calls, \(setupErrors) errors\n"
            for name in setup.names {
                for (key, text) in setup[name].examples { out += "  setup \(name) \(key): \(text)\n" }
            }
        }
        return out
    }

    /// A latency for people: µs under a millisecond, ms under 10 s.
    static func human(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        if value < 1e6 { return "\(Int((value / 1e3).rounded()))µs" }
        if value < 1e10 { return format2(value / 1e6) + "ms" }
        return format2(value / 1e9) + "s"
    }
}

func format1(_ value: Double) -> String {
    let scaled = (value * 10).rounded() / 10
    return scaled == scaled.rounded() ? String(Int64(scaled)) : String(scaled)
}

func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return String(scaled)
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
