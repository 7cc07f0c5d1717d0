import NIOCore
import SoukHTTP2
import SoukMessages
import Testing

@testable import SoukGRPC

/// Rich error details (AIP-193): how an `RPCError` is packed into `grpc-status-details-bin`, and
/// how a router's `ErrorStatusCompleter` completes every error status it sends.
@Suite struct ErrorDetailsTests {
    static let info = GoogleRPC.ErrorInfo(reason: "STALE_VERSION", domain: "souk.v1", metadata: ["current_version": "4"])
    static let rich = RPCError(
        .invalidArgument, "email: is not an e-mail address", errorInfo: info,
        fieldViolations: [FieldViolation(field: "email", description: "is not an e-mail address"), FieldViolation(field: "phone", description: "is required")],
        retryDelay: .milliseconds(1500), localizedMessage: GoogleRPC.LocalizedMessage(locale: "ar", message: "بيانات غير صالحة"))

    @Test func statusDetailsHoldEveryDetailInOrder() throws {
        let status = try #require(Self.rich.statusDetails)
        #expect(status.code == 3)
        #expect(status.message == "email: is not an e-mail address")
        #expect(status.details.map(\.typeURL) == [
            "type.googleapis.com/google.rpc.ErrorInfo", "type.googleapis.com/google.rpc.BadRequest",
            "type.googleapis.com/google.rpc.RetryInfo", "type.googleapis.com/google.rpc.LocalizedMessage",
        ])
        #expect(try status.details[0].unpack(GoogleRPC.ErrorInfo.self) == Self.info)
        #expect(try status.details[1].unpack(GoogleRPC.BadRequest.self)?.fieldViolations == [
            .init(field: "email", description: "is not an e-mail address"), .init(field: "phone", description: "is required"),
        ])
        #expect(try status.details[2].unpack(GoogleRPC.RetryInfo.self)?.retryDelay == .milliseconds(1500))
        #expect(try status.details[3].unpack(GoogleRPC.LocalizedMessage.self) == GoogleRPC.LocalizedMessage(locale: "ar", message: "بيانات غير صالحة"))
    }

    @Test func errorsWithoutDetailsSendNone() async throws {
        #expect(RPCError(.notFound, "no such order").statusDetails == nil)
        let events = try await CallDriver(router: router(throwing: RPCError(.notFound, "no such order"))).unary(path: "/souk.test.Test/Fail", request: [])
        #expect(try #require(events.last?.headerBlock)["grpc-status-details-bin"] == nil)
    }

    @Test func detailsTravelInTheStandardTrailer() async throws {
        let events = try await CallDriver(router: router(throwing: Self.rich)).unary(path: "/souk.test.Test/Fail", request: [])
        let block = try #require(events.last?.headerBlock)
        #expect(block["grpc-status"] == "3")
        #expect(try sentDetails(block) == Self.rich.statusDetails)
    }

    /// Adds a reason to errors raised without one and a message in the language the request asks for.
    struct Completer: ErrorStatusCompleter {
        func complete(_ error: inout RPCError, context: ServerContext) {
            if error.errorInfo == nil { error.errorInfo = GoogleRPC.ErrorInfo(reason: "CODE_\(error.code.rawValue)", domain: "test") }
            let locale = context.requestMetadata["accept-language"] ?? "en"
            error.localizedMessage = GoogleRPC.LocalizedMessage(locale: locale, message: "\(context.method.method) failed")
        }
    }

    @Test func completerReachesHandlerAndTransportErrors() async throws {
        let router = router(throwing: RPCError(.aborted, "busy"), completer: Completer())
        let failed = try await CallDriver(router: router).unary(
            path: "/souk.test.Test/Fail", request: [], extra: [HTTP2Header("accept-language", "vi")])
        let status = try sentDetails(try #require(failed.last?.headerBlock))
        #expect(status.code == 10 && status.message == "busy")
        #expect(try status.details[0].unpack(GoogleRPC.ErrorInfo.self) == GoogleRPC.ErrorInfo(reason: "CODE_10", domain: "test"))
        #expect(try status.details[1].unpack(GoogleRPC.LocalizedMessage.self) == GoogleRPC.LocalizedMessage(locale: "vi", message: "Fail failed"))

        // An undecodable request fails in the gRPC layer, before the handler runs.
        let undecodable = try await CallDriver(router: router).unary(path: "/souk.test.Test/Fail", request: [0xFF])
        let internalStatus = try sentDetails(try #require(undecodable.last?.headerBlock))
        #expect(internalStatus.code == 13)
        #expect(try internalStatus.details[0].unpack(GoogleRPC.ErrorInfo.self)?.reason == "CODE_13")

        let succeeded = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [1])
        #expect(succeeded.last == .trailers([HTTP2Header("grpc-status", "0")]))
    }

    private func router(throwing error: RPCError, completer: (any ErrorStatusCompleter)? = nil) -> GRPCRouter {
        GRPCRouter(
            services: [TestService(methods: [
                .unary("Fail") { (_: RawMessage, _: ServerContext) -> RawMessage in throw error },
                .unary("Echo") { (request: RawMessage, _: ServerContext) in request },
            ])],
            errorStatus: completer, logger: quietLogger)
    }

    private func sentDetails(_ block: [HTTP2Header]) throws -> GoogleRPC.Status {
        let text = try #require(block["grpc-status-details-bin"])
        return try GoogleRPC.Status(decoding: try #require(MetadataBase64.decode(text[...])))
    }
}
