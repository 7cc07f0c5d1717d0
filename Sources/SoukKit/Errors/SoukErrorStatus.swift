import SoukAccess
import SoukGRPC
import SoukMessages

/// Completes the error status of every contract call as AIP-193 asks (common.proto, ERROR
/// DETAILS): an `ErrorInfo` for errors raised without one (its reason chosen by the status
/// code), and a `LocalizedMessage` for the reason in the caller's language.
public struct SoukErrorStatus: ErrorStatusCompleter {
    let rules: AccessRules

    public init(rules: AccessRules) {
        self.rules = rules
    }

    public func complete(_ error: inout RPCError, context: ServerContext) {
        // Health, reflection and the interop service keep plain gRPC statuses.
        guard rules.rule(for: context.method) != nil else { return }
        if error.errorInfo == nil {
            error.errorInfo = GoogleRPC.ErrorInfo(reason: SoukV1.ErrorReason.fallback(for: error.code).reasonName, domain: soukErrorDomain)
        }
        if error.localizedMessage == nil {
            let language = ErrorLanguage.of(context)
            let reason = error.soukReason ?? .unspecified
            error.localizedMessage = GoogleRPC.LocalizedMessage(locale: language.rawValue, message: reason.userMessage(in: language))
        }
    }
}

extension ErrorLanguage {
    /// The caller's language: the signed-in account's locale, else the first supported language
    /// of the `accept-language` metadata, else English.
    public static func of(_ context: ServerContext) -> ErrorLanguage {
        if let locale = context[CallerKey.self]?.locale, let language = ErrorLanguage(tag: locale) { return language }
        if let header = context.requestMetadata["accept-language"], let language = preferred(acceptLanguage: header) {
            return language
        }
        return .english
    }

    /// The language of a BCP 47 tag by its primary subtag ("ar-SA" is Arabic); nil when not supported.
    public init?(tag: some StringProtocol) {
        let primary = Substring(tag).trimmingSpaces.prefix { $0 != "-" && $0 != "_" }
        self.init(rawValue: primary.lowercased())
    }

    /// The supported language an `accept-language` value prefers most: ranges in order of
    /// q-value (equal ones in the order sent), those with q=0 left out.
    public static func preferred(acceptLanguage: String) -> ErrorLanguage? {
        var ranges: [(language: ErrorLanguage, quality: Double)] = []
        for item in acceptLanguage.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let tag = parts.first, let language = ErrorLanguage(tag: tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" { quality = Double(pair[1].trimmingSpaces) ?? 0 }
            }
            if quality > 0 { ranges.append((language, quality)) }
        }
        // max(by:) keeps the first of equal elements.
        return ranges.max { $0.quality < $1.quality }?.language
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (header values may have them around separators).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
