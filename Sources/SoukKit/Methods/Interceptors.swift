import Logging
import SoukAccess
import SoukGRPC
import SoukMessages

/// Resolves the `authorization: Bearer <token>` metadata of contract calls to a `Caller`
/// (attached under `CallerKey`). A refused token is kept under `AuthenticationFailureKey` for
/// `AuthorizationInterceptor` to decide on: this interceptor does not end a call over a token.
/// Only a token that cannot be checked (the store failed) ends the call, INTERNAL or UNAVAILABLE.
/// Calls outside the contract (health, reflection) are passed through untouched.
public struct AuthenticationInterceptor: ServerInterceptor {
    let authenticator: any TokenAuthenticator
    let rules: AccessRules
    let logger: Logger

    public init(authenticator: any TokenAuthenticator, rules: AccessRules, logger: Logger = Logger(label: "souk.access")) {
        self.authenticator = authenticator
        self.rules = rules
        self.logger = logger
    }

    public func callStarted(_ context: ServerContext) throws(RPCError) {
        guard let header = context.requestMetadata["authorization"], rules.rule(for: context.method) != nil else { return }
        do {
            guard let token = Self.bearerToken(header) else {
                throw RPCError.souk(.unauthenticated, .tokenInvalid, "the authorization metadata must be \"Bearer <access token>\"")
            }
            context[CallerKey.self] = try authenticator.caller(forAccessToken: token)
        } catch let error as RPCError {
            context[AuthenticationFailureKey.self] = error
        } catch {
            throw (rpcError(from: error, logger: logger) as? RPCError) ?? RPCError(.internalError, "internal error")
        }
    }

    /// The token of `Bearer <token>` (the scheme is case-insensitive); nil when malformed.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}

/// Checks every contract call against its Access line before the handler runs:
/// UNAUTHENTICATED without a valid token where guests are not allowed, PERMISSION_DENIED when
/// the caller holds none of the allowed roles as active. Ownership and marketplace checks need
/// the request and happen in `SoukMethodBuilder`.
public struct AuthorizationInterceptor: ServerInterceptor {
    let rules: AccessRules

    public init(rules: AccessRules) {
        self.rules = rules
    }

    public func callStarted(_ context: ServerContext) throws(RPCError) {
        guard let rule = rules.rule(for: context.method) else { return }
        _ = try authorize(rule, context)
    }

    static func deniedMessage(_ method: MethodDescriptor, _ rule: AccessRule, _ reason: SoukV1.ErrorReason) -> String {
        let allowed = rule.description.dropFirst("Access: ".count).dropLast()
        if reason == .rolePending {
            return "\(method) needs a role that is still pending approval (allowed: \(allowed))"
        }
        return "\(method) is not allowed for the caller's roles (allowed: \(allowed))"
    }
}
