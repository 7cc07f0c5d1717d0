import Foundation
import Synchronization
import SoukStore

/// A fresh directory under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        var template = Array((NSTemporaryDirectory() + "souk-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A directory at `path`, made when missing (for a store reopened where a test put it).
    public init(at path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the directory.
    public func sub(_ name: String) -> String { path + "/" + name }
}

/// A clock that tests move by hand; stores read it through `StoreConfiguration.clock`.
public final class ManualClock: Sendable {
    private let micros: Mutex<Int64>

    public init(microsecondsSinceEpoch: Int64 = 1_800_000_000_000_000) {
        micros = Mutex(microsecondsSinceEpoch)
    }

    public var now: StoreTime { StoreTime(microsecondsSinceEpoch: micros.withLock { $0 }) }

    public func advance(_ duration: Duration) {
        let (seconds, atto) = duration.components
        micros.withLock { $0 += seconds * 1_000_000 + atto / 1_000_000_000_000 }
    }
}

extension StoreConfiguration {
    /// A small, fast store for tests: no fsync (process-crash safety holds either way; tests
    /// that need fsync set it), small caches, and the given clock.
    public static func forTests(_ path: String, clock: ManualClock? = nil) -> StoreConfiguration {
        var configuration = StoreConfiguration(path: path)
        configuration.blockCacheBytes = 8 << 20
        configuration.writeBufferBytes = 1 << 20
        configuration.writerThreads = 16
        configuration.syncPolicy = .none
        if let clock { configuration.clock = { clock.now } }
        return configuration
    }
}

/// Opens a store on a fresh directory, runs `body`, then closes the store and removes the directory.
/// `open` makes the store (the embedded one unless given).
public func withTemporaryStore<R>(
    schema: Schema, clock: ManualClock? = nil,
    configure: (inout StoreConfiguration) -> Void = { _ in },
    open: (StoreConfiguration, Schema) throws -> Store = { try Store($0, schema: $1) },
    _ body: (Store, TemporaryDirectory) async throws -> R
) async throws -> R {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    var configuration = StoreConfiguration.forTests(directory.sub("db"), clock: clock)
    configure(&configuration)
    let store = try open(configuration, schema)
    do {
        let result = try await body(store, directory)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}
