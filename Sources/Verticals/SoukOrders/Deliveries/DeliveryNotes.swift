import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The free text of a delivery's moves (a delay's note, a rejection's or cancellation's reason).
enum DeliveryNotes {
    /// `text` trimmed; INVALID_ARGUMENT naming `field` when it is over 1000 characters, or empty
    /// and `required`.
    static func text(_ text: String, field: String, required: Bool = false) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !required || !trimmed.isEmpty else { throw RPCError.invalidField(field, "is required") }
        guard trimmed.count <= 1000 else { throw RPCError.invalidField(field, "must be at most 1000 characters") }
        return trimmed
    }
}

/// The fields of the requests that move one delivery, each checked with the others so that one
/// INVALID_ARGUMENT names every wrong field (FieldChecks).
package enum DeliveryFields {
    /// `delivery_id`, a free text `field` when given, and `expected_version` (nil: no check).
    package static func checked(_ deliveryID: String, _ expectedVersion: Int64, text: String? = nil, field: String = "note", required: Bool = false)
        throws -> (id: RecordID, expected: UInt64?, text: String)
    {
        var checks = FieldChecks()
        let id = try checks.run { try RequestFields.id(deliveryID, field: "delivery_id") }
        let note = try text.flatMap { text in try checks.run { try DeliveryNotes.text(text, field: field, required: required) } }
        let expected = try checks.run { try RequestFields.expectedVersion(expectedVersion) }
        try checks.finish()
        return (id!, expected!, note ?? "")
    }

    /// `delivery_id` and `expected_version`.
    package static func move(_ deliveryID: String, _ expectedVersion: Int64) throws -> (id: RecordID, expected: UInt64?) {
        let (id, expected, _) = try checked(deliveryID, expectedVersion)
        return (id, expected)
    }

    /// CancelDelivery's fields: the reason is required.
    package static func cancel(_ request: SoukV1.CancelDeliveryRequest) throws -> (id: RecordID, expected: UInt64?, reason: String) {
        let (id, expected, reason) = try checked(request.deliveryID, request.expectedVersion, text: request.reason, field: "reason", required: true)
        return (id, expected, reason)
    }
}
