/// The compression choice for the single response message of a unary or client-streaming call
/// (streaming responses choose per message with `RPCWriter.write(_:compress:)`).
enum ResponseCompressionKey: ServerContextKey {
    typealias Value = Bool
}

extension ServerContext {
    /// Whether to compress this call's response message: nil leaves it to the call's default
    /// (the negotiated `grpc-encoding`); true compresses it, false sends it uncompressed.
    /// Only the response of a unary or client-streaming call reads it.
    public var compressResponse: Bool? {
        get { self[ResponseCompressionKey.self] }
        set { self[ResponseCompressionKey.self] = newValue }
    }
}
