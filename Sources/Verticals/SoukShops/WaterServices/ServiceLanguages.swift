import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders

/// The caller's-language view of a service (LANGUAGES in catalog.proto): the base texts stay in
/// their fields and `localized` says in which language the translated ones are, so a client never
/// writes a translation back as a base text.
enum ServiceLanguages {
    /// The service with `localized` set on it and its options from the translations to the
    /// caller's language (unset when that is the base language or has no translation), and a
    /// code on every option.
    static func localized(_ service: SoukV1.Service, _ call: SoukCall) -> SoukV1.Service {
        localized(service, language: ErrorLanguage.of(call.context))
    }

    static func localized(_ service: SoukV1.Service, language: ErrorLanguage) -> SoukV1.Service {
        var shown = ServiceValidation.withCodes(service)
        shown.localized = nil
        for index in shown.options.indices { shown.options[index].localized = nil }
        guard ErrorLanguage(tag: baseLanguage(of: service)) != language else { return shown }
        func matches(_ translation: SoukV1.Translation) -> Bool { ErrorLanguage(tag: translation.languageCode) == language }
        if let translation = service.translations.first(where: matches) {
            shown.localized = SoukV1.Translation(languageCode: translation.languageCode, name: translation.name, description: translation.description)
        }
        for index in shown.options.indices {
            if let translation = shown.options[index].translations.first(where: matches) {
                shown.options[index].localized = SoukV1.Translation(languageCode: translation.languageCode, name: translation.name)
            }
        }
        return shown
    }

    /// The language of the base texts; services stored before it was recorded are in English.
    static func baseLanguage(of service: SoukV1.Service) -> String {
        service.languageCode.isEmpty ? defaultLanguage : service.languageCode
    }

    static let defaultLanguage = "en"
}
