/// Names of people, in any script (Arabic "عبدالله", Vietnamese "Nguyễn Thị Minh Khai",
/// Chinese "王小明"): 1 to 120 characters (grapheme clusters), not only spaces, without
/// control, format (except the joiners some scripts need), private-use or unassigned code points.
public enum PersonName {
    public static let maximumLength = 120

    /// What is wrong with a name, or nil when it is acceptable.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty, name.contains(where: { !$0.isWhitespace }) else { return "is required" }
        guard name.count <= maximumLength else { return "must be at most \(maximumLength) characters" }
        guard let first = name.first, let last = name.last, !first.isWhitespace, !last.isWhitespace else {
            return "must not start or end with spaces"
        }
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
                return "must not contain control or invisible characters"
            case .format where scalar.value != 0x200C && scalar.value != 0x200D:
                // Zero-width non-joiner and joiner shape Persian, Arabic and Indic names; other
                // format characters (bidi overrides, ...) can disguise a name.
                return "must not contain control or invisible characters"
            default:
                continue
            }
        }
        return nil
    }
}
