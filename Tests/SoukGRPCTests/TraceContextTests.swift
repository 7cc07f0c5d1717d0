import SoukTracing
import Testing

@Suite struct TraceContextTests {
    @Test func aValidTraceparentRoundTrips() throws {
        let header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let context = try #require(TraceContext(traceparent: header))
        #expect(context.traceIDHex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.spanIDHex == "00f067aa0ba902b7")
        #expect(context.sampled)
        #expect(context.traceparent == header)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",  // no flags
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // all-zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // all-zero span id
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // upper case
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 has four parts
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // short trace id
        "00-4bf92f3577b34da6a3ce929d0e0e47zz-00f067aa0ba902b7-01",  // not hex
    ])
    func aMalformedTraceparentIsIgnored(_ header: String) {
        #expect(TraceContext(traceparent: header) == nil)
    }

    @Test func aLaterVersionIsReadByItsFirstFourParts() throws {
        let context = try #require(TraceContext(traceparent: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more"))
        #expect(!context.sampled)
    }

    @Test func aChildKeepsTheTraceWithANewSpan() {
        let parent = TraceContext.newTrace()
        let child = parent.child()
        #expect(child.traceIDHex == parent.traceIDHex)
        #expect(child.spanID != parent.spanID && child.spanID != 0)
    }
}
