/// Platform decision 5, everywhere: at least 8 characters with an upper-case letter, a
/// lower-case letter, a digit and a special character. At most 128 characters, so hashing cost
/// stays bounded.
public enum PasswordPolicy {
    public static let minimumLength = 8
    public static let maximumLength = 128

    /// What the password lacks, in words fit for the user; nil when it satisfies the policy.
    public static func problem(with password: String) -> String? {
        let count = password.count
        if count < minimumLength { return "must be at least \(minimumLength) characters long" }
        if count > maximumLength { return "must be at most \(maximumLength) characters long" }
        var missing: [String] = []
        if !password.contains(where: \.isUppercase) { missing.append("an upper-case letter") }
        if !password.contains(where: \.isLowercase) { missing.append("a lower-case letter") }
        if !password.contains(where: { $0.isNumber }) { missing.append("a digit") }
        if !password.contains(where: isSpecial) { missing.append("a special character") }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        guard !missing.isEmpty else { return nil }
        return "must contain " + missing.joined(separator: ", ")
    }

    /// Anything that is not a letter, digit or whitespace: punctuation and symbols.
    private static func isSpecial(_ character: Character) -> Bool {
        !character.isLetter && !character.isNumber && !character.isWhitespace
    }
}
