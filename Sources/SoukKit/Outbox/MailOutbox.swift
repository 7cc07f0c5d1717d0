import SoukAccess
import SoukMessages
import SoukStore

/// One outgoing mail as stored: its own record (`souk.store.v1.MailMessage`, without the id,
/// version and time, which the envelope holds) and its marketplace. Admins read it through
/// `MailProjection`.
package typealias MailRecord = MarketRecord<SoukStoreV1.MailMessage>

package enum MailTable {
    package static let byMarketplace = Index<MailRecord>.nonUnique("mail.marketplace") { [.string($0.marketplaceID)] }
    package static let byStatus = Index<MailRecord>.nonUnique("mail.status") { [.string($0.marketplaceID), .enumCase($0.subject.status)] }
    /// By recipient, its address lower-cased (an admin looks up what was sent to one person).
    package static let byRecipient = Index<MailRecord>.nonUnique("mail.recipient") {
        [.string($0.marketplaceID), .string(recipientKey($0.subject.toAddress))]
    }
    package static let byKind = Index<MailRecord>.nonUnique("mail.kind") { [.string($0.marketplaceID), .enumCase($0.subject.kind)] }

    /// How an address is compared: case-insensitively.
    package static func recipientKey(_ address: String) -> String { address.lowercased() }

    package static let table = marketTable("mail_outbox", SoukStoreV1.MailMessage.self, indexes: [byMarketplace, byStatus, byRecipient, byKind])
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
        let message = SoukStoreV1.MailMessage(
            kind: kind, toAddress: address, accountID: accountID, subject: subject, body: body, status: .pending)
        return try transaction.insert(MailTable.table, MailRecord(marketplaceID: marketplaceID, message)).id
    }

    /// Whether a kind's body carries a secret (shown only to operators).
    package static func carriesSecret(_ kind: SoukV1.MailKind) -> Bool {
        kind == .passwordReset || kind == .emailVerification
    }
}

/// What admins see of a stored mail: the contract's `MailMessage`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names it).
package enum MailProjection {
    /// The mail; a secret-bearing body is shown only when `revealSecrets` (operators).
    package static func message(_ record: StoredRecord<MailRecord>, revealSecrets: Bool) -> SoukV1.MailMessage {
        let mail = record.value.subject
        var shown = SoukV1.MailMessage()
        shown.id = record.id.description
        shown.version = Int64(record.version)
        shown.createTime = Timestamp(record.createdAt)
        shown.kind = mail.kind
        shown.toAddress = mail.toAddress
        shown.accountID = mail.accountID
        shown.subject = mail.subject
        shown.body = revealSecrets || !MailOutbox.carriesSecret(mail.kind) ? mail.body : MailOutbox.redacted
        shown.status = mail.status
        shown.attempts = mail.attempts
        shown.lastError = mail.lastError
        shown.sendTime = mail.sendTime
        return shown
    }
}
