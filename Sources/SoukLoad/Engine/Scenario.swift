import SoukJSON

/// A scenario file: multi-step sessions of one app, each step an RPC whose JSON request is a
/// template over earlier answers (see README, "souk-load").
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    /// The marketplace (slug, display name or id) resolved before the run into `vars.marketplaceId`,
    /// which also fills every empty `marketplace_id` of a request.
    public var marketplace: String?
    /// Metadata sent with every step (templates; an entry that cannot be rendered yet, or renders
    /// empty, is left out: `"authorization": "Bearer {{vars.token}}"` before sign-in).
    public var metadata: [(String, JSON)]
    public var data: [String: DataSet]
    /// Values every template reads as `vars.NAME` (strings), overridden by `--var NAME=VALUE`.
    public var vars: [String: JSON]
    /// Steps run once before any user, their answers and captures shared by all users.
    public var setup: [Step]
    /// Steps each user runs once before its iterations (sign up, sign in), outside the timed run.
    public var userSetup: [Step]
    /// One iteration of the session.
    public var steps: [Step]

    /// Rows the users read as `data.NAME.field` (and `account.field` for the set named `account`).
    public struct DataSet: Sendable {
        public var rows: [JSON]
        /// Random rows instead of round-robin.
        public var random: Bool
        /// A new row every iteration instead of one per user.
        public var perIteration: Bool
    }

    /// One RPC of a scenario.
    public struct Step: Sendable {
        /// The stats name and the key of `steps.NAME`.
        public var name: String
        public var method: SoukJSON.MethodDescriptor
        public var request: JSON
        /// The request encoded once, when the template is constant and needs no request id.
        public var constantRequest: [UInt8]?
        /// Values kept from the answer: `vars.NAME` = the answer at the path.
        public var capture: [(String, String)]
        /// Metadata templates of this step, over the scenario's.
        public var metadata: [(String, JSON)]
        /// Whether the scenario's metadata (its authorization) goes with this step.
        public var inheritMetadata: Bool
        /// The call's deadline (nanoseconds); nil for none.
        public var timeout: UInt64?
        /// Server streams: how many messages to read before ending the call (nil: to the end).
        public var streamMessages: Int?
        /// Server streams: how long to read (the call's deadline, which then ends it normally).
        public var streamFor: UInt64?
        /// Pause after the step (nanoseconds): `think`, or drawn evenly from `think...thinkMax` when
        /// the scenario gives a range (`"think": "500ms..1500ms"`), so that users who started
        /// together do not stay in step, as people do not.
        public var think: UInt64
        public var thinkMax: UInt64
        /// The chance of running the step in an iteration (a mix of steps); 1 runs it always.
        public var probability: Double
        /// Statuses that end the step normally besides OK (e.g. ["NOT_FOUND"] for a probe).
        public var accept: Set<String>
        /// Statuses after which the call is sent again (the same bytes, so the same request id:
        /// a retried create is not doubled), and how many times at most. ABORTED is the usual one.
        public var retryOn: Set<String>
        public var retries: Int
        /// Whether an empty `marketplace_id` and `request_id` are filled in (false for the
        /// platform operator's sign-in, whose marketplace must stay empty).
        public var fill: Bool
        /// True when a later template reads `steps.NAME` or the step captures: the answer is decoded.
        public var keepAnswer: Bool
    }

    /// Reads a scenario from JSON text; `directory` resolves data files.
    public static func load(_ text: String, directory: String, registry: DescriptorRegistry, readFile: (String) throws -> String) throws -> Scenario {
        let root = try JSON.parse(text)
        guard case .object = root else { throw LoadError("a scenario is a JSON object") }
        func string(_ value: JSON?, _ what: String) throws(LoadError) -> String? {
            guard let value else { return nil }
            guard case .string(let s) = value else { throw LoadError("\(what) must be a string") }
            return s
        }
        func metadata(_ value: JSON?, _ what: String) throws(LoadError) -> [(String, JSON)] {
            guard let value else { return [] }
            guard case .object(let members) = value else { throw LoadError("\(what) must be an object of header templates") }
            return members.map { ($0.0.lowercased(), $0.1) }
        }
        var data: [String: DataSet] = [:]
        if let sets = root["data"] {
            guard case .object(let members) = sets else { throw LoadError("data must be an object of data sets") }
            for (name, spec) in members {
                var rows: JSON
                if let file = try string(spec["file"], "data.\(name).file") {
                    let path = file.hasPrefix("/") ? file : directory + "/" + file
                    rows = try JSON.parseDocumentOrLines(try readFile(path))
                } else if let values = spec["values"] {
                    rows = values
                } else {
                    throw LoadError("data.\(name) needs \"file\" or \"values\"")
                }
                guard case .array(let items) = rows, !items.isEmpty else { throw LoadError("data.\(name) must hold a non-empty array") }
                let pick = try string(spec["pick"], "data.\(name).pick") ?? "round-robin"
                guard pick == "round-robin" || pick == "random" else { throw LoadError("data.\(name).pick is round-robin or random") }
                let per = try string(spec["per"], "data.\(name).per") ?? "vu"
                guard per == "vu" || per == "iteration" else { throw LoadError("data.\(name).per is vu or iteration") }
                data[name] = DataSet(rows: items, random: pick == "random", perIteration: per == "iteration")
            }
        }
        let allText = text
        // A scenario's "retry" applies to every step without its own.
        let defaultRetry = root["retry"]
        func steps(_ value: JSON?, _ what: String) throws -> [Step] {
            guard let value else { return [] }
            guard case .array(let items) = value else { throw LoadError("\(what) must be an array of steps") }
            return try items.enumerated().map { (i, item) in try step(item, "\(what)[\(i)]") }
        }
        func step(_ item: JSON, _ what: String) throws -> Step {
            guard case .object = item else { throw LoadError("\(what) must be an object") }
            guard let call = try string(item["call"], "\(what).call") else { throw LoadError("\(what) needs \"call\" (Service/Method)") }
            guard let method = registry.method(named: call) else { throw LoadError("\(what): unknown method \(call)") }
            if method.clientStreaming { throw LoadError("\(what): client and bidirectional streams are not supported in scenarios") }
            let name = try string(item["name"], "\(what).name") ?? String(call.split(separator: "/").last ?? Substring(call))
            let request = item["request"] ?? .object([])
            guard case .object = request else { throw LoadError("\(what).request must be an object") }
            var capture: [(String, String)] = []
            if let c = item["capture"] {
                guard case .object(let members) = c else { throw LoadError("\(what).capture must map names to paths") }
                for (key, path) in members {
                    guard case .string(let p) = path else { throw LoadError("\(what).capture.\(key) must be a path") }
                    _ = try JSONPath.parse(p)
                    capture.append((key, p))
                }
            }
            func duration(_ key: String) throws -> UInt64? {
                try string(item[key], "\(what).\(key)").map { s throws(LoadError) in try parseDuration(s) }
            }
            var (think, thinkMax): (UInt64, UInt64) = (0, 0)
            if let text = try string(item["think"], "\(what).think") {
                let bounds = text.components(separatedBy: "..")
                guard bounds.count <= 2 else { throw LoadError("\(what).think is a duration or a range low..high") }
                think = try parseDuration(bounds[0])
                thinkMax = try bounds.count == 2 ? parseDuration(bounds[1]) : think
                guard thinkMax >= think else { throw LoadError("\(what).think: the range's high end is below its low end") }
            }
            var streamMessages: Int?
            var streamFor: UInt64?
            if let stream = item["stream"] {
                guard method.serverStreaming else { throw LoadError("\(what): \(call) is not a server stream") }
                if case .number(let n) = stream["messages"] ?? .null { streamMessages = Int(n) }
                streamFor = try string(stream["for"], "\(what).stream.for").map { s throws(LoadError) in try parseDuration(s) }
            }
            var probability = 1.0
            if case .number(let p) = item["probability"] ?? .null, let value = Double(p) { probability = value }
            var accept: Set<String> = []
            if case .array(let codes) = item["accept"] ?? .null { accept = Set(codes.map(\.text)) }
            let retry = item["retry"] ?? defaultRetry
            var retryOn: Set<String> = []
            var retries = 0
            if let retry {
                guard case .array(let codes)? = retry["on"] else { throw LoadError("\(what).retry needs \"on\": [statuses]") }
                retryOn = Set(codes.map(\.text))
                if case .number(let n)? = retry["times"] { retries = Int(n) ?? 3 } else { retries = 3 }
            }
            var fill = true
            if case .bool(let b) = item["fill"] ?? .null { fill = b }
            var inherit = true
            if case .bool(let b) = item["auth"] ?? .null { inherit = b }
            var constant: [UInt8]?
            let hasRequestID = registry.message(named: method.inputType)?.field(named: "request_id") != nil
            if Template.isConstant(request), !hasRequestID, !(registry.message(named: method.inputType)?.field(named: "marketplace_id") != nil) {
                constant = try ProtoJSON(registry: registry).binary(fromJSON: request.serialized(), messageType: method.inputType)
            }
            return Step(
                name: name, method: method, request: request, constantRequest: constant, capture: capture,
                metadata: try metadata(item["metadata"], "\(what).metadata"), inheritMetadata: inherit, timeout: try duration("timeout"),
                streamMessages: streamMessages, streamFor: streamFor, think: think, thinkMax: thinkMax, probability: probability,
                accept: accept, retryOn: retryOn, retries: retries, fill: fill, keepAnswer: !capture.isEmpty || allText.contains("steps.\(name).") || allText.contains("steps.\(name)}"))
        }
        var vars: [String: JSON] = [:]
        if let v = root["vars"] {
            guard case .object(let members) = v else { throw LoadError("vars must be an object") }
            for (key, value) in members { vars[key] = value }
        }
        let scenario = Scenario(
            name: try string(root["name"], "name") ?? "scenario", description: try string(root["description"], "description") ?? "",
            marketplace: try string(root["marketplace"], "marketplace"), metadata: try metadata(root["metadata"], "metadata"), data: data, vars: vars,
            setup: try steps(root["setup"], "setup"), userSetup: try steps(root["userSetup"], "userSetup"), steps: try steps(root["steps"], "steps"))
        guard !scenario.steps.isEmpty else { throw LoadError("the scenario has no steps") }
        return scenario
    }
}
