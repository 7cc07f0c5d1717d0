/// The interceptors around every call, outermost first.
struct InterceptorChain: Sendable {
    /// Keeps the hooks alive.
    private let owned: [InterceptorHooks]
    /// The same hooks, called without a retain and release each (`owned` holds them).
    private let hooks: [Unmanaged<InterceptorHooks>]

    init(_ interceptors: [any ServerInterceptor]) {
        owned = interceptors.map { InterceptorHooks.of($0) }
        hooks = owned.map { Unmanaged.passUnretained($0) }
    }

    /// Starts the call in each interceptor, outermost first. When one refuses it, those already
    /// started are ended with its error, and the error is thrown: the call must not run.
    func start(_ context: ServerContext) throws(RPCError) {
        for index in hooks.indices {
            if let refusal = hooks[index]._withUnsafeGuaranteedRef({ $0.start(context) }) {
                end(context, status: refusal, started: index)
                throw refusal
            }
        }
    }

    /// Ends a call that `start` let through, innermost interceptor first.
    func end(_ context: ServerContext, status: RPCError?) {
        end(context, status: status, started: hooks.count)
    }

    private func end(_ context: ServerContext, status: RPCError?, started: Int) {
        for index in (0..<started).reversed() {
            hooks[index]._withUnsafeGuaranteedRef { $0.end(context, status: status) }
        }
    }
}

/// One interceptor's hooks, called through a class holding the concrete interceptor: calling a
/// method on an `any ServerInterceptor` copies the interceptor out of its existential box first
/// (a retain for each reference it holds), on every call.
private class InterceptorHooks: @unchecked Sendable {
    static func of(_ interceptor: some ServerInterceptor) -> InterceptorHooks {
        TypedInterceptorHooks(interceptor)
    }

    /// The interceptor's refusal; nil when it lets the call through.
    func start(_ context: ServerContext) -> RPCError? { nil }
    func end(_ context: ServerContext, status: RPCError?) {}
}

private final class TypedInterceptorHooks<Interceptor: ServerInterceptor>: InterceptorHooks, @unchecked Sendable {
    let interceptor: Interceptor

    init(_ interceptor: Interceptor) {
        self.interceptor = interceptor
    }

    override func start(_ context: ServerContext) -> RPCError? {
        do {
            try interceptor.callStarted(context)
            return nil
        } catch {
            return error
        }
    }

    override func end(_ context: ServerContext, status: RPCError?) {
        interceptor.callEnded(context, status: status)
    }
}
