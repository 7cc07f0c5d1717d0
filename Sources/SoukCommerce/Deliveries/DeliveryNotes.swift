import Foundation
import SoukGRPC

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
