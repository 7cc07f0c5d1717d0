import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The push adapter's side of `souk.v1.Notifications`: the platform-wide push outbox, listed
/// and completed. Only the push_adapter role passes their Access lines; requests name no
/// marketplace (the outbox holds every marketplace's pushes).
struct PushAdapterService {
    let store: Store

    static let maxErrorCharacters = 1000

    /// Pending first, then sent, then failed; each oldest first.
    func list(_ request: SoukV1.ListPushOutboxRequest, _ call: SoukCall) async throws -> SoukV1.ListPushOutboxResponse {
        var checks = FieldChecks()
        for (index, status) in request.statuses.enumerated() where ![.pending, .sent, .failed].contains(status) {
            checks.add("statuses[\(index)]", "must be PENDING, SENT or FAILED")
        }
        let wanted = Set(request.statuses.map(\.rawValue))
        let filters = "statuses=\(wanted.sorted().map(String.init).joined(separator: ","))"
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        var range = IndexRange()
        if let low = wanted.min(), let high = wanted.max() {
            range = IndexRange(
                lower: RangeBound([.enumCase(low)], inclusive: true), upper: RangeBound([.enumCase(high)], inclusive: true))
        }
        let result = try store.list(PushOutbox.table, PushOutbox.byStatus, range, page: page ?? PageRequest())
        // A filter that skips a status in between (PENDING and FAILED) narrows the page.
        let items = result.items.filter { wanted.isEmpty || wanted.contains($0.value.subject.status.rawValue) }
        return SoukV1.ListPushOutboxResponse(
            messages: items.map(PushOutbox.message), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// Records the outcome of one push; a token the service refused unregisters its device.
    /// Reporting the same outcome again answers the push as it is.
    func complete(_ request: SoukV1.CompletePushRequest, _ call: SoukCall) async throws -> SoukV1.PushMessage {
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.id(request.pushID, field: "push_id") }
        checks.require(request.status == .sent || request.status == .failed, "status", "must be SENT or FAILED")
        if request.status == .failed {
            checks.require(!request.error.isEmpty, "error", "is required when the push FAILED")
        } else {
            checks.require(request.error.isEmpty, "error", "is only for a push that FAILED")
        }
        checks.require(request.error.count <= Self.maxErrorCharacters, "error", "must be at most \(Self.maxErrorCharacters) characters")
        checks.require(!request.tokenInvalid || request.status == .failed, "token_invalid", "needs status FAILED")
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        try checks.finish()
        guard let id = checkedID else { throw RPCError.invalidField("push_id", "is required") }
        let stored = try await store.write { transaction -> StoredRecord<PushRecord> in
            guard let current = try transaction.get(PushOutbox.table, id) else { throw RPCError.notFound("push", id.description) }
            let push = current.value.subject
            guard push.status == .pending else {
                // A retry of the report that completed it gets the push as it is.
                if push.status == request.status, request.status == .sent || push.lastError == request.error { return current }
                throw RPCError.souk(
                    .failedPrecondition, .pushAlreadyCompleted, "push \(id) was already reported \(push.status.protoName)",
                    metadata: ["status": push.status.protoName])
            }
            let updated = try transaction.update(PushOutbox.table, id, expectedVersion: expected) { record in
                record.subject.status = request.status
                record.subject.attempts += 1
                record.subject.lastError = request.error
                record.subject.sendTime = Timestamp(transaction.now)
            }
            if request.tokenInvalid, let deviceID = RecordID(push.deviceID),
               let device = try transaction.get(DeviceTable.table, deviceID), device.value.subject.token == push.token {
                try transaction.delete(DeviceTable.table, deviceID)
                try PushOutbox.withdrawPending(deviceID: deviceID, transaction: transaction)
            }
            return updated
        }
        return PushOutbox.message(stored)
    }
}
