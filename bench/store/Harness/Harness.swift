import ArgumentParser
import SoukStore
import SoukStoreFixtures
import SoukStoreTools

/// The sample schema, for the store commands.
enum SampleSchemaProvider: StoreSchemaProvider {
    static var schema: Schema { SampleSchema.schema }
}

/// souk-store-harness: drives the store from a separate process (crash tests, benchmark) and
/// mounts the store maintenance commands over the sample schema.
@main
struct Harness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "souk-store-harness",
        abstract: "Crash-test child, benchmark and maintenance commands for the store, over a sample schema.",
        subcommands: [StoreCommand<SampleSchemaProvider>.self, CrashWriter.self, Benchmark.self, LoopRuleProbe.self])
}
