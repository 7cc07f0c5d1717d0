import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A water service as it may be stored: every field checked (all violations named at once),
/// options with ids and stable codes, the server's requires_approval.
enum ServiceValidation {
    /// Checks `input` and completes it. `existing` are the stored options: an option sent with an
    /// id must be one of them, and keeps its code.
    static func validated(_ input: SoukV1.Service, currency: String, existing: [SoukV1.ServiceOption]) throws -> SoukV1.Service {
        var checks = FieldChecks()
        var service = input
        service.localized = nil
        service.name = service.name.trimmingCharacters(in: .whitespacesAndNewlines)
        checks.require((1...200).contains(service.name.count), "service.name", "is required (at most 200 characters)")
        checks.require(service.description.count <= 4000, "service.description", "must be at most 4000 characters")
        checks.require([.delivery, .cleaning, .maintenance].contains(service.type), "service.type", "must be DELIVERY, CLEANING or MAINTENANCE")
        service.languageCode = service.languageCode.trimmingCharacters(in: .whitespaces)
        if service.languageCode.isEmpty { service.languageCode = ServiceLanguages.defaultLanguage }
        checks.require(isLanguageTag(service.languageCode), "service.language_code", "must be a language tag such as \"en\" or \"ar\"")
        let zero = SoukV1.Money(amountMinor: 0, currencyCode: currency)
        service.basePrice = try checks.run { try money(service.basePrice ?? zero, currency, "service.base_price") } ?? zero
        checks.require(service.options.count <= 50, "service.options", "must be at most 50")
        let stored = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var ids = Set<String>()
        var codes = Set<String>()
        for index in service.options.indices {
            let field = "service.options[\(index)]"
            var option = service.options[index]
            option.localized = nil
            option.code = option.code.trimmingCharacters(in: .whitespaces)
            if option.id.isEmpty {
                option.id = RecordID.generate().description
            } else if let old = stored[option.id] {
                if option.code.isEmpty {
                    option.code = old.code
                } else if !old.code.isEmpty, option.code != old.code {
                    checks.add("\(field).code", "cannot change: the option's code is \"\(old.code)\"")
                }
            } else {
                checks.add("\(field).id", "is not an option of this service (leave it empty to add one)")
            }
            if !ids.insert(option.id).inserted { checks.add("\(field).id", "appears twice") }
            if !option.code.isEmpty {
                if !isCode(option.code) {
                    checks.add("\(field).code", "must be 1 to 40 lower-case letters, digits and \"-\"")
                } else if !codes.insert(option.code).inserted {
                    checks.add("\(field).code", "appears twice: each option's code is unique in the service")
                }
            }
            option.name = option.name.trimmingCharacters(in: .whitespacesAndNewlines)
            checks.require((1...100).contains(option.name.count), "\(field).name", "is required (at most 100 characters)")
            option.price = try checks.run { try money(option.price ?? service.basePrice ?? zero, currency, "\(field).price") } ?? zero
            translations(option.translations, base: service.languageCode, field: "\(field).translations", &checks)
            service.options[index] = option
        }
        for index in service.options.indices where service.options[index].code.isEmpty {
            service.options[index].code = newCode(from: service.options[index].name, position: index, taken: &codes)
        }
        translations(service.translations, base: service.languageCode, field: "service.translations", &checks)
        try checks.finish()
        service.requiresApproval = service.type == .cleaning || service.type == .maintenance
        return service
    }

    /// The service with a code on every option: one stored before options had codes gets the
    /// code its next update will store (made from its base name, as `validated` makes it).
    static func withCodes(_ service: SoukV1.Service) -> SoukV1.Service {
        guard service.options.contains(where: { $0.code.isEmpty }) else { return service }
        var coded = service
        var codes = Set(service.options.map(\.code).filter { !$0.isEmpty })
        for index in coded.options.indices where coded.options[index].code.isEmpty {
            coded.options[index].code = newCode(from: coded.options[index].name, position: index, taken: &codes)
        }
        return coded
    }

    /// A code made from the base name ("12-pack (carton)" → "12-pack-carton"), or from the
    /// option's position when the name has no ASCII letter or digit; made unique with a suffix.
    static func newCode(from name: String, position: Int, taken: inout Set<String>) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var code = ""
        for character in folded.unicodeScalars {
            if ("a"..."z").contains(character) || ("0"..."9").contains(character) {
                code.unicodeScalars.append(character)
            } else if !code.isEmpty, !code.hasSuffix("-") {
                code += "-"
            }
        }
        while code.hasSuffix("-") { code.removeLast() }
        if code.isEmpty { code = "option-\(position + 1)" }
        code = String(code.prefix(36))
        while code.hasSuffix("-") { code.removeLast() }
        var candidate = code
        var suffix = 2
        while !taken.insert(candidate).inserted {
            candidate = "\(code)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    static func isCode(_ code: String) -> Bool {
        (1...40).contains(code.count)
            && code.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func isLanguageTag(_ tag: String) -> Bool {
        (2...8).contains(tag.count) && tag.unicodeScalars.allSatisfy { CharacterSet.letters.contains($0) || $0 == "-" }
            && tag.unicodeScalars.allSatisfy(\.isASCII)
    }

    private static func money(_ money: SoukV1.Money, _ currency: String, _ field: String) throws -> SoukV1.Money {
        guard (0...CatalogLimits.maxPriceMinor).contains(money.amountMinor) else {
            throw RPCError.invalidField(field, "must be 0 to \(CatalogLimits.maxPriceMinor) minor units")
        }
        guard money.currencyCode.isEmpty || money.currencyCode == currency else { throw RPCError.invalidField(field, "must be in \(currency)") }
        return SoukV1.Money(amountMinor: money.amountMinor, currencyCode: currency)
    }

    /// At most 10, one per language, none in the base language (that text is the base one).
    private static func translations(_ translations: [SoukV1.Translation], base: String, field: String, _ checks: inout FieldChecks) {
        checks.require(translations.count <= 10, field, "must be at most 10")
        var languages = Set<String>()
        let baseLanguage = base.lowercased().prefix { $0 != "-" }
        for (index, translation) in translations.enumerated() {
            let language = translation.languageCode.lowercased().prefix { $0 != "-" && $0 != "_" }
            if !isLanguageTag(translation.languageCode) {
                checks.add("\(field)[\(index)].language_code", "must be a language tag such as \"ar\"")
            } else if language == baseLanguage {
                checks.add("\(field)[\(index)].language_code", "is the base language (\(base)): edit the base text instead")
            } else if !languages.insert(String(language)).inserted {
                checks.add("\(field)[\(index)].language_code", "appears twice: one translation per language")
            }
            checks.require(translation.name.count <= 200, "\(field)[\(index)].name", "must be at most 200 characters")
            checks.require(translation.description.count <= 4000, "\(field)[\(index)].description", "must be at most 4000 characters")
        }
    }
}
