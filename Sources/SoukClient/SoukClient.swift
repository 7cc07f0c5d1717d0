// # SoukClient
//
// The typed Swift client of the souk.v1 contract, over `SoukGRPCClient`'s nghttp2 transport.
//
// ```swift
// let channel = GRPCChannel(target: GRPCTarget(host: "localhost", port: 50051))
// let session = try await SoukSession.signIn(channel: channel, marketplaceID: aquaHub, email: email, password: password)
// let souk = session.client
// let services = try await souk.catalog.listServices(SoukV1.ListServicesRequest())
// let order = try await souk.orders.placeServiceOrder(request)   // request_id filled, marketplace_id filled
// for try await event in souk.orders.watchOrder(SoukV1.WatchOrderRequest(orderID: order.id)) { ... }
// ```
//
// - One async function per RPC, generated from the contract by `scripts/generate` into
//   `Contract/` (one struct per service, reached as `client.<service>`): unary RPCs return their
//   response; server streams are `SoukStream`s (an `AsyncSequence`, the call starts when iteration
//   does and is cancelled when it stops); client streams take a closure that sends the requests
//   and return the single response; bidirectional streams are open while a closure runs with a
//   `SoukBidiCall`.
// - Every request's empty `marketplace_id` is filled with the client's marketplace.
// - Watch RPCs (server streams whose events carry `sequence` and whose request takes
//   `resume_after_sequence`) are `SoukWatch`es: when the stream breaks (UNAVAILABLE: a dropped
//   connection or a server going away; RESOURCE_EXHAUSTED `READER_TOO_SLOW`; UNAUTHENTICATED
//   `TOKEN_EXPIRED` under a session, after a refresh) they reconnect with backoff and resume
//   after the last sequence delivered, so each event is seen once, in order (while the server is
//   unreachable they wait for it, `waitForReady`, until the consumer stops; ten breaks in a row
//   without an event between them end the stream with the last error). `EVENTS_EXPIRED`
//   (the resume point is older than the server keeps) ends them with a `SoukError` whose
//   `mustReload` is true: reload the resource and watch again.
// - Retries (unary calls only, on UNAVAILABLE: the connection dropped before the answer came, the
//   server was unreachable, or it said nothing was done; a RetryInfo delay is honoured, else
//   backoff from 100 ms, 5 attempts): RPCs that create with a `request_id` (AIP-155),
//   whose empty `request_id` is filled once with a fresh UUID so that every attempt carries the
//   same one and the server answers a repeat with the first result (a retried checkout never
//   doubles an order), and RPCs that only read (Get, List, Search, Estimate). Other RPCs are
//   never repeated by the client, nor are streaming calls other than Watch. Each generated
//   function's doc says which it is.
// - Errors are `SoukError`: the status code and message, the `ErrorInfo` reason (as
//   `SoukV1.ErrorReason` when it is one of souk.v1's), field violations, the RetryInfo delay and
//   the `LocalizedMessage` (in the account's language, else `accept-language`).
// - `SoukSession` signs in, sends the bearer token with every call, refreshes it in the background before it
//   expires and keeps the session when a refresh answer is lost; `SoukClient(channel:)` alone
//   is the guest client.

import Foundation
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Synchronization

/// The typed souk.v1 client: one property per service (`client.orders`, `client.catalog`, ...).
public final class SoukClient: Sendable {
    /// What every call goes through: the channel, the caller's credentials and defaults.
    public let transport: SoukTransport

    /// A client over `channel`: guest calls unless `credentials` sign them; `marketplaceID` fills
    /// every request's empty `marketplace_id`; `acceptLanguage` picks the language of error messages
    /// for guests (a signed-in account's own locale wins on the server).
    public convenience init(
        channel: GRPCChannel, marketplaceID: String = "", acceptLanguage: String? = nil, credentials: (any SoukCredentials)? = nil,
        retry: SoukRetryPolicy = SoukRetryPolicy()
    ) {
        self.init(transport: SoukTransport(channel: channel, marketplaceID: marketplaceID, acceptLanguage: acceptLanguage, credentials: credentials, retry: retry))
    }

    public init(transport: SoukTransport) {
        self.transport = transport
    }
}

/// Where a call's bearer token comes from (a `SoukSession`).
public protocol SoukCredentials: Sendable {
    /// The access token to send now (refreshed first if it is about to expire); nil for none.
    func accessToken() async throws -> String?
    /// The server refused `token` as expired: get a new one before the next call.
    func tokenRejected(_ token: String) async
}

/// How calls that are safe to repeat are retried, and Watch streams resumed.
public struct SoukRetryPolicy: Sendable {
    /// Attempts of a retried unary call, the first included.
    public var maxAttempts = 5
    /// Reconnections of a Watch stream in a row without an event between them before it gives up.
    public var maxWatchReconnects = 10
    /// Delays between attempts (a RetryInfo from the server takes precedence).
    public var backoff = ConnectionBackoff(initial: .milliseconds(100), multiplier: 2, jitter: 0.2, maximum: .seconds(10))

    public init() {}
}

/// Whether a unary RPC may be repeated after a dropped connection (the generated functions pass it).
public enum SoukRetry: Sendable {
    /// Repeating it does no harm: it only reads, or it carries a request_id.
    case idempotent
    /// It changes state without an idempotency key: never repeated by the client.
    case never
}

/// What every generated call goes through: the channel, credentials, defaults and retries.
public final class SoukTransport: Sendable {
    public let channel: GRPCChannel
    /// Fills every request's empty `marketplace_id`.
    public let marketplaceID: String
    public let acceptLanguage: String?
    public let credentials: (any SoukCredentials)?
    public let retry: SoukRetryPolicy
    /// Watch streams resumed after a break, by the break's ErrorInfo reason (its status code when
    /// it has none): READER_TOO_SLOW, TOKEN_EXPIRED, UNAVAILABLE, ...
    public var watchResumes: [String: Int] { resumes.withLock { $0 } }
    private let resumes = Mutex<[String: Int]>([:])

    public init(
        channel: GRPCChannel, marketplaceID: String = "", acceptLanguage: String? = nil, credentials: (any SoukCredentials)? = nil,
        retry: SoukRetryPolicy = SoukRetryPolicy()
    ) {
        self.channel = channel
        self.marketplaceID = marketplaceID
        self.acceptLanguage = acceptLanguage
        self.credentials = credentials
        self.retry = retry
    }

    /// Fills an empty `marketplace_id` with the client's marketplace.
    public func scope(_ marketplaceID: inout String) {
        if marketplaceID.isEmpty { marketplaceID = self.marketplaceID }
    }

    /// Fills an empty `request_id` with a fresh UUID, once: retries reuse the request as filled.
    public func identify(_ requestID: inout String) {
        if requestID.isEmpty { requestID = UUID().uuidString.lowercased() }
    }

    /// The options of one attempt: the caller's, with the bearer token and language added (the
    /// caller's own `authorization` or `accept-language` metadata wins). Returns the token sent.
    func prepared(_ options: CallOptions) async throws -> (CallOptions, String?) {
        var options = options
        var token: String?
        if options.metadata["authorization"] == nil, let credentials {
            token = try await credentials.accessToken()
            if let token { options.metadata.add("authorization", "Bearer \(token)") }
        }
        if let acceptLanguage, options.metadata["accept-language"] == nil {
            options.metadata.add("accept-language", acceptLanguage)
        }
        return (options, token)
    }

    /// Whether the server refused `token` as unknown because a refresh replaced it while the call
    /// was on its way (the server knows only a session's newest access token): then nothing was
    /// done, and the call is made again with the new one.
    func replacedOnTheWay(_ failure: SoukError, _ token: String?) async -> Bool {
        guard failure.code == .unauthenticated, failure.reason == .tokenInvalid, let token, let credentials else { return false }
        guard let current = try? await credentials.accessToken() else { return false }
        return current != token
    }

    /// A unary call, repeated as `retry` allows: on UNAVAILABLE (the transport's dropped
    /// connections and the server's "nothing was done") after the RetryInfo delay or a backoff,
    /// and once after an expired token was refreshed or a token replaced on the way. A call the
    /// server refused unexecuted (OVERLOADED) is repeated whatever `retry` says.
    public func unary<Request: ProtoMessage, Response: ProtoMessage>(
        _ path: String, _ request: Request, as: Response.Type, retry: SoukRetry, options: CallOptions
    ) async throws -> Response {
        var attempt = 1
        var delays = self.retry.backoff.delays()
        var refreshed = false
        // Every send, a resend after a token refresh included, tells the server how many came before.
        var sent = 0
        while true {
            let (prepared, token) = try await prepared(options)
            var attemptOptions = prepared
            attemptOptions.previousAttempts = sent
            sent += 1
            do {
                return try await channel.unary(path, request, as: Response.self, options: attemptOptions).message
            } catch let error as RPCError {
                let failure = SoukError(error)
                if failure.isExpiredToken, let token, let credentials, !refreshed {
                    refreshed = true
                    await credentials.tokenRejected(token)
                    continue
                }
                if !refreshed, await replacedOnTheWay(failure, token) {
                    refreshed = true
                    continue
                }
                guard failure.allowsRetry(retry), attempt < self.retry.maxAttempts else { throw failure }
                attempt += 1
                try await Task.sleep(for: failure.retryDelay ?? delays.next())
            } catch is CancellationError {
                throw SoukError(RPCError(.cancelled, "the call was cancelled"))
            }
        }
    }

    /// A server stream: the call starts when iteration does.
    public func serverStream<Request: ProtoMessage, Response: ProtoMessage>(
        _ path: String, _ request: Request, as: Response.Type, options: CallOptions
    ) -> SoukStream<Response> {
        SoukStream { feed in
            let (attemptOptions, _) = try await self.prepared(options)
            try await self.channel.serverStreaming(path, request, options: attemptOptions) { call in
                for try await response in call.responses(as: Response.self) {
                    guard await feed.deliver(response) else { return }
                }
            }
        }
    }

    /// A Watch stream, resumed after the last event delivered when it breaks (see `SoukWatch`).
    public func watch<Request: ProtoMessage, Event: ProtoMessage>(
        _ path: String, _ request: Request, as: Event.Type, options: CallOptions,
        sequence: @escaping @Sendable (Event) -> Int64, resumeAfter: @escaping @Sendable (inout Request, Int64) -> Void
    ) -> SoukWatch<Event> {
        SoukStream { feed in
            var request = request
            var last: Int64?
            var failures = 0
            var delays = self.retry.backoff.delays()
            while true {
                if let last { resumeAfter(&request, last) }
                var attemptOptions = options
                // After a break, wait for the server to be back rather than failing at once.
                if failures > 0 { attemptOptions.waitForReady = true }
                let (prepared, token) = try await self.prepared(attemptOptions)
                do {
                    try await self.channel.serverStreaming(path, request, options: prepared) { call in
                        for try await event in call.responses(as: Event.self) {
                            let position = sequence(event)
                            // A replay of what was delivered before the break is skipped.
                            if position > 0, let last, position <= last { continue }
                            // The consumer stopped listening: the call is cancelled on return.
                            guard await feed.deliver(event) else { return }
                            if position > 0 { last = position }
                            failures = 0
                            delays = self.retry.backoff.delays()
                        }
                    }
                    // Ended by the server (OK) or by the consumer.
                    return
                } catch let error as RPCError {
                    let failure = SoukError(error)
                    let replaced = await self.replacedOnTheWay(failure, token)
                    guard failure.resumesWatch || replaced, failures < self.retry.maxWatchReconnects else { throw failure }
                    failures += 1
                    self.resumes.withLock { $0[failure.reasonName.isEmpty ? "\(failure.code)" : failure.reasonName, default: 0] += 1 }
                    if failure.isExpiredToken, let token, let credentials = self.credentials {
                        await credentials.tokenRejected(token)
                    } else if !replaced {
                        try await Task.sleep(for: failure.retryDelay ?? delays.next())
                    }
                }
            }
        }
    }

    /// A client stream: `body` sends the requests through the sender; returns the response.
    public func clientStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ path: String, as: Response.Type, options: CallOptions, prepare: (@Sendable (inout Request) -> Void)?,
        isolation: isolated (any Actor)? = #isolation, _ body: (SoukRequestSender<Request>) async throws -> Void
    ) async throws -> Response {
        let (prepared, _) = try await self.prepared(options)
        do {
            return try await channel.clientStreaming(path, as: Response.self, options: prepared) { call in
                try await body(SoukRequestSender(call: call, prepare: prepare))
            }.message
        } catch let error as RPCError {
            throw SoukError(error)
        }
    }

    /// A bidirectional stream, open while `body` runs.
    public func bidirectional<Request: ProtoMessage, Response: ProtoMessage, Result>(
        _ path: String, as: Response.Type, options: CallOptions, prepare: (@Sendable (inout Request) -> Void)?,
        isolation: isolated (any Actor)? = #isolation, _ body: (SoukBidiCall<Request, Response>) async throws -> Result
    ) async throws -> Result {
        let (prepared, _) = try await self.prepared(options)
        do {
            return try await channel.withCall(path, options: prepared) { call in
                try await body(SoukBidiCall(sender: SoukRequestSender(call: call, prepare: prepare), call: call))
            }
        } catch let error as RPCError {
            throw SoukError(error)
        }
    }
}

/// Sends the requests of a client or bidirectional stream.
public struct SoukRequestSender<Request: ProtoMessage>: Sendable {
    let call: ClientCall
    let prepare: (@Sendable (inout Request) -> Void)?

    /// Sends one request (its empty `marketplace_id` filled); waits while flow control holds it back.
    public func send(_ request: Request) async throws {
        var request = request
        prepare?(&request)
        do {
            try await call.send(request)
        } catch let error as RPCError {
            throw SoukError(error)
        }
    }
}

/// A bidirectional call in progress: send requests, read responses.
public struct SoukBidiCall<Request: ProtoMessage, Response: ProtoMessage>: Sendable {
    let sender: SoukRequestSender<Request>
    let call: ClientCall

    /// Sends one request.
    public func send(_ request: Request) async throws {
        try await sender.send(request)
    }

    /// Ends the requests (half-close); responses go on.
    public func finishSending() {
        call.finishSending()
    }

    /// The responses, in order; iteration throws a `SoukError` when the call fails.
    public var responses: SoukResponses<Response> {
        SoukResponses(messages: call.responses(as: Response.self))
    }
}

/// The responses of a bidirectional call, with errors as `SoukError`s.
public struct SoukResponses<Element: ProtoMessage>: AsyncSequence, Sendable {
    let messages: ResponseMessages<Element>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: messages.makeAsyncIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: ResponseMessages<Element>.AsyncIterator

        public mutating func next() async throws -> Element? {
            do {
                return try await base.next()
            } catch let error as RPCError {
                throw SoukError(error)
            }
        }
    }
}
