import NIOCore
import NIOPosix
import Synchronization
@_spi(Testing) import SoukStore
import SoukStoreFixtures
import SoukTesting
import Testing

/// `LoopRule`: no store call runs on an event loop's thread; debug builds stop at the first.
@Suite struct LoopRuleTests {
    @Test func theRuleKnowsAnEventLoopsThread() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let onLoop = try await group.next().submit { LoopRule.currentThreadMayBlock }.get()
        try await group.shutdownGracefully()
        #expect(!onLoop)
        #expect(LoopRule.currentThreadMayBlock)
    }

    /// A debug build (the tests') stops the process at a store read made on an event loop: the
    /// harness (a debug build beside the tests) makes one and must stop with the rule's message.
    /// A child process of our own, not an exit test: Swift Testing's parent side of an exit test
    /// holds a thread of the small cooperative pool for the child's whole life.
    @Test func aStoreReadOnAnEventLoopStopsADebugBuild() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // No crash backtrace: symbolicating a debug binary takes long and tells nothing here.
        let result = try await runHarness(
            ["read-on-event-loop", "--data-dir", directory.sub("db")], environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(result.status != 0, "\(result.output)")
        #expect(result.output.contains("called on an event loop's thread"), "\(result.output)")
    }

    @Test func theSameReadOffTheLoopsIsServed() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            let found = try store.get(SampleSchema.jobs, RecordID.generate())
            #expect(found == nil)
        }
    }
}

/// `Store.observeCommits`: the records a committed transaction changed, once it committed.
@Suite struct CommitObserverTests {
    @Test(arguments: StoreEngineKind.allCases) func observersHearOfCommittedChangesOnly(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let heard = Mutex<[CommittedChanges]>([])
            store.observeCommits(to: SampleSchema.jobs) { changes in heard.withLock { $0.append(changes) } }
            let first = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 1)).id }
            #expect(heard.withLock { $0 } == [.records([first])])
            // A transaction that throws tells nothing; one that touches other tables neither.
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await store.write { transaction in
                    try transaction.update(SampleSchema.jobs, first) { $0.loads = 2 }
                    throw Refused()
                }
            }
            try await store.write { _ = try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "a@x.io", name: "a")) }
            #expect(heard.withLock { $0 } == [.records([first])])
            // Updates and deletes are heard, every record of the transaction at once.
            let second = try await store.write { transaction in
                try transaction.update(SampleSchema.jobs, first) { $0.loads = 3 }
                return try transaction.insert(SampleSchema.jobs, job(loads: 4)).id
            }
            try await store.write { _ = try $0.delete(SampleSchema.jobs, first) }
            #expect(heard.withLock { $0 } == [.records([first]), .records([first, second]), .records([first])])
        }
    }
}
