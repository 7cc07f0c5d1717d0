import Metrics

/// The gauges the HTTP/2 server keeps up to date (swift-metrics meters).
struct HTTP2ServerMetrics: Sendable {
    /// Connections with a live nghttp2 session.
    let openConnections = Meter(label: "souk_http2_open_connections")
    /// Request streams opened and not yet closed, over all connections.
    let activeStreams = Meter(label: "souk_http2_active_streams")
}
