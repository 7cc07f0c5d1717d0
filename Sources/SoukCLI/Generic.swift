import ArgumentParser
import Foundation
import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukJSON

#if canImport(Glibc)
import Glibc
#endif

/// `souk login`: signs in and keeps the session in the profile.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in and keep the session in the profile (a 0600 file).",
        discussion: """
            Signs in to a marketplace (--marketplace: its id, slug or name) with an e-mail and a password, \
            or as the platform operator when no marketplace is given. The password comes from --password, \
            else the first line of stdin with --password-stdin, else $SOUK_PASSWORD, else a prompt on the \
            terminal (not echoed). The session (server, marketplace, tokens) is written to the \
            profile file with mode 0600; later commands send its access token, renewing it with the \
            refresh token shortly before it expires.

              souk login --target localhost:50051 --marketplace "Aqua Hub" --email customer@aquahub.example
              souk login --profile operator --email operator@example.com      # platform operator
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: "The account's e-mail.")
    var email: String

    @Option(name: .long, help: "The password (else --password-stdin, $SOUK_PASSWORD, or asked for on the terminal).")
    var password: String?

    @Flag(name: .long, help: "Read the password from the first line of stdin (keeps it out of the process list and the environment).")
    var passwordStdin = false

    @Option(name: .long, help: "The device label of the session.")
    var device = "souk-cli"

    @Flag(name: .long, help: "Print the account as JSON instead of a sentence.")
    var json = false

    func run() async throws {
        var options = connection
        options.anonymous = true
        try await withClient(options, jsonErrors: json) { client in
            let given = password ?? (passwordStdin ? readLine(strippingNewline: true) : nil)
            guard let password = given ?? ProcessInfo.processInfo.environment["SOUK_PASSWORD"] ?? readPassword(), !password.isEmpty else {
                throw CLIError("no password (use --password, --password-stdin, $SOUK_PASSWORD or a terminal)")
            }
            let session = try await client.object(
                "souk.v1.Accounts/Login",
                ["marketplaceId": client.marketplaceId, "email": email, "password": password, "deviceName": device], authorized: false)
            var profile = Profile(target: "\(client.channel.target.host):\(client.channel.target.port)")
            profile.tls = connection.tls || connection.ca != nil
            profile.caFile = connection.ca
            profile.marketplaceId = client.marketplaceId
            profile.marketplaceName = connection.marketplace ?? ""
            profile.apply(session: session)
            try profile.save(client.profilePath)
            let account = session["account"] as? [String: Any] ?? [:]
            if json {
                try printJSONObject(["profile": client.profilePath, "marketplaceId": profile.marketplaceId, "account": account])
            } else {
                let name = [account["givenName"], account["familyName"]].compactMap { $0 as? String }.joined(separator: " ")
                let place = profile.marketplaceId.isEmpty ? "the platform (operator)" : (connection.marketplace ?? profile.marketplaceId)
                print("signed in to \(place) as \(name.isEmpty ? email : name) <\(email)>; session saved in \(client.profilePath)")
            }
        }
    }

    private func readPassword() -> String? {
        guard isatty(0) != 0, let raw = getpass("Password: ") else { return nil }
        return String(cString: raw)
    }
}

/// `souk logout`: ends the session on the server and deletes the profile.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End the session on the server and delete the profile file.",
        discussion: "With --all, every session of the account ends (other devices too).")

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "End every session of the account, not only this one.")
    var all = false

    func run() async throws {
        try await withClient(connection, jsonErrors: false, profile: true) { client in
            // The profile goes even when the server cannot be told (its tokens then expire by themselves).
            let ended: Int
            do {
                ended = try await client.object("souk.v1.Accounts/Logout", ["allSessions": all])["endedSessions"] as? Int ?? 0
            } catch let error as RPCError {
                FileHandle.standardError.write(Data("warning: the server did not end the session: \(error.code) \(error.message)\n".utf8))
                ended = 0
            }
            Profile.remove(client.profilePath)
            print("signed out (\(ended) session\(ended == 1 ? "" : "s") ended); removed \(client.profilePath)")
        }
    }
}

/// `souk whoami`: the signed-in account.
struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in account (Accounts.GetMe).")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            let text = try await client.unaryJSON("souk.v1.Accounts/GetMe", Array("{}".utf8), pretty: true)
            if output.json { emit(text); return }
            let account = try parseObject(text)
            let roles = (account["roles"] as? [[String: Any]] ?? []).map { "\(shortEnum($0["role"])) (\(shortEnum($0["status"])))" }
            printRecord([
                ("id", account["id"]), ("email", account["email"]),
                ("name", "\(account["givenName"] as? String ?? "") \(account["familyName"] as? String ?? "")"),
                ("marketplace", account["marketplaceId"]), ("roles", roles.joined(separator: ", ")), ("state", shortEnum(account["state"])),
            ])
        }
    }
}

/// `souk call`: any RPC by name with a JSON request.
struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call any RPC by name with a JSON request; print the answers as JSON.",
        discussion: """
            The request is proto3 JSON (field names in lowerCamelCase or as in the .proto), converted \
            with the contract's descriptor set. The profile's access token is sent, an empty \
            marketplace_id is filled with the profile's (or --marketplace's) marketplace, and an empty \
            request_id with a new UUID (give one to retry a create safely).

              souk call souk.v1.Catalog/ListProducts -d '{"pageSize": 5, "orderBy": "price"}'
              souk call souk.v1.Orders/CreateOrder -d @order.json
              echo '{"orderId": "..."}' | souk call souk.v1.Orders/WatchOrder -d @- --deadline 0 --compact

            Server streams print each message as it arrives (one line each with --compact). Client and \
            bidirectional streams send one message per line of the data (JSON lines; stdin when no -d). \
            A failed call prints its status, reason, field violations and localized message on stderr, \
            the same as JSON ({"error": ...}) on stdout, and exits with 10 + the gRPC status code.
            """)

    @Argument(help: "The method: souk.v1.Service/Method.")
    var method: String

    @Option(name: [.customShort("d"), .long], help: "The request JSON, @FILE to read it from a file, or @- for stdin (default {}).")
    var data: String?

    @Flag(name: .long, help: "Print each answer on one line instead of indented.")
    var compact = false

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await withClient(connection, jsonErrors: true, compact: compact) { client in
            let method = try client.method(method)
            if method.serverStreaming || method.clientStreaming { client.defaultTimeout = nil }
            try await client.refreshIfNeeded()
            let options = try client.callOptions()
            let pretty = !compact
            if !method.clientStreaming {
                let request = try client.requestBytes(try readData() ?? Array("{}".utf8), type: method.inputType)
                if method.serverStreaming {
                    try await client.channel.serverStreaming(method.path, request: request, options: options) { call in
                        for try await message in call.responses {
                            emit(try client.responseJSON(message, type: method.outputType, pretty: pretty))
                        }
                    }
                } else {
                    let response = try await client.channel.unary(method.path, request: request, options: options)
                    emit(try client.responseJSON(response.message, type: method.outputType, pretty: pretty))
                }
                return
            }
            // Client and bidirectional streams: one request per JSON line.
            let lines: [[UInt8]]
            if let data = try readData() {
                lines = data.split(separator: UInt8(ascii: "\n")).map(Array.init)
            } else {
                var read: [[UInt8]] = []
                while let line = readLine() { read.append(Array(line.utf8)) }
                lines = read
            }
            let requests = try lines.filter { !$0.allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 } }.map { try client.requestBytes($0, type: method.inputType) }
            if method.serverStreaming {
                try await client.channel.withCall(method.path, options: options) { call in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for request in requests { try await call.send(request) }
                            call.finishSending()
                        }
                        for try await message in call.responses {
                            emit(try client.responseJSON(message, type: method.outputType, pretty: pretty))
                        }
                        try await group.waitForAll()
                    }
                }
            } else {
                let response = try await client.channel.clientStreaming(method.path, options: options) { call in
                    for request in requests { try await call.send(request) }
                }
                emit(try client.responseJSON(response.message, type: method.outputType, pretty: pretty))
            }
        }
    }

    private func readData() throws -> [UInt8]? {
        guard let data else { return nil }
        if data == "@-" || data == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        if data.hasPrefix("@") {
            guard let contents = FileManager.default.contents(atPath: String(data.dropFirst())) else {
                throw CLIError("cannot read \(data.dropFirst())")
            }
            return Array(contents)
        }
        return Array(data.utf8)
    }
}

/// `souk list`: the services of the contract.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the services of the contract (from the descriptor set built into souk).",
        discussion: "See a service's methods with `souk describe souk.v1.Orders`.")

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let registry = DescriptorRegistry.embedded
        if json {
            try printJSONObject(["services": registry.services.map { ["name": $0.fullName, "methods": $0.methods.count] }])
            return
        }
        printTable(["SERVICE", "METHODS"], registry.services.map { [$0.fullName, "\($0.methods.count)"] })
    }
}

/// `souk describe`: a service's methods, or one method.
struct Describe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a service's methods (request and response types, streaming, Access line) or one method.",
        discussion: """
              souk describe souk.v1.Orders
              souk describe souk.v1.Orders/WatchOrder      # with the method's documentation
              souk describe souk.v1.CheckoutRequest        # a message's fields
            """)

    @Argument(help: "A service (souk.v1.Orders), a method (souk.v1.Orders/GetOrder) or a message (souk.v1.Order).")
    var name: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try await running(jsonErrors: false) {
            let registry = DescriptorRegistry.embedded
            if let service = registry.service(named: name) {
                let methods = service.methods.map { Self.methodObject($0) }
                if json { try printJSONObject(["service": service.fullName, "methods": methods]); return }
                print("service \(service.fullName)")
                for method in service.methods {
                    let (requestType, responseType) = Self.shapes(method)
                    print("\n  rpc \(method.name)(\(requestType)) returns (\(responseType))")
                    if let access = MethodComments.access(method.path) { print("    Access: \(access)") }
                }
            } else if name.contains("/"), let method = registry.method(named: name) {
                if json { try printJSONObject(Self.methodObject(method)); return }
                let (requestType, responseType) = Self.shapes(method)
                print("rpc \(method.path)(\(requestType)) returns (\(responseType))")
                if let comment = MethodComments.all[method.path] {
                    print(comment.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n"))
                }
            } else if let message = registry.message(named: name) {
                let fields = message.fields.map { field in
                    ["name": field.name, "jsonName": field.jsonName, "number": Int(field.number), "type": Self.typeName(field), "repeated": field.isRepeated] as [String: Any]
                }
                if json { try printJSONObject(["message": message.fullName, "fields": fields]); return }
                print("message \(message.fullName)")
                printTable(["FIELD", "NUMBER", "TYPE"], message.fields.map { [$0.name, "\($0.number)", ($0.isRepeated && !$0.isMap ? "repeated " : "") + Self.typeName($0)] })
            } else {
                throw CLIError("no service, method or message named \"\(name)\" (see `souk list`)")
            }
        }
    }

    static func typeName(_ field: FieldDescriptor) -> String {
        field.typeName.isEmpty ? "\(field.kind)" : (field.typeName.hasPrefix(".") ? String(field.typeName.dropFirst()) : field.typeName)
    }

    static func shapes(_ method: SoukJSON.MethodDescriptor) -> (String, String) {
        ((method.clientStreaming ? "stream " : "") + method.inputType, (method.serverStreaming ? "stream " : "") + method.outputType)
    }

    static func methodObject(_ method: SoukJSON.MethodDescriptor) -> [String: Any] {
        var object: [String: Any] = [
            "name": method.name, "path": method.path, "requestType": method.inputType, "responseType": method.outputType,
            "clientStreaming": method.clientStreaming, "serverStreaming": method.serverStreaming,
        ]
        if let access = MethodComments.access(method.path) { object["access"] = access }
        return object
    }
}
