import Foundation
import NIOCore
import NIOPosix
import SoukClient
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Synchronization
import Testing

/// The souk-server binary the tests start: `SOUK_SERVER`, else the one built beside the test
/// bundle (`swift build --build-tests` builds it with the tests).
let soukServerBinary: String? = {
    if let path = ProcessInfo.processInfo.environment["SOUK_SERVER"], FileManager.default.isExecutableFile(atPath: path) { return path }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("souk-server").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("souk-server").path
    return FileManager.default.isExecutableFile(atPath: bundle) ? bundle : nil
}()

/// A port nothing listens on (bound and released).
func freePort() throws -> Int {
    let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
    let port = channel.localAddress!.port!
    try channel.close().wait()
    return port
}

/// One demo account as `souk-server --demo` prints it.
struct DemoLogin: Sendable {
    let marketplace: String
    let role: String
    let email: String
    let password: String
    let marketplaceID: String
}

/// A souk-server process with the demo marketplaces, on a free port and a temporary data directory.
final class SoukServerProcess: @unchecked Sendable {
    static let operatorEmail = "operator@souk-client.example.com"
    static let operatorPassword = "Operat0r!Secret"

    let port: Int
    let dataDir: URL
    let logFile: URL
    let accessTokenTTL: Int
    /// More flags for the server (`--max-stream-queue-bytes 768`).
    let extraArguments: [String]
    private var process: Process?
    private(set) var demo: [String: DemoLogin] = [:]

    init(accessTokenTTL: Int = 300, extraArguments: [String] = []) async throws {
        let binary = try #require(soukServerBinary, "souk-server is not built")
        _ = binary
        port = try freePort()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("souk-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        dataDir = dir.appendingPathComponent("data")
        logFile = dir.appendingPathComponent("server.log")
        self.accessTokenTTL = accessTokenTTL
        self.extraArguments = extraArguments
        try await start()
        demo = try await readDemoLogins()
    }

    /// Starts the server (again, on the same port and data directory after `kill()`).
    func start() async throws {
        if !FileManager.default.fileExists(atPath: logFile.path) {
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logFile)
        log.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: soukServerBinary!)
        process.arguments = [
            "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir.path, "--log-level", "warning", "--demo",
            "--access-token-ttl", String(accessTokenTTL), "--password-hash-memory-kib", "8192", "--sync", "none",
        ] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["SOUK_OPERATOR_EMAIL"] = Self.operatorEmail
        environment["SOUK_OPERATOR_PASSWORD"] = Self.operatorPassword
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        try await waitListening()
    }

    private func waitListening() async throws {
        for _ in 0..<600 {
            if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get() {
                try? await channel.close()
                return
            }
            if process?.isRunning == false { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("souk-server did not start: \(logText.suffix(2000))")
        throw CancellationError()
    }

    var logText: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private func readDemoLogins() async throws -> [String: DemoLogin] {
        let pattern = try NSRegularExpression(
            pattern: #"^demo login: (.+?) \| (customer|provider|courier|admin) \| (\S+) \| (\S+) \| marketplace_id=([0-9a-f-]{36})\s*$"#,
            options: [.anchorsMatchLines])
        for _ in 0..<600 {
            let text = logText
            var found: [String: DemoLogin] = [:]
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let group = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                let login = DemoLogin(marketplace: group(1), role: group(2), email: group(3), password: group(4), marketplaceID: group(5))
                found["\(login.marketplace)|\(login.role)"] = login
            }
            if found.count >= 20 { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("souk-server --demo printed no demo logins: \(logText.suffix(2000))")
        throw CancellationError()
    }

    func login(_ marketplace: String, _ role: String) throws -> DemoLogin {
        try #require(demo["\(marketplace)|\(role)"])
    }

    /// Kills the process at once (no graceful shutdown: its connections just drop).
    func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Stops the process and removes its data.
    func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDir.deletingLastPathComponent())
    }

    func channel() -> GRPCChannel {
        GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: port))
    }

    /// Signs in a demo account over `channel`.
    func session(
        _ marketplace: String, _ role: String, over channel: GRPCChannel, acceptLanguage: String? = nil, refreshInBackground: Bool = true
    ) async throws -> SoukSession {
        let login = try login(marketplace, role)
        return try await SoukSession.signIn(
            channel: channel, marketplaceID: login.marketplaceID, email: login.email, password: login.password, acceptLanguage: acceptLanguage,
            refreshInBackground: refreshInBackground)
    }
}

/// Runs `body` with a fresh server, stopped afterwards.
func withServer<R>(accessTokenTTL: Int = 300, arguments: [String] = [], _ body: (SoukServerProcess) async throws -> R) async throws -> R {
    let server = try await SoukServerProcess(accessTokenTTL: accessTokenTTL, extraArguments: arguments)
    defer { server.stop() }
    return try await body(server)
}

/// A TCP proxy in front of a server that can drop its connections: all at once, or each one at
/// the first response message (an HTTP/2 DATA frame) the server sends after it was armed, which
/// the client then never sees: an answer lost with the connection.
final class DroppingProxy: Sendable {
    let port: Int
    private let listener: any Channel
    private let state: ProxyState

    struct State {
        /// New connections are closed at once (a server that cannot be reached).
        var refusing = false
        var armed = false
        var drops = 0
        var connections: [ObjectIdentifier: any Channel] = [:]
        /// The connections to the server.
        var upstreams: [ObjectIdentifier: any Channel] = [:]
    }

    /// The proxy's state, shared by its connections' handlers.
    final class ProxyState: Sendable {
        private let mutex = Mutex(State())

        func withLock<R>(_ body: (inout State) -> R) -> R {
            mutex.withLock { body(&$0) }
        }
    }

    init(upstreamPort: Int) async throws {
        let state = ProxyState()
        self.state = state
        let group = MultiThreadedEventLoopGroup.singleton
        listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                if state.withLock({ $0.refusing }) { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: upstreamPort).flatMap { outbound in
                    state.withLock {
                        $0.connections[ObjectIdentifier(inbound)] = inbound
                        $0.connections[ObjectIdentifier(outbound)] = outbound
                        $0.upstreams[ObjectIdentifier(outbound)] = outbound
                    }
                    let close: @Sendable () -> Void = {
                        inbound.close(promise: nil)
                        outbound.close(promise: nil)
                        state.withLock {
                            $0.connections[ObjectIdentifier(inbound)] = nil
                            $0.connections[ObjectIdentifier(outbound)] = nil
                            $0.upstreams[ObjectIdentifier(outbound)] = nil
                        }
                    }
                    return inbound.pipeline.addHandler(Forward(to: outbound, close: close)).flatMap {
                        outbound.pipeline.addHandler(Forward(to: inbound, close: close, frames: state))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress!.port!
    }

    /// Closes every connection now and refuses new ones until `accept()`.
    func refuse() {
        state.withLock { $0.refusing = true }
        dropAll()
    }

    /// Accepts connections again.
    func accept() { state.withLock { $0.refusing = false } }

    /// Stops reading what the server sends, as a client that does not read would (the client's
    /// flow-control windows stay closed, and the server's side fills up), or reads it again.
    func holdResponses(_ hold: Bool) async throws {
        let upstreams = state.withLock { Array($0.upstreams.values) }
        for channel in upstreams {
            try await channel.setOption(ChannelOptions.autoRead, value: !hold).get()
            if !hold { channel.read() }
        }
    }

    /// Drop each connection at the next response message the server sends on it.
    func armDropAtNextResponse() { state.withLock { $0.armed = true } }

    /// How many connections were dropped at a response.
    var drops: Int { state.withLock { $0.drops } }

    /// Closes every connection now.
    func dropAll() {
        let channels = state.withLock { state in
            defer { state.connections = [:] }
            return Array(state.connections.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }

    func close() async {
        dropAll()
        try? await listener.close()
    }

    /// Copies bytes to the other side; from the server, frame by frame, watching for DATA frames.
    final class Forward: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let peer: any Channel
        let close: @Sendable () -> Void
        let frames: ProxyState?
        var pending: ByteBuffer?

        init(to peer: any Channel, close: @escaping @Sendable () -> Void, frames: ProxyState? = nil) {
            self.peer = peer
            self.close = close
            self.frames = frames
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            guard let frames else {
                peer.writeAndFlush(bytes, promise: nil)
                return
            }
            if var pending = self.pending {
                pending.writeBuffer(&bytes)
                bytes = pending
            }
            var out = context.channel.allocator.buffer(capacity: bytes.readableBytes)
            while bytes.readableBytes >= 9 {
                let length = Int(bytes.getInteger(at: bytes.readerIndex, as: UInt32.self)! >> 8)
                let type = bytes.getInteger(at: bytes.readerIndex + 3, as: UInt8.self)!
                let stream = bytes.getInteger(at: bytes.readerIndex + 5, as: UInt32.self)! & 0x7fff_ffff
                guard bytes.readableBytes >= 9 + length else { break }
                if type == 0, stream != 0, frames.withLock({ state in
                    guard state.armed else { return false }
                    state.armed = false
                    state.drops += 1
                    return true
                }) {
                    peer.writeAndFlush(out, promise: nil)
                    close()
                    pending = nil
                    return
                }
                var frame = bytes.readSlice(length: 9 + length)!
                out.writeBuffer(&frame)
            }
            pending = bytes.readableBytes > 0 ? bytes : nil
            if out.readableBytes > 0 { peer.writeAndFlush(out, promise: nil) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            close()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            close()
        }
    }
}
