import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing
@testable import SoukAccess

/// Souk's side of AIP-193: reasons, the mapping of store errors, and the localized message in
/// the caller's language.
@Suite struct ErrorStatusTests {
    let completer: SoukErrorStatus

    init() throws {
        completer = SoukErrorStatus(rules: try AccessRules.contract())
    }

    func context(method: String = "souk.v1.Accounts/GetMe", acceptLanguage: String? = nil, accountLocale: String? = nil) -> ServerContext {
        var metadata = Metadata()
        if let acceptLanguage { metadata.add("accept-language", acceptLanguage) }
        let parts = method.split(separator: "/")
        let context = ServerContext(
            method: MethodDescriptor(service: String(parts[0]), method: String(parts[1])), requestMetadata: metadata, peer: "test",
            deadline: nil)
        if let accountLocale {
            context[CallerKey.self] = Caller(
                accountID: RecordID(high: 1, low: 1), marketplaceID: RecordID(high: 1, low: 2), sessionID: RecordID(high: 1, low: 3),
                activeRoles: [.customer], locale: accountLocale)
        }
        return context
    }

    func completed(_ error: RPCError, _ context: ServerContext) -> RPCError {
        var error = error
        completer.complete(&error, context: context)
        return error
    }

    @Test func reasonsAreTheContractNamesWithoutPrefix() {
        #expect(SoukV1.ErrorReason.staleVersion.reasonName == "STALE_VERSION")
        #expect(SoukV1.ErrorReason.requestIDReused.reasonName == "REQUEST_ID_REUSED")
        for reason in SoukV1.ErrorReason.allCases {
            #expect(SoukV1.ErrorReason(reasonName: reason.reasonName) == reason)
        }
        #expect(SoukV1.ErrorReason(reasonName: "NO_SUCH_REASON") == nil)
    }

    @Test func domainErrorsKeepTheirReasonAndGetTheCallersLanguage() {
        let error = RPCError.staleVersion("account", "a1", expected: 3, actual: 4)
        #expect(error.code == .aborted && error.message == "account a1 is at version 4, not 3; read it again")
        let sent = completed(error, context(acceptLanguage: "fr-CH, vi;q=0.8, ar;q=0.5"))
        #expect(sent.errorInfo == GoogleRPC.ErrorInfo(
            reason: "STALE_VERSION", domain: "souk.v1", metadata: ["resource_type": "account", "resource_id": "a1", "current_version": "4"]))
        #expect(sent.localizedMessage == GoogleRPC.LocalizedMessage(locale: "vi", message: SoukV1.ErrorReason.staleVersion.userMessage(in: .vietnamese)))
        #expect(sent.message == error.message)
    }

    @Test func theAccountLocaleComesFirstThenAcceptLanguageThenEnglish() {
        let error = RPCError.souk(.permissionDenied, .notAllowed, "no")
        #expect(completed(error, context(acceptLanguage: "vi", accountLocale: "ar-SA")).localizedMessage?.locale == "ar")
        #expect(completed(error, context(acceptLanguage: "vi", accountLocale: "fr")).localizedMessage?.locale == "vi")
        #expect(completed(error, context(acceptLanguage: "vi", accountLocale: "")).localizedMessage?.locale == "vi")
        #expect(completed(error, context(acceptLanguage: "de, *")).localizedMessage
            == GoogleRPC.LocalizedMessage(locale: "en", message: "You do not have permission to do this."))
        #expect(completed(error, context()).localizedMessage?.locale == "en")
    }

    @Test(arguments: [
        ("ar", ErrorLanguage.arabic),
        ("VI-vn", .vietnamese),
        ("fr-CH, fr;q=0.9, en;q=0.8, ar;q=0.7", .english),
        ("ar;q=0.5, vi;q=0.9", .vietnamese),
        ("en;q=0.8 , ar;q=0.8", .english),
        (" vi ; q=0 , ar", .arabic),
        ("zh_TW", nil),
        ("*", nil),
        ("", nil),
    ] as [(String, ErrorLanguage?)])
    func acceptLanguagePrefersTheHighestQualityThenTheFirstListed(header: String, expected: ErrorLanguage?) {
        #expect(ErrorLanguage.preferred(acceptLanguage: header) == expected)
    }

    @Test func errorsRaisedWithoutAReasonGetOneByTheirCode() {
        let timedOut = completed(RPCError(.deadlineExceeded, "deadline exceeded"), context(acceptLanguage: "ar"))
        #expect(timedOut.errorInfo == GoogleRPC.ErrorInfo(reason: "DEADLINE_EXCEEDED", domain: "souk.v1"))
        #expect(timedOut.localizedMessage?.message == SoukV1.ErrorReason.deadlineExceeded.userMessage(in: .arabic))
        #expect(completed(RPCError(.internalError, "could not decode request"), context()).soukReason == .internalError)
        #expect(completed(RPCError.invalidArgument(field: "x", "bad"), context()).soukReason == .fieldInvalid)
    }

    @Test func callsOutsideTheContractAreLeftAlone() {
        let error = RPCError(.notFound, "unknown service")
        #expect(completed(error, context(method: "grpc.health.v1.Health/Check", acceptLanguage: "ar")) == error)
    }

    @Test func storeErrorsMapToReasons() throws {
        let conflict = try #require(rpcError(from: StoreError.conflict("commit: Resource busy")) as? RPCError)
        #expect(conflict.code == .aborted && conflict.soukReason == .concurrentChange)
        let id = RecordID(high: 1, low: 2)
        let stale = try #require(rpcError(from: StoreError.versionMismatch(table: "addresses", id: id, expected: 1, actual: 2)) as? RPCError)
        #expect(stale.soukReason == .staleVersion && stale.errorInfo?.metadata["resource_type"] == "address")
        let missing = try #require(rpcError(from: StoreError.notFound(table: "accounts", id: id)) as? RPCError)
        #expect(missing.code == .notFound && missing.soukReason == .resourceNotFound)
        #expect(missing.errorInfo?.metadata == ["resource_type": "account", "resource_id": id.description])
        let closed = try #require(rpcError(from: StoreError.closed) as? RPCError)
        #expect(closed.code == .unavailable && closed.soukReason == .unavailable)
        struct Unexpected: Error {}
        #expect((rpcError(from: Unexpected()) as? RPCError)?.soukReason == .internalError)
    }

    @Test func everyReasonHasItsOwnSentenceInEveryLanguage() {
        let reasons = SoukV1.ErrorReason.allCases
        for language in ErrorLanguage.allCases {
            let sentences = reasons.map { $0.userMessage(in: language) }
            #expect(Set(sentences).count == reasons.count, "two reasons share a sentence in \(language)")
        }
        for reason in reasons {
            let english = reason.userMessage(in: .english)
            #expect(reason.userMessage(in: .arabic).unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) }, "\(reason) in Arabic")
            #expect(reason.userMessage(in: .vietnamese) != english, "\(reason) in Vietnamese")
        }
    }
}
