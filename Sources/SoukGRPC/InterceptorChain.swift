/// The interceptors around every call, outermost first.
struct InterceptorChain: Sendable {
    let interceptors: [any ServerInterceptor]

    init(_ interceptors: [any ServerInterceptor]) {
        self.interceptors = interceptors
    }

    /// Runs the interceptors, each one's `next` leading to the following one and the last
    /// one's to `body`.
    nonisolated(nonsending) func run(_ context: ServerContext, _ body: nonisolated(nonsending) @Sendable () async throws -> Void) async throws {
        if interceptors.isEmpty {
            try await body()
        } else {
            try await run(from: 0, context, body)
        }
    }

    private nonisolated(nonsending) func run(from index: Int, _ context: ServerContext, _ body: nonisolated(nonsending) @Sendable () async throws -> Void) async throws {
        guard index < interceptors.count else {
            try await body()
            return
        }
        try await interceptors[index].intercept(context) {
            try await run(from: index + 1, context, body)
        }
    }
}
