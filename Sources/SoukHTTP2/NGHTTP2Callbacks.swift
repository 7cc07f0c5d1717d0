import CNGHTTP2

/// Creates nghttp2 server and client sessions and routes nghttp2's C callbacks to the handler passed
/// as the session's user data: an `HTTP2ConnectionHandler` (server) or an `HTTP2ClientSession`
/// (client), unretained, since the handler owns the session and outlives it.
enum NGHTTP2Callbacks {
    static let dataFrame = UInt8(NGHTTP2_DATA.rawValue)
    static let headersFrame = UInt8(NGHTTP2_HEADERS.rawValue)
    static let rstStreamFrame = UInt8(NGHTTP2_RST_STREAM.rawValue)
    static let settingsFrame = UInt8(NGHTTP2_SETTINGS.rawValue)
    static let pingFrame = UInt8(NGHTTP2_PING.rawValue)
    static let goAwayFrame = UInt8(NGHTTP2_GOAWAY.rawValue)
    static let windowUpdateFrame = UInt8(NGHTTP2_WINDOW_UPDATE.rawValue)
    static let endStreamFlag = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)
    static let ackFlag = UInt8(NGHTTP2_FLAG_ACK.rawValue)

    /// A new server session whose callbacks reach the handler behind `userData`; the caller owns it
    /// and must free it with `nghttp2_session_del`.
    static func makeServerSession(userData: UnsafeMutableRawPointer) throws -> OpaquePointer {
        var callbacks: OpaquePointer?
        let rv = nghttp2_session_callbacks_new(&callbacks)
        guard rv == 0, let callbacks else { throw NGHTTP2Error("nghttp2_session_callbacks_new", code: rv) }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_send_data_callback(callbacks, sendData)

        return try withSessionOptions { options in
            var session: OpaquePointer?
            let rv = nghttp2_session_server_new2(&session, callbacks, userData, options)
            guard rv == 0, let session else { throw NGHTTP2Error("nghttp2_session_server_new2", code: rv) }
            return session
        }
    }

    /// The options both sides' sessions use, for the duration of `body`.
    private static func withSessionOptions(_ body: (OpaquePointer) throws -> OpaquePointer) throws -> OpaquePointer {
        var options: OpaquePointer?
        let rv = nghttp2_option_new(&options)
        guard rv == 0, let options else { throw NGHTTP2Error("nghttp2_option_new", code: rv) }
        defer { nghttp2_option_del(options) }
        // Closed streams are not kept for the priority tree (both sides announce
        // SETTINGS_NO_RFC7540_PRIORITIES anyway).
        nghttp2_option_set_no_closed_streams(options, 1)
        // Receive windows reopen only as the layer above consumes the bytes received
        // (backpressure); nghttp2 itself still consumes padding and the DATA it discards.
        nghttp2_option_set_no_auto_window_update(options, 1)
        return try body(options)
    }

    /// Submits a session's first SETTINGS frame and opens its connection receive window.
    static func submitInitialSettings(
        _ session: OpaquePointer?, _ entries: [(nghttp2_settings_id, Int)], connectionWindowSize: Int
    ) throws {
        let settings = entries.map { id, value in
            nghttp2_settings_entry(settings_id: Int32(id.rawValue), value: UInt32(clamping: value))
        }
        var rv = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), settings, settings.count)
        guard rv == 0 else { throw NGHTTP2Error("nghttp2_submit_settings", code: rv) }
        rv = nghttp2_session_set_local_window_size(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(clamping: connectionWindowSize))
        guard rv == 0 else { throw NGHTTP2Error("nghttp2_session_set_local_window_size", code: rv) }
    }

    /// A new client session whose callbacks reach the `HTTP2ClientSession` behind `userData`; the
    /// caller owns it and must free it with `nghttp2_session_del`.
    static func makeClientSession(userData: UnsafeMutableRawPointer) throws -> OpaquePointer {
        var callbacks: OpaquePointer?
        let rv = nghttp2_session_callbacks_new(&callbacks)
        guard rv == 0, let callbacks else { throw NGHTTP2Error("nghttp2_session_callbacks_new", code: rv) }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, Client.onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, Client.onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, Client.onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, Client.onFrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, Client.onStreamClose)
        nghttp2_session_callbacks_set_send_data_callback(callbacks, Client.sendData)
        return try withSessionOptions { options in
            var session: OpaquePointer?
            let rv = nghttp2_session_client_new2(&session, callbacks, userData, options)
            guard rv == 0, let session else { throw NGHTTP2Error("nghttp2_session_client_new2", code: rv) }
            return session
        }
    }

    /// The client session's callbacks, routed to `HTTP2ClientSession` as the server's are to
    /// `HTTP2ConnectionHandler`.
    enum Client {
        /// The data source read callback given with every request that has a body.
        static let readData: nghttp2_data_source_read_callback = { _, streamID, _, length, flags, _, userData in
            withSession(userData) { $0.nextFrameLength(streamID: streamID, maxLength: length, flags: &flags!.pointee) }
        }

        @inline(__always)
        private static func withSession<Result>(
            _ userData: UnsafeMutableRawPointer?, _ body: (HTTP2ClientSession) -> Result
        ) -> Result {
            Unmanaged<HTTP2ClientSession>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
        }

        static let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
            withSession(userData) { $0.beginHeaders(frame!) }
        }

        static let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
            withSession(userData) { $0.receiveHeader(
                frame!, name: name!, nameLength: nameLength, value: value!, valueLength: valueLength) }
        }

        static let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
            withSession(userData) { $0.receiveDataChunk(streamID: streamID, data: data!, length: length) }
        }

        static let onFrameReceived: nghttp2_on_frame_recv_callback = { _, frame, userData in
            withSession(userData) { $0.receiveFrame(frame!) }
        }

        static let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
            withSession(userData) { $0.streamClosed(streamID: streamID, errorCode: errorCode) }
        }

        static let sendData: nghttp2_send_data_callback = { _, frame, frameHeader, length, _, userData in
            withSession(userData) { $0.sendDataFrame(frame!, frameHeader: frameHeader!, length: length) }
        }
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
