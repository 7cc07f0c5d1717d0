import ArgumentParser
import Foundation
import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukHTTP2
import SoukJSON

/// The options every command that talks to a server takes.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "The profile: a name under ~/.config/souk (default `default`, or $SOUK_PROFILE) or a path to its file.")
    var profile: String?

    @Option(name: .long, help: "host:port of the server (default: the profile's, else $SOUK_TARGET, else localhost:50051).")
    var target: String?

    @Flag(name: .long, help: "Connect with TLS (ALPN h2), trusting the system's roots or --ca.")
    var tls = false

    @Option(name: .long, help: "A PEM file of CA certificates to trust (implies --tls).")
    var ca: String?

    @Option(name: .long, help: "The marketplace (id, slug or name) for this command instead of the profile's.")
    var marketplace: String?

    @Option(name: [.customShort("H"), .long], help: "Request metadata `key: value` (repeatable), e.g. -H 'accept-language: vi'.")
    var header: [String] = []

    @Option(name: .long, help: "The call's deadline: 500ms, 5s, 2m; 0 for none (default 30s, none for streams).")
    var deadline: String?

    @Flag(name: .long, help: "Call without the profile's token (as a guest).")
    var anonymous = false
}

/// Parses `500ms`, `5s`, `2m`, `1h` or a number of seconds.
func parseDuration(_ text: String) throws -> Duration? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    var number = text
    var scale = 1.0
    for (suffix, value) in units where text.hasSuffix(suffix) {
        number = String(text.dropLast(suffix.count))
        scale = value
        break
    }
    guard let value = Double(number), value >= 0 else { throw CLIError("invalid duration \"\(text)\" (use 500ms, 5s, 2m)") }
    if value == 0 { return nil }
    return .milliseconds(Int64((value * scale * 1000).rounded()))
}

/// One run of a command against a server: the channel, the profile (refreshed when its access
/// token is about to expire) and the JSON mapping of the contract.
final class Client {
    let options: ConnectionOptions
    let profilePath: String
    var profile: Profile?
    let channel: GRPCChannel
    let json = ProtoJSON()
    var registry: DescriptorRegistry { json.registry }
    /// The deadline of a call when --deadline is not given (streams: none).
    var defaultTimeout: Duration? = .seconds(30)
    /// The marketplace an empty `marketplace_id` is filled with.
    var marketplaceId: String

    init(_ options: ConnectionOptions, requireProfile: Bool = false) async throws {
        self.options = options
        self.profilePath = Profile.path(options.profile)
        let profile = Profile.load(profilePath)
        if requireProfile && profile == nil {
            throw CLIError("not signed in (no profile at \(profilePath)); run `souk login` first")
        }
        self.profile = options.anonymous ? nil : profile
        let target = options.target ?? profile?.target ?? ProcessInfo.processInfo.environment["SOUK_TARGET"] ?? "localhost:50051"
        let useTLS = options.tls || options.ca != nil || (options.target == nil && profile?.tls == true)
        let ca = options.ca ?? (options.target == nil ? profile?.caFile : nil)
        self.channel = try Client.channel(target: target, tls: useTLS, ca: ca)
        self.marketplaceId = profile?.marketplaceId ?? ""
        if let marketplace = options.marketplace {
            self.marketplaceId = try await resolveMarketplace(marketplace)
            // A marketplace account's token is refused in another marketplace: call there as a
            // guest. The operator's token (no marketplace) works everywhere.
            if let signedIn = self.profile?.marketplaceId, !signedIn.isEmpty, signedIn != marketplaceId { self.profile = nil }
        }
    }

    static func channel(target: String, tls: Bool, ca: String?) throws -> GRPCChannel {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            throw CLIError("invalid target \"\(target)\" (use host:port)")
        }
        var host = String(target[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let settings = tls ? try HTTP2ClientTLS(trust: ca.map { .certificateFile($0) } ?? .systemDefault) : nil
        var configuration = GRPCChannel.Configuration()
        configuration.userAgent = "souk-cli/1"
        return GRPCChannel(target: GRPCTarget(host: host, port: port, tls: settings), configuration: configuration)
    }

    func close() async {
        await channel.close()
    }

    /// The id of a marketplace given by id, slug or display name (case-insensitive).
    func resolveMarketplace(_ wanted: String) async throws -> String {
        let folded = wanted.lowercased()
        let marketplaces = try await all("souk.v1.Marketplaces/ListMarketplaces", ["pageSize": 100], key: "marketplaces", authorized: false)
        for m in marketplaces {
            let id = m["id"] as? String ?? ""
            if id == wanted || (m["slug"] as? String ?? "").lowercased() == folded || (m["displayName"] as? String ?? "").lowercased() == folded {
                return id
            }
        }
        throw CLIError("no marketplace with id, slug or name \"\(wanted)\" (see `souk call souk.v1.Marketplaces/ListMarketplaces`)")
    }

    // MARK: Metadata and tokens

    /// How long before its expiry the access token is renewed ($SOUK_REFRESH_MARGIN seconds, 30 by default).
    var refreshMargin: Double {
        ProcessInfo.processInfo.environment["SOUK_REFRESH_MARGIN"].flatMap(Double.init) ?? 30
    }

    /// Renews the token pair when the access token expires within the margin, and saves it.
    func refreshIfNeeded(force: Bool = false) async throws {
        guard var profile, !profile.refreshToken.isEmpty else { return }
        guard force || profile.accessTokenExpireTime - Date().timeIntervalSince1970 < refreshMargin else { return }
        let session = try await object(
            "souk.v1.Accounts/Refresh", ["marketplaceId": profile.marketplaceId, "refreshToken": profile.refreshToken], authorized: false)
        profile.apply(session: session)
        try profile.save(profilePath)
        self.profile = profile
    }

    func callOptions(authorized: Bool = true) throws -> CallOptions {
        var metadata = Metadata()
        if authorized, let token = profile?.accessToken, !token.isEmpty {
            metadata.add("authorization", "Bearer \(token)")
        }
        for header in options.header {
            guard let colon = header.firstIndex(of: ":") else { throw CLIError("invalid header \"\(header)\" (use key: value)") }
            let key = header[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if key.hasSuffix("-bin") {
                guard let bytes = Data(base64Encoded: value) else { throw CLIError("the value of \(key) must be base64") }
                metadata.add(key, bytes: Array(bytes))
            } else {
                metadata.add(key, value)
            }
        }
        let timeout = try options.deadline.map(parseDuration) ?? defaultTimeout
        return CallOptions(timeout: timeout, metadata: metadata)
    }

    // MARK: Requests

    /// The method named `souk.v1.Service/Method` (or with a dot, or a leading slash).
    func method(_ name: String) throws -> SoukJSON.MethodDescriptor {
        guard let method = registry.method(named: name) else {
            throw CLIError("unknown method \"\(name)\" (see `souk list` and `souk describe SERVICE`)")
        }
        return method
    }

    /// A request's protobuf bytes from JSON, with the marketplace filled in when the request has a
    /// `marketplace_id` the JSON leaves empty, and a new `request_id` when it has one left empty:
    /// those bytes go first, so a value the JSON sets wins (the last occurrence of a field is the
    /// one protobuf keeps).
    func requestBytes(_ json: [UInt8], type: String) throws -> ByteBuffer {
        var bytes: [UInt8] = []
        func isString(_ name: String) -> Bool {
            guard let field = registry.message(named: type)?.field(named: name) else { return false }
            return field.kind == .string && !field.isRepeated
        }
        if !marketplaceId.isEmpty, isString("marketplace_id") {
            bytes = try self.json.binary(fromJSON: "{\"marketplaceId\": \(quoted(marketplaceId))}", messageType: type)
        }
        // Creates carry an idempotency key; one left empty gets a new one per run (give your own
        // to retry a call safely).
        if isString("request_id") {
            bytes += try self.json.binary(fromJSON: "{\"requestId\": \"\(UUID().uuidString.lowercased())\"}", messageType: type)
        }
        do {
            bytes += try self.json.binary(fromJSON: json, messageType: type)
        } catch {
            throw CLIError("the request is not a valid \(type): \(error)")
        }
        return ByteBuffer(bytes: bytes)
    }

    func responseJSON(_ buffer: ByteBuffer, type: String, pretty: Bool) throws -> String {
        String(decoding: try json.json(fromBinary: Array(buffer.readableBytesView), messageType: type, options: JSONEncodingOptions(pretty: pretty)), as: UTF8.self)
    }

    /// A unary call with a JSON request; the answer as JSON text.
    func unaryJSON(_ name: String, _ request: [UInt8], pretty: Bool = false, authorized: Bool = true) async throws -> String {
        let method = try method(name)
        if authorized { try await refreshIfNeeded() }
        let bytes = try requestBytes(request, type: method.inputType)
        do {
            let response = try await channel.unary(method.path, request: bytes, options: try callOptions(authorized: authorized))
            return try responseJSON(response.message, type: method.outputType, pretty: pretty)
        } catch let error as RPCError where authorized && error.code == .unauthenticated && error.errorInfo?.reason == "TOKEN_EXPIRED" {
            // The token expired on the way (a clock ahead of ours, a shorter life): renew, call once more.
            try await refreshIfNeeded(force: true)
            let response = try await channel.unary(method.path, request: bytes, options: try callOptions(authorized: authorized))
            return try responseJSON(response.message, type: method.outputType, pretty: pretty)
        }
    }

    /// A unary call with a request built from a dictionary; the answer as a dictionary.
    func object(_ name: String, _ request: [String: Any], authorized: Bool = true) async throws -> [String: Any] {
        let text = try await unaryJSON(name, Array(try JSONSerialization.data(withJSONObject: request)), authorized: authorized)
        return try parseObject(text)
    }
}

func parseObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw CLIError("the answer is not a JSON object")
    }
    return object
}

func quoted(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), as: UTF8.self).dropFirst().dropLast().description
}

extension Profile {
    /// Takes the tokens of a `souk.v1.Session` answer (as JSON).
    mutating func apply(session: [String: Any]) {
        accessToken = session["accessToken"] as? String ?? ""
        refreshToken = session["refreshToken"] as? String ?? refreshToken
        accessTokenExpireTime = parseTimestamp(session["accessTokenExpireTime"]) ?? 0
        refreshTokenExpireTime = parseTimestamp(session["refreshTokenExpireTime"]) ?? 0
        sessionId = session["sessionId"] as? String ?? sessionId
        if let account = session["account"] as? [String: Any] {
            accountId = account["id"] as? String ?? accountId
            email = account["email"] as? String ?? email
        }
    }
}

/// Seconds since 1970 of an RFC 3339 timestamp.
func parseTimestamp(_ value: Any?) -> Double? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)?.timeIntervalSince1970
}

// MARK: Errors

/// Exit codes: 0 success, 1 a local error (bad input, no profile), 64 bad usage, and for a call
/// that failed, 10 + its gRPC status code (13 INVALID_ARGUMENT, 15 NOT_FOUND, 16 ALREADY_EXISTS,
/// 17 PERMISSION_DENIED, 26 UNAUTHENTICATED, ...), so scripts can tell the outcomes apart.
func exitCode(for status: StatusCode) -> Int32 { 10 + Int32(status.rawValue) }

/// The JSON form of a failed call, printed on stdout when the command prints JSON.
func errorObject(_ error: RPCError) -> [String: Any] {
    var object: [String: Any] = ["code": error.code.description, "codeNumber": error.code.rawValue, "message": error.message]
    if let info = error.errorInfo {
        object["reason"] = info.reason
        object["domain"] = info.domain
        if !info.metadata.isEmpty { object["metadata"] = info.metadata }
    }
    if !error.fieldViolations.isEmpty {
        object["fieldViolations"] = error.fieldViolations.map { ["field": $0.field, "description": $0.description] }
    }
    if let localized = error.localizedMessage {
        object["localizedMessage"] = ["locale": localized.locale, "message": localized.message]
    }
    if let delay = error.retryDelay {
        let (seconds, attoseconds) = delay.components
        object["retryDelay"] = String(format: "%.3fs", Double(seconds) + Double(attoseconds) / 1e18)
    }
    return ["error": object]
}

/// The error in words, one fact a line.
func describe(_ error: RPCError) -> String {
    var lines = ["error: \(error.code)\(error.message.isEmpty ? "" : ": \(error.message)")"]
    if let info = error.errorInfo, !info.reason.isEmpty {
        let metadata = info.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        lines.append("  reason: \(info.reason)\(metadata.isEmpty ? "" : " (\(metadata))")")
    }
    for violation in error.fieldViolations {
        lines.append("  field \(violation.field): \(violation.description)")
    }
    if let localized = error.localizedMessage, !localized.message.isEmpty {
        lines.append("  message (\(localized.locale)): \(localized.message)")
    }
    if let delay = error.retryDelay {
        lines.append("  retry after: \(delay)")
    }
    return lines.joined(separator: "\n")
}

/// Runs a command's body, turning its errors into a message and an exit code.
func running(jsonErrors: Bool, compact: Bool = false, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as RPCError {
        FileHandle.standardError.write(Data((describe(error) + "\n").utf8))
        if jsonErrors {
            // One line with --compact, like the answers before it.
            let data = try JSONSerialization.data(withJSONObject: errorObject(error), options: compact ? [.sortedKeys] : [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        throw ExitCode(exitCode(for: error.code))
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw ExitCode(1)
    } catch let error as ProtoJSONError {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw ExitCode(1)
    }
}

/// Writes a line to stdout at once (a stream's messages are shown as they arrive, even through a pipe).
func emit(_ line: String) {
    print(line)
    fflush(nil)
}
