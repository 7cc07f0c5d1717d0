import Foundation
import GRPCCore

/// EmptyCall answers an empty message; UnaryCall answers a payload of response_size zero bytes;
/// every other method answers UNIMPLEMENTED.
struct TestService: Grpc_Testing_TestService.SimpleServiceProtocol {
    func emptyCall(request: Grpc_Testing_Empty, context: ServerContext) async throws -> Grpc_Testing_Empty {
        Grpc_Testing_Empty()
    }

    func unaryCall(
        request: Grpc_Testing_SimpleRequest, context: ServerContext
    ) async throws -> Grpc_Testing_SimpleResponse {
        guard request.responseSize >= 0 else {
            throw RPCError(code: .invalidArgument, message: "response_size is negative")
        }
        var response = Grpc_Testing_SimpleResponse()
        response.payload.body = Data(count: Int(request.responseSize))
        return response
    }

    func cacheableUnaryCall(
        request: Grpc_Testing_SimpleRequest, context: ServerContext
    ) async throws -> Grpc_Testing_SimpleResponse {
        throw unimplemented("CacheableUnaryCall")
    }

    func streamingOutputCall(
        request: Grpc_Testing_StreamingOutputCallRequest,
        response: RPCWriter<Grpc_Testing_StreamingOutputCallResponse>,
        context: ServerContext
    ) async throws {
        throw unimplemented("StreamingOutputCall")
    }

    func streamingInputCall(
        request: RPCAsyncSequence<Grpc_Testing_StreamingInputCallRequest, any Error>,
        context: ServerContext
    ) async throws -> Grpc_Testing_StreamingInputCallResponse {
        throw unimplemented("StreamingInputCall")
    }

    func fullDuplexCall(
        request: RPCAsyncSequence<Grpc_Testing_StreamingOutputCallRequest, any Error>,
        response: RPCWriter<Grpc_Testing_StreamingOutputCallResponse>,
        context: ServerContext
    ) async throws {
        throw unimplemented("FullDuplexCall")
    }

    func halfDuplexCall(
        request: RPCAsyncSequence<Grpc_Testing_StreamingOutputCallRequest, any Error>,
        response: RPCWriter<Grpc_Testing_StreamingOutputCallResponse>,
        context: ServerContext
    ) async throws {
        throw unimplemented("HalfDuplexCall")
    }

    func unimplementedCall(request: Grpc_Testing_Empty, context: ServerContext) async throws -> Grpc_Testing_Empty {
        throw unimplemented("UnimplementedCall")
    }

    private func unimplemented(_ method: String) -> RPCError {
        RPCError(code: .unimplemented, message: "\(method) is not implemented by this benchmark peer")
    }
}
