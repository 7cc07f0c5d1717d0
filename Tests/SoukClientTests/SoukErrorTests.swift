@testable import SoukClient
import SoukGRPC
import SoukMessages
import Testing

@Suite("SoukError from a transport error")
struct SoukErrorTests {
    @Test("souk.v1 reasons decode to the enum; other domains keep only the name")
    func reasons() {
        var error = RPCError(.outOfRange, "too old", errorInfo: GoogleRPC.ErrorInfo(reason: "EVENTS_EXPIRED", domain: "souk.v1", metadata: ["last_sequence": "7"]))
        error.retryDelay = .seconds(2)
        error.localizedMessage = GoogleRPC.LocalizedMessage(locale: "vi", message: "Tải lại")
        let expired = SoukError(error)
        #expect(expired.reason == .eventsExpired && expired.mustReload && expired.errorMetadata["last_sequence"] == "7")
        #expect(expired.retryDelay == .seconds(2) && expired.locale == "vi" && expired.localizedMessage == "Tải lại")

        let foreign = SoukError(RPCError(.aborted, "x", errorInfo: GoogleRPC.ErrorInfo(reason: "EVENTS_EXPIRED", domain: "example.com")))
        #expect(foreign.reason == nil && foreign.reasonName == "EVENTS_EXPIRED" && !foreign.mustReload)
        let unknown = SoukError(RPCError(.aborted, "x", errorInfo: GoogleRPC.ErrorInfo(reason: "SOMETHING_NEW", domain: "souk.v1")))
        #expect(unknown.reason == nil && unknown.reasonName == "SOMETHING_NEW")

        let invalid = SoukError(RPCError(.invalidArgument, "email: bad", fieldViolations: [FieldViolation(field: "email", description: "bad"), FieldViolation(field: "password", description: "short")]))
        #expect(invalid.violation(of: "password")?.description == "short" && invalid.description.contains("email: bad"))
    }

    @Test("a call refused unexecuted (OVERLOADED) may be sent again, whatever its kind")
    func overloadedIsRetried() {
        var refused = RPCError(
            .unavailable, "overloaded", errorInfo: GoogleRPC.ErrorInfo(reason: "OVERLOADED", domain: "souk.v1", metadata: ["executed": "false"]))
        refused.retryDelay = .milliseconds(120)
        let overloaded = SoukError(refused)
        #expect(overloaded.wasNotExecuted && overloaded.retryDelay == .milliseconds(120))
        #expect(overloaded.allowsRetry(.never) && overloaded.allowsRetry(.idempotent))
        // A dropped connection may have run the call: only what is safe to repeat is repeated.
        let dropped = SoukError(RPCError(.unavailable, "the connection closed before the call ended"))
        #expect(!dropped.wasNotExecuted && !dropped.allowsRetry(.never) && dropped.allowsRetry(.idempotent))
        #expect(!SoukError(RPCError(.aborted, "stale")).allowsRetry(.idempotent))
    }
}
