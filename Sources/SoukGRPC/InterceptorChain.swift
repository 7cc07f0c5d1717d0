/// The interceptors around every call, outermost first.
struct InterceptorChain: Sendable {
    let interceptors: [any ServerInterceptor]

    init(_ interceptors: [any ServerInterceptor]) {
        self.interceptors = interceptors
    }

    /// Starts the call in each interceptor, outermost first. When one refuses it, those already
    /// started are ended with its error, and the error is thrown: the call must not run.
    func start(_ context: ServerContext) throws(RPCError) {
        for (index, interceptor) in interceptors.enumerated() {
            do {
                try interceptor.callStarted(context)
            } catch {
                end(context, status: error, started: index)
                throw error
            }
        }
    }

    /// Ends a call that `start` let through, innermost interceptor first.
    func end(_ context: ServerContext, status: RPCError?) {
        end(context, status: status, started: interceptors.count)
    }

    private func end(_ context: ServerContext, status: RPCError?, started: Int) {
        for interceptor in interceptors[..<started].reversed() {
            interceptor.callEnded(context, status: status)
        }
    }
}
