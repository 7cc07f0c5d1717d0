import SoukGRPC
import SoukMessages

/// Collects every field violation of a request, so that one INVALID_ARGUMENT names them all
/// (AIP-193's BadRequest; the apps highlight every wrong field of a form at once).
///
///     var checks = FieldChecks()
///     let id = checks.run { try RequestFields.id(request.jobID, field: "job_id") }
///     checks.check { try Names.validate(request.givenName, field: "given_name") }
///     checks.require(request.loads > 0, "loads", "must be at least 1")
///     try checks.finish()          // throws when anything above failed
///     let jobID = id!              // every `run` value is set once `finish` returned
///
/// A check that throws anything but a field violation (NOT_FOUND, a store error) is rethrown at
/// once: only INVALID_ARGUMENT errors that name fields are collected.
public struct FieldChecks: Sendable {
    /// The violations so far, in the order the checks ran.
    public private(set) var violations: [FieldViolation] = []
    /// The reason of the first collected error (later ones may differ; the first wins).
    private var reason: SoukV1.ErrorReason?
    private var firstMetadata: [String: String] = [:]

    public init() {}

    /// True when no check failed so far.
    public var isEmpty: Bool { violations.isEmpty }

    /// Runs `check`; a field violation it throws is recorded and nil returned.
    public mutating func run<T>(_ check: () throws -> T) throws -> T? {
        do {
            return try check()
        } catch let error as RPCError where error.code == .invalidArgument && !error.fieldViolations.isEmpty {
            record(error)
            return nil
        }
    }

    /// Runs a check that returns nothing; a field violation it throws is recorded.
    public mutating func check(_ check: () throws -> Void) throws {
        _ = try run(check)
    }

    /// Records `problem` of `field` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ field: String, _ problem: String, reason: SoukV1.ErrorReason = .fieldInvalid) {
        if !condition { add(field, problem, reason: reason) }
    }

    /// Records one violation.
    public mutating func add(_ field: String, _ problem: String, reason: SoukV1.ErrorReason = .fieldInvalid) {
        record(RPCError.invalidField(field, problem, reason: reason))
    }

    /// Records the violations of an error raised elsewhere (a nested message's checks).
    public mutating func record(_ error: RPCError) {
        if reason == nil {
            reason = error.soukReason ?? .fieldInvalid
            firstMetadata = error.errorInfo?.metadata ?? [:]
        }
        violations.append(contentsOf: error.fieldViolations)
    }

    /// Throws one INVALID_ARGUMENT naming every violation; returns when there is none.
    public func finish() throws {
        if let error { throw error }
    }

    /// The error `finish` throws; nil when every check passed.
    public var error: RPCError? {
        guard let first = violations.first, let reason else { return nil }
        var metadata = firstMetadata
        metadata["field"] = first.field
        if violations.count > 1 { metadata["fields"] = violations.map(\.field).joined(separator: ",") }
        let message = violations.map { "\($0.field): \($0.description)" }.joined(separator: "; ")
        let info = GoogleRPC.ErrorInfo(reason: reason.reasonName, domain: soukErrorDomain, metadata: metadata)
        return RPCError(.invalidArgument, message, errorInfo: info, fieldViolations: violations)
    }
}
