import SoukGRPC
import SoukMessages
import SoukTesting

/// A suite over a harness that calls contract RPCs by service and method name.
protocol CommerceCalls {
    var harness: DomainHarness { get }
}

extension CommerceCalls {
    func call<Response: ProtoMessage>(_ service: String, _ method: String, _ request: some ProtoMessage, token: String?) async throws -> Response {
        try await harness.call("souk.v1.\(service)", method, request, token: token)
    }

    func error<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String?, as: Response.Type
    ) async -> RPCError? {
        await harness.error("souk.v1.\(service)", method, request, token: token, as: Response.self)
    }
}
