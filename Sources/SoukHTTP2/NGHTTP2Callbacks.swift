import CNGHTTP2

/// Creates nghttp2 server sessions and routes nghttp2's C callbacks to the `HTTP2ConnectionHandler`
/// passed as the session's user data (unretained: the handler owns the session and outlives it).
enum NGHTTP2Callbacks {
    static let dataFrame = UInt8(NGHTTP2_DATA.rawValue)
    static let headersFrame = UInt8(NGHTTP2_HEADERS.rawValue)
    static let rstStreamFrame = UInt8(NGHTTP2_RST_STREAM.rawValue)
    static let settingsFrame = UInt8(NGHTTP2_SETTINGS.rawValue)
    static let pingFrame = UInt8(NGHTTP2_PING.rawValue)
    static let windowUpdateFrame = UInt8(NGHTTP2_WINDOW_UPDATE.rawValue)
    static let endStreamFlag = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)
    static let ackFlag = UInt8(NGHTTP2_FLAG_ACK.rawValue)

    /// A new server session whose callbacks reach the handler behind `userData`; the caller owns it
    /// and must free it with `nghttp2_session_del`.
    static func makeServerSession(userData: UnsafeMutableRawPointer) throws -> OpaquePointer {
        var callbacks: OpaquePointer?
        var rv = nghttp2_session_callbacks_new(&callbacks)
        guard rv == 0, let callbacks else { throw NGHTTP2Error("nghttp2_session_callbacks_new", code: rv) }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_send_data_callback(callbacks, sendData)

        var options: OpaquePointer?
        rv = nghttp2_option_new(&options)
        guard rv == 0, let options else { throw NGHTTP2Error("nghttp2_option_new", code: rv) }
        defer { nghttp2_option_del(options) }
        // Closed streams are not kept for the priority tree (the server announces
        // SETTINGS_NO_RFC7540_PRIORITIES anyway).
        nghttp2_option_set_no_closed_streams(options, 1)
        // Receive windows reopen only as the layer above consumes request bytes (backpressure);
        // nghttp2 itself still consumes padding and the DATA it discards.
        nghttp2_option_set_no_auto_window_update(options, 1)

        var session: OpaquePointer?
        rv = nghttp2_session_server_new2(&session, callbacks, userData, options)
        guard rv == 0, let session else { throw NGHTTP2Error("nghttp2_session_server_new2", code: rv) }
        return session
    }

    /// The data source read callback given with every response that has a body.
    static let readData: nghttp2_data_source_read_callback = { _, streamID, _, length, flags, _, userData in
        withConnection(userData) { $0.nextFrameLength(streamID: streamID, maxLength: length, flags: &flags!.pointee) }
    }

    /// Calls `body` with the connection `userData` points at, without retaining it: nghttp2 calls back
    /// only from inside a call the connection itself made, so the connection is alive throughout.
    @inline(__always)
    private static func withConnection<Result>(
        _ userData: UnsafeMutableRawPointer?, _ body: (HTTP2ConnectionHandler) -> Result
    ) -> Result {
        Unmanaged<HTTP2ConnectionHandler>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
    }

    private static let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
        withConnection(userData) { $0.beginHeaders(frame!) }
    }

    private static let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
        withConnection(userData) { $0.receiveHeader(
            frame!, name: name!, nameLength: nameLength, value: value!, valueLength: valueLength) }
    }

    private static let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
        withConnection(userData) { $0.receiveDataChunk(streamID: streamID, data: data!, length: length) }
    }

    private static let onFrameReceived: nghttp2_on_frame_recv_callback = { _, frame, userData in
        withConnection(userData) { $0.receiveFrame(frame!) }
    }

    private static let onFrameSent: nghttp2_on_frame_send_callback = { _, frame, userData in
        withConnection(userData) { $0.frameSent(frame!) }
    }

    private static let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
        withConnection(userData) { $0.streamClosed(streamID: streamID, errorCode: errorCode) }
    }

    private static let sendData: nghttp2_send_data_callback = { _, frame, frameHeader, length, _, userData in
        withConnection(userData) { $0.sendDataFrame(frame!, frameHeader: frameHeader!, length: length) }
    }
}
