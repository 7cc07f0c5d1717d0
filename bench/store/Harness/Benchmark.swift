import ArgumentParser

/// Placeholder until the benchmark is written.
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Store benchmark.")
    func run() async throws {}
}
