import SoukGRPC
import SoukMessages
import SoukStore

/// The one loop of the Watch RPCs over a streamed resource (`StateMachine.streamed`).
public enum LifecycleWatch {
    /// The id a Watch request names (in `field`) and its resume point, checked together so that
    /// one INVALID_ARGUMENT names every bad field.
    public static func target(_ id: String, field: String, resumeAfter: Int64) throws -> RecordID {
        var checks = FieldChecks()
        let recordID = try checks.run { try RequestFields.id(id, field: field) }
        checks.require(resumeAfter >= 0, "resume_after_sequence", "must not be negative")
        try checks.finish()
        return recordID!
    }

    /// Sends the resource as it is now first (its sequence is the stream's last), unless the call
    /// resumes after a sequence; then one event per change as it commits. The call ends once the
    /// resource is final, after the last event written so far, and at once when it resumes a
    /// final resource with nothing left to send.
    /// - `current`: the event for the resource as it is, and whether it is final.
    /// - `change`: the event for one stored change, with the resource as that change left it
    ///   (`LifecycleEvent.record`), and whether the resource was final then.
    public static func run<Event: Sendable>(
        _ stream: String, resumeAfter: Int64, store: Store, writer: RPCWriter<Event>,
        current: (_ sequence: UInt64) throws -> (event: Event, final: Bool),
        change: (StoredEvent, LifecycleEvent) throws -> (event: Event, final: Bool)
    ) async throws {
        guard resumeAfter >= 0 else { throw RPCError.invalidField("resume_after_sequence", "must not be negative") }
        var start = UInt64(resumeAfter)
        let last = try store.lastSequence(of: stream)
        if start == 0 {
            start = last
            let now = try current(start)
            try await writer.write(now.event)
            if now.final { return }
        } else if start >= last, try current(start).final {
            return
        }
        for try await stored in store.follow(stream, after: start) {
            let next = try change(stored, try LifecycleEvent(decoding: stored.payload))
            try await writer.write(next.event)
            if next.final, stored.sequence >= (try store.lastSequence(of: stream)) { return }
        }
    }
}
