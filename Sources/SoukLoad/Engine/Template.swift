/// A small fast random generator (SplitMix64): seeded per virtual user so a run's choices can be
/// repeated, and without the system generator's lock.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What templates of one virtual user can read (see `Template`).
public struct TemplateContext: Sendable {
    /// The virtual user's number, from 0.
    public var vu: Int
    /// The iteration of the scenario this user is in, from 0 (setup steps see 0).
    public var iteration: Int
    /// An id of this run (hex), to make e-mails and names unique across runs.
    public var run: String
    /// Values captured by `capture` maps: this user's, over those of the shared setup.
    public var vars: [String: JSON] = [:]
    /// The last answer of each named step (this user's, over the shared setup's).
    public var steps: [String: JSON] = [:]
    /// The rows picked from the scenario's data sets (`account` among them).
    public var data: [String: JSON] = [:]
    public var random: SplitMix64
    /// Today's date (UTC) as year, month, day, for `{{date N}}` and `{{monthStart N}}`.
    public var today: (year: Int, month: Int, day: Int)

    public init(vu: Int, iteration: Int = 0, run: String, seed: UInt64, today: (year: Int, month: Int, day: Int)) {
        self.vu = vu
        self.iteration = iteration
        self.run = run
        self.random = SplitMix64(seed: seed)
        self.today = today
    }

    /// A fresh UUID (version 4) from the user's generator.
    mutating func uuid() -> String {
        let a = random.next()
        let b = random.next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}

/// Request templates: JSON whose strings may hold `{{expression}}`s.
///
/// A string that is exactly one expression takes the expression's JSON value (a number, an
/// object, ...); otherwise each expression is replaced by its text. Expressions:
/// - `vu`, `iteration`, `run`, `uuid`
/// - `random MIN MAX` (an integer), `pick PATH` (a random element of the array at PATH),
///   `regex PATTERN PATH` (the first match in the text at PATH: its first group, or all of it)
/// - `date DAYS` (`{"year","month","day"}` of today + DAYS, UTC), `monthStart MONTHS` (the first day
///   of the month MONTHS from now)
/// - a path: `steps.NAME.field[0].other`, `vars.NAME`, `data.SET.field`, `account.field` (the
///   user's row of the `account` data set). Path segments: `.field`, `[3]`, `[-1]` (from the end),
///   `[field=value]` (the first element whose field has that text), `[field]` (the first whose
///   field is set and not empty), `[!field]` (the first without it).
public enum Template {
    /// Renders a template against the context.
    public static func render(_ template: JSON, _ context: inout TemplateContext) throws(LoadError) -> JSON {
        switch template {
        case .string(let text):
            return try renderString(text, &context)
        case .array(let items):
            var out: [JSON] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try render(item, &context)) }
            return .array(out)
        case .object(let members):
            var out: [(String, JSON)] = []
            out.reserveCapacity(members.count)
            for (key, value) in members { out.append((key, try render(value, &context))) }
            return .object(out)
        default:
            return template
        }
    }

    /// True when the template holds no expression (it can be encoded once).
    public static func isConstant(_ template: JSON) -> Bool {
        switch template {
        case .string(let text): !text.contains("{{")
        case .array(let items): items.allSatisfy(isConstant)
        case .object(let members): members.allSatisfy { isConstant($0.1) }
        default: true
        }
    }

    static func renderString(_ text: String, _ context: inout TemplateContext) throws(LoadError) -> JSON {
        guard text.contains("{{") else { return .string(text) }
        var out = ""
        var rest = Substring(text)
        var single: JSON?
        var pieces = 0
        while let open = rest.firstRange(of: "{{") {
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { throw LoadError("unclosed {{ in \"\(text)\"") }
            let before = rest[..<open.lowerBound]
            let expression = String(rest[open.upperBound..<close.lowerBound])
            let value = try evaluate(expression, &context)
            if !before.isEmpty { pieces += 1 }
            pieces += 1
            single = value
            out += before
            out += value.text
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces += 1 }
        out += rest
        if pieces == 1, let single { return single }
        return .string(out)
    }

    /// The value of one expression.
    public static func evaluate(_ expression: String, _ context: inout TemplateContext) throws(LoadError) -> JSON {
        let words = expression.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let head = words.first else { throw LoadError("empty {{}}") }
        switch head {
        case "vu": return .number(String(context.vu))
        case "iteration": return .number(String(context.iteration))
        case "run": return .string(context.run)
        case "uuid": return .string(context.uuid())
        case "random":
            guard words.count == 3, let low = Int(words[1]), let high = Int(words[2]), low <= high else {
                throw LoadError("use {{random MIN MAX}} (integers), not {{\(expression)}}")
            }
            return .number(String(Int.random(in: low...high, using: &context.random)))
        case "pick":
            guard words.count == 2 else { throw LoadError("use {{pick PATH}}") }
            guard case .array(let items) = try resolve(words[1], context), !items.isEmpty else {
                throw LoadError("{{\(expression)}}: not a non-empty array")
            }
            return items[Int.random(in: 0..<items.count, using: &context.random)]
        case "regex":
            // The first match of PATTERN in the text at PATH: its first group, or the whole match.
            guard words.count == 3 else { throw LoadError("use {{regex PATTERN PATH}}") }
            let text = try resolve(words[2], context).text
            guard let regex = try? Regex(words[1]) else { throw LoadError("{{\(expression)}}: invalid pattern") }
            guard let match = text.firstMatch(of: regex) else { throw LoadError("{{\(expression)}}: no match") }
            if match.output.count > 1, let group = match.output[1].substring { return .string(String(group)) }
            return .string(String(match.output[0].substring ?? ""))
        case "date":
            guard words.count == 2, let offset = Int(words[1]) else { throw LoadError("use {{date DAYS}}") }
            let (y, m, d) = civil(fromDays: days(fromCivil: context.today) + offset)
            return dateJSON(y, m, d)
        case "monthStart":
            guard words.count == 2, let months = Int(words[1]) else { throw LoadError("use {{monthStart MONTHS}}") }
            let index = context.today.year * 12 + (context.today.month - 1) + months
            return dateJSON(index / 12, index % 12 + 1, 1)
        default:
            guard words.count == 1 else { throw LoadError("unknown template function \"\(head)\"") }
            return try resolve(head, context)
        }
    }

    static func dateJSON(_ y: Int, _ m: Int, _ d: Int) -> JSON {
        .object([("year", .number(String(y))), ("month", .number(String(m))), ("day", .number(String(d)))])
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(fromCivil date: (year: Int, month: Int, day: Int)) -> Int {
        let y = date.month <= 2 ? date.year - 1 : date.year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (date.month + 9) % 12
        let doy = (153 * mp + 2) / 5 + date.day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The civil date of a day count since 1970-01-01.
    public static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The value at a path rooted in `steps`, `vars`, `data` or `account`.
    public static func resolve(_ path: String, _ context: TemplateContext) throws(LoadError) -> JSON {
        var segments = try JSONPath.parse(path)
        guard case .field(let root) = segments.first else { throw LoadError("\(path): a path starts with steps, vars, data or account") }
        segments.removeFirst()
        let base: JSON
        switch root {
        case "steps", "vars", "data":
            guard case .field(let name) = segments.first else { throw LoadError("\(path): name a \(root) entry after \(root).") }
            segments.removeFirst()
            let table = root == "steps" ? context.steps : root == "vars" ? context.vars : context.data
            guard let value = table[name] else { throw LoadError("\(path): no \(root) entry \"\(name)\" yet") }
            base = value
        case "account":
            guard let value = context.data["account"] else { throw LoadError("\(path): the scenario has no account data set") }
            base = value
        default:
            throw LoadError("\(path): unknown name \"\(root)\" (use steps., vars., data., account. or a function)")
        }
        guard let value = JSONPath.value(of: segments, in: base) else { throw LoadError("\(path): no value there") }
        return value
    }
}

/// Paths into JSON answers, as captures and templates write them: `orders[0].id`,
/// `restaurants[name=Pizza Roma].id`, `menuItems[!optionGroups].id`, `windows[available].window`.
public enum JSONPath {
    public enum Segment: Sendable, Equatable {
        case field(String)
        case index(Int)
        /// The first element whose field (itself a dotted path) has this text.
        case match(field: String, value: String)
        /// The first element whose field is set and not empty (`[field]`) or unset or empty (`[!field]`).
        case has(field: String, present: Bool)
    }

    public static func parse(_ path: String) throws(LoadError) -> [Segment] {
        var segments: [Segment] = []
        var current = ""
        var chars = Array(path)
        var i = 0
        if chars.first == "$" { chars.removeFirst(); if chars.first == "." { chars.removeFirst() } }
        while i < chars.count {
            let c = chars[i]
            if c == "." {
                if !current.isEmpty { segments.append(.field(current)); current = "" }
                i += 1
            } else if c == "[" {
                if !current.isEmpty { segments.append(.field(current)); current = "" }
                guard let close = chars[i...].firstIndex(of: "]") else { throw LoadError("\(path): unclosed [") }
                let inner = String(chars[(i + 1)..<close])
                if let index = Int(inner) {
                    segments.append(.index(index))
                } else if let eq = inner.firstIndex(of: "=") {
                    segments.append(.match(field: String(inner[..<eq]), value: String(inner[inner.index(after: eq)...])))
                } else if inner.hasPrefix("!") {
                    segments.append(.has(field: String(inner.dropFirst()), present: false))
                } else if !inner.isEmpty {
                    segments.append(.has(field: inner, present: true))
                } else {
                    throw LoadError("\(path): empty []")
                }
                i = close + 1
            } else {
                current.append(c)
                i += 1
            }
        }
        if !current.isEmpty { segments.append(.field(current)) }
        return segments
    }

    public static func value(of segments: [Segment], in root: JSON) -> JSON? {
        var value = root
        for segment in segments {
            switch segment {
            case .field(let name):
                // proto3 JSON leaves out empty fields: a missing repeated field reads as [].
                guard case .object = value else { return nil }
                value = value[name] ?? .null
            case .index(let index):
                guard case .array(let items) = value else { return nil }
                let i = index < 0 ? items.count + index : index
                guard items.indices.contains(i) else { return nil }
                value = items[i]
            case .match(let field, let wanted):
                guard case .array(let items) = value, let fieldPath = try? parse(field) else { return nil }
                guard let found = items.first(where: { (self.value(of: fieldPath, in: $0)?.text ?? "") == wanted }) else { return nil }
                value = found
            case .has(let field, let present):
                guard case .array(let items) = value, let fieldPath = try? parse(field) else { return nil }
                guard let found = items.first(where: { (self.value(of: fieldPath, in: $0).map { !$0.isEmpty } ?? false) == present }) else { return nil }
                value = found
            }
        }
        if case .null = value { return nil }
        return value
    }

    /// The value at a path in text form (`capture` maps).
    public static func value(at path: String, in root: JSON) throws(LoadError) -> JSON? {
        value(of: try parse(path), in: root)
    }
}
