import Foundation

/// Text as searches compare it, one rule for every domain: lower case, without diacritics
/// ("Château" → "chateau", "Quận 1" → "quan 1", Arabic harakat dropped), without width
/// differences, and the Vietnamese letter đ read as d ("Đường" → "duong": Unicode does not
/// decompose it, so folding alone keeps it).
public enum SearchText {
    /// The normalized text.
    public static func normalized(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        guard folded.contains(where: { $0 == "đ" }) else { return folded }
        return String(folded.map { $0 == "đ" ? "d" : $0 })
    }

    /// The normalized words of a text: runs of letters and digits.
    public static func words(_ text: String) -> [String] {
        normalized(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// Longest word prefix a prefix index holds: a longer query word reads the range of its
    /// first `maxPrefix` characters and is checked on the records read.
    public static let maxPrefix = 24

    /// Every prefix (1 to `maxPrefix` characters) of each of `words`, without repeats: the
    /// entries of an index where a query word finds the words it begins. Their number grows
    /// with the text's length only, never with the table's.
    public static func prefixes(of words: [String]) -> [String] {
        var prefixes = Set<String>()
        for word in words {
            var prefix = ""
            for character in word.prefix(maxPrefix) {
                prefix.append(character)
                prefixes.insert(prefix)
            }
        }
        return prefixes.sorted()
    }

    /// Whether every query word begins one of `words` ("ben th" matches "cho ben thanh").
    public static func everyWordBegins(_ query: [String], oneOf words: [String]) -> Bool {
        query.allSatisfy { word in words.contains { $0.hasPrefix(word) } }
    }

    /// The distinct normalized words of several texts, in order of first appearance.
    public static func distinctWords(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        return texts.flatMap(words).filter { seen.insert($0).inserted }
    }
}
