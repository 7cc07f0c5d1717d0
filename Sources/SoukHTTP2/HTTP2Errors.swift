import CNGHTTP2

/// Why a `sendData` promise failed.
public enum HTTP2StreamWriteError: Error, Sendable, Equatable {
    /// The stream closed (finished, reset, or its connection went away) before nghttp2 took the bytes.
    case streamClosed
    /// Data was sent before the response headers or after the end of the response was queued.
    case invalidOrder
    /// The write was dropped unsent (`dropUnsentWrites`): the stream is being ended.
    case dropped
}

/// An nghttp2 call failed; carries nghttp2's own message.
struct NGHTTP2Error: Error, Sendable, CustomStringConvertible {
    /// The nghttp2 function that failed.
    var operation: String
    /// nghttp2's negative error code (`nghttp2_error`).
    var code: Int32

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// nghttp2's message for `code`.
    var message: String { String(cString: nghttp2_strerror(code)) }

    var description: String { "\(operation) failed: \(message) (\(code))" }
}
