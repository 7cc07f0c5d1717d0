import SoukStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket in the data directory through which the store commands reach a store that
/// another process (the server) holds open: RocksDB lets only one process open a database, so
/// `store backup` run from cron asks the server to take the backup instead.
///
/// Protocol: the client sends one request line (`MaintenanceRequest.line`); the server answers
/// with the output text and a last line `exit <status>`, then closes. The socket file is
/// created with mode 0600: only the user the server runs as can use it.
public final class StoreControlServer: Sendable {
    /// `<data directory>/control.sock`.
    public static func socketPath(dataDirectory: String) -> String { dataDirectory + "/" + StoreDirectory.controlSocketName }

    private let listener: Int32
    private let path: String
    private let stopped = StopFlag()

    /// Starts listening on `socketPath(dataDirectory: store.configuration.path)`, serving `store`.
    public init(store: Store) throws {
        path = StoreControlServer.socketPath(dataDirectory: store.configuration.path)
        unlink(path)  // a socket left by a process that was killed
        listener = try UnixSocket.make()
        var address = try UnixSocket.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(listener, 8) == 0 else {
            let error = UnixSocket.lastError("listen on \(path)")
            close(listener)
            throw error
        }
        let listeningSocket = listener
        let stopped = self.stopped
        Thread.start {
            // Accepts on its own thread (accept blocks); each request then runs as a task. This
            // thread alone closes the listener, once it has left `accept` for good: closed by
            // `stop`, its number could be reused by another listener (say, the HTTP server's)
            // before this thread next calls `accept`, which would then take that one's connections.
            defer { close(listeningSocket) }
            while true {
                let connection = accept(listeningSocket, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return  // the listener was shut down
                }
                guard !stopped.isSet else { close(connection); return }
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                guard let line = UnixSocket.readLine(connection), let request = MaintenanceRequest(line: line[...]) else {
                    UnixSocket.writeAll(connection, "error: malformed request\nexit 2\n")
                    close(connection)
                    continue
                }
                Task.detached {
                    let (output, status) = await request.run(on: store, online: true)
                    UnixSocket.writeAll(connection, output + "exit \(status)\n")
                    close(connection)
                }
            }
        }
    }

    /// Stops accepting requests and removes the socket file (requests already running finish).
    /// The shutdown wakes the accepting thread, which closes the listener.
    public func stop() {
        guard stopped.set() else { return }
        unlink(path)
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    /// Whether a process answers on the control socket of `dataDirectory` (a server holds it open).
    static func isServing(dataDirectory: String) -> Bool {
        guard let fd = try? UnixSocket.make() else { return false }
        defer { close(fd) }
        guard var address = try? UnixSocket.address(socketPath(dataDirectory: dataDirectory)) else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// Sends `request` to the process serving `dataDirectory`; nil when no process is listening.
    static func send(_ request: MaintenanceRequest, dataDirectory: String) throws -> (output: String, exitStatus: Int32)? {
        let path = socketPath(dataDirectory: dataDirectory)
        let fd = try UnixSocket.make()
        defer { close(fd) }
        var address = try UnixSocket.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }  // no server: the caller opens the store itself
        UnixSocket.writeAll(fd, request.line + "\n")
        var reply = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        var lines = String(decoding: reply, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let last = lines.popLast(), last.hasPrefix("exit "), let status = Int32(last.dropFirst(5)) else {
            throw StoreError.rocksDB(operation: "control request", message: "the server closed the connection without an answer")
        }
        return (lines.map { $0 + "\n" }.joined(), status)
    }
}

/// Set once, when the control server stops.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    /// Sets the flag; true for the caller that set it first.
    func set() -> Bool { !flag.exchange(true, ordering: .acquiringAndReleasing) }
}

/// Plain POSIX helpers for the control socket.
enum UnixSocket {
    static func make() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw lastError("socket") }
        return fd
    }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw StoreError.rocksDB(operation: "control socket", message: "path longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    static func readLine(_ fd: Int32) -> String? {
        var line = [UInt8]()
        var byte: UInt8 = 0
        while line.count < 65_536 {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    static func lastError(_ operation: String) -> StoreError {
        .rocksDB(operation: operation, message: String(cString: strerror(errno)))
    }
}

/// A detached POSIX thread running one closure.
enum Thread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_detach(thread)
    }
}
