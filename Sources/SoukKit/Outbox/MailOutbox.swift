import SoukAccess
import SoukMessages
import SoukStore

/// One outgoing mail and the marketplace it belongs to.
package struct MailRecord: Sendable {
    package var marketplaceID: String
    package var message: SoukV1.MailMessage
}

package enum MailTable {
    package static let byMarketplace = Index<MailRecord>.nonUnique("mail.marketplace") { [.string($0.marketplaceID)] }
    package static let byStatus = Index<MailRecord>.nonUnique("mail.status") { [.string($0.marketplaceID), .enumCase($0.message.status)] }
    /// By recipient, its address lower-cased (an admin looks up what was sent to one person).
    package static let byRecipient = Index<MailRecord>.nonUnique("mail.recipient") {
        [.string($0.marketplaceID), .string(recipientKey($0.message.toAddress))]
    }
    package static let byKind = Index<MailRecord>.nonUnique("mail.kind") { [.string($0.marketplaceID), .enumCase($0.message.kind)] }

    /// How an address is compared: case-insensitively.
    package static func recipientKey(_ address: String) -> String { address.lowercased() }

    /// Not converted yet: stores the contract message `souk.v1.MailMessage` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    package static let table = Table(
        "mail_outbox",
        codec: FieldCodec.marketplaceMessage(SoukV1.MailMessage.self, split: { ($0.marketplaceID, $0.message) }, make: MailRecord.init),
        indexes: [byMarketplace, byStatus, byRecipient, byKind])
}

/// Mail waiting for the mail adapter (which sends it and reports with `Admin.CompleteMail`).
public enum MailOutbox {
    /// The body admins see for secret-bearing kinds.
    public static let redacted = "[redacted]"

    /// Queues a mail as PENDING in the transaction; returns its id.
    @discardableResult
    public static func enqueue(
        in transaction: Transaction, marketplaceID: String, kind: SoukV1.MailKind, to address: String,
        accountID: String, subject: String, body: String
    ) throws -> RecordID {
        let message = SoukV1.MailMessage(
            kind: kind, toAddress: address, accountID: accountID, subject: subject, body: body, status: .pending)
        return try transaction.insert(MailTable.table, MailRecord(marketplaceID: marketplaceID, message: message)).id
    }

    /// Whether a kind's body carries a secret (shown only to operators).
    package static func carriesSecret(_ kind: SoukV1.MailKind) -> Bool {
        kind == .passwordReset || kind == .emailVerification
    }
}

extension StoredRecord where Value == MailRecord {
    /// The contract's view; secret bodies redacted unless `revealSecrets`.
    package func apiMessage(revealSecrets: Bool) -> SoukV1.MailMessage {
        var message = value.message
        message.id = id.description
        message.version = Int64(version)
        message.createTime = Timestamp(createdAt)
        if !revealSecrets, MailOutbox.carriesSecret(message.kind) { message.body = MailOutbox.redacted }
        return message
    }
}
