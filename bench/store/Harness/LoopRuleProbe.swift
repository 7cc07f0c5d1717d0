import ArgumentParser
import NIOCore
import NIOPosix
import SoukStore
import SoukStoreFixtures

/// Makes a store read on an event loop's thread, which `LoopRule` forbids: a debug build stops
/// the process there (the store tests check it from outside, as a crash cannot be caught inside).
struct LoopRuleProbe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-on-event-loop", abstract: "Read from the store on an event loop (a debug build stops).")

    @Option(name: .customLong("data-dir")) var dataDirectory: String

    func run() async throws {
        let store = try Store(StoreConfiguration(path: dataDirectory), schema: SampleSchema.schema)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        _ = try await group.next().submit { try store.get(SampleSchema.jobs, RecordID.generate()) }.get()
        print("the read was served: this build does not check LoopRule")
        try await group.shutdownGracefully()
        await store.close()
    }
}
