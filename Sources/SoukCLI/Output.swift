import ArgumentParser
import Foundation

/// `--json` of the commands that print tables by default.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the server's answer as JSON (proto3 JSON mapping) instead of a table.")
    var json = false
}

func printJSONObject(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    emit(String(decoding: data, as: UTF8.self))
}

/// A table with a header line and columns padded to their widest cell.
func printTable(_ header: [String], _ rows: [[String]]) {
    var widths = header.map(\.count)
    for row in rows {
        for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
            i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
    emit(line(header))
    for row in rows { emit(line(row)) }
    if rows.isEmpty { emit("(none)") }
}

/// One record as `key: value` lines.
func printRecord(_ fields: [(String, Any?)]) {
    let width = fields.map(\.0.count).max() ?? 0
    for (key, value) in fields {
        let text = format(value)
        if text.isEmpty { continue }  // fields at their default are absent from proto3 JSON
        emit(key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
    }
}

/// A record and its messages: `key: value` lines, then the messages as a table (--json: the whole object).
func printThread(_ object: [String: Any], _ output: OutputOptions, header: [(String, Any?)], _ columns: [Column]) throws {
    if output.json {
        try printJSONObject(object)
        return
    }
    printRecord(header)
    emit("")
    printRows(object["messages"] as? [[String: Any]] ?? [], columns)
}

/// Enum value prefixes left out in tables (`ORDER_STATUS_PLACED` shows as `PLACED`), longest first.
let enumPrefixes = [
    "RESTAURANT_APPROVAL_STATE_", "PRODUCT_CATEGORY_", "BOOKING_STATUS_", "PAYMENT_STATUS_", "PAYMENT_METHOD_", "LISTING_STATUS_",
    "ACCOUNT_STATE_", "ORDER_STATUS_", "LISTING_TYPE_", "SERVICE_TYPE_", "ROLE_STATUS_", "JOB_STAGE_", "JOB_STATE_", "VERTICAL_", "ROLE_",
    "NOTIFICATION_CATEGORY_", "NOTIFICATION_KIND_", "DELIVERY_STATUS_", "LAUNDRY_ADD_ON_", "CONTENT_STATE_", "RESOURCE_TYPE_",
    "TICKET_STATUS_", "TICKET_TOPIC_", "POLICY_KIND_",
]

func shortEnum(_ value: Any?) -> String {
    guard let text = value as? String else { return format(value) }
    for prefix in enumPrefixes where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
    return text
}

/// An enum value as typed (`placed`, `PLACED` or `ORDER_STATUS_PLACED`) in its full JSON name.
func enumName(_ text: String, prefix: String) -> String {
    let upper = text.uppercased().replacingOccurrences(of: "-", with: "_")
    return upper.hasPrefix(prefix) ? upper : prefix + upper
}

/// Digits after the decimal point of a currency's minor unit (ISO 4217).
func minorDigits(_ currency: String) -> Int {
    switch currency {
    case "VND", "JPY", "KRW", "CLP", "ISK", "UGX", "XAF", "XOF": 0
    case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": 3
    default: 2
    }
}

/// A cell of a table: money as `12.50 USD`, enums without their prefix, lists joined.
func format(_ value: Any?) -> String {
    switch value {
    case nil: return ""
    case let money as [String: Any] where money["currencyCode"] != nil:
        let currency = money["currencyCode"] as? String ?? ""
        let minor = Int(money["amountMinor"] as? String ?? "") ?? (money["amountMinor"] as? Int ?? 0)
        let digits = minorDigits(currency)
        if digits == 0 { return "\(minor) \(currency)" }
        var divisor = 1
        for _ in 0..<digits { divisor *= 10 }
        let sign = minor < 0 ? "-" : ""
        let fraction = String(abs(minor) % divisor)
        return "\(sign)\(abs(minor) / divisor).\(String(repeating: "0", count: digits - fraction.count))\(fraction) \(currency)"
    case let text as String: return shortEnum(text)
    case let number as NSNumber:
        if isBoolean(number) { return number.boolValue ? "yes" : "no" }
        return number.stringValue
    case let list as [Any]: return list.map { format($0) }.joined(separator: ", ")
    case let date as [String: Any] where date["year"] != nil && date["month"] != nil && Set(date.keys).isSubset(of: ["year", "month", "day"]):
        // google.type.Date-like: 2026-12-01
        let (y, m, d) = (date["year"] as? Int ?? 0, date["month"] as? Int ?? 0, date["day"] as? Int ?? 0)
        return String(format: "%04d-%02d-%02d", y, m, d)
    case let object as [String: Any]:
        if let name = object["name"] ?? object["displayName"] ?? object["givenName"] { return format(name) }
        return object.keys.sorted().map { "\($0)=\(format(object[$0]))" }.joined(separator: " ")
    default: return "\(value!)"
    }
}

/// The value at a dotted path of JSON names (`price.total`).
func value(_ object: [String: Any], _ path: String) -> Any? {
    var current: Any? = object
    for key in path.split(separator: ".") {
        current = (current as? [String: Any])?[String(key)]
    }
    return current
}

/// A table column: its header and the JSON path of its value.
struct Column {
    let header: String
    let path: String
    /// Shown when the field is absent: proto3 JSON leaves out an enum at its zero value, which
    /// for some enums is a real state (a job's first stage).
    let missing: String
    init(_ header: String, _ path: String, missing: String = "") {
        self.header = header
        self.path = path
        self.missing = missing
    }

    func cell(_ object: [String: Any]) -> String {
        let text = format(value(object, path))
        return text.isEmpty ? missing : text
    }
}

func printRows(_ objects: [[String: Any]], _ columns: [Column]) {
    printTable(columns.map(\.header), objects.map { object in columns.map { $0.cell(object) } })
}

/// Whether JSONSerialization read `true`/`false` (a boolean NSNumber) rather than a number.
func isBoolean(_ number: NSNumber) -> Bool {
    let type = String(cString: number.objCType)
    return type == "c" || type == "B"
}

/// The columns of a record nested under `prefix` (a job inside a JobEvent: `job.`).
func nested(_ columns: [Column], under prefix: String) -> [Column] {
    columns.map { Column($0.header, "\(prefix).\($0.path)", missing: $0.missing) }
}

/// A `souk.v1.Money` in JSON from a decimal amount (`7`, `7.5`, `7.50`) in `currency`'s major unit.
func money(_ text: String, currency: String) throws -> [String: Any] {
    let digits = minorDigits(currency)
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0,
        parts.count == 1 || (parts[1].count <= digits && parts[1].allSatisfy(\.isNumber))
    else { throw CLIError("invalid amount \"\(text)\" (use e.g. 7.50, at most \(digits) decimals for \(currency))") }
    var minor = whole
    for _ in 0..<digits { minor *= 10 }
    if parts.count == 2, !parts[1].isEmpty {
        var fraction = Int(parts[1])!
        for _ in parts[1].count..<digits { fraction *= 10 }
        minor += fraction
    }
    return ["amountMinor": String(minor), "currencyCode": currency]
}

/// A `google.type.Date`-like JSON object from `2026-12-01`.
func calendarDate(_ text: String) throws -> [String: Any] {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { throw CLIError("invalid date \"\(text)\" (use YYYY-MM-DD)") }
    return ["year": parts[0], "month": parts[1], "day": parts[2]]
}

/// Now as an RFC 3339 timestamp (the JSON of `google.protobuf.Timestamp`).
func timestampNow() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date())
}
