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

    /// The distinct normalized words of several texts, in order of first appearance.
    public static func distinctWords(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        return texts.flatMap(words).filter { seen.insert($0).inserted }
    }
}
