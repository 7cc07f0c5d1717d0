/// E.164 phone numbers: "+", a country code that does not start with 0, at most 15 digits in
/// all ("+966512345678"). No spaces or punctuation: clients format for display.
public enum PhoneNumber {
    /// What is wrong with a number, or nil when it is E.164.
    public static func problem(with number: String) -> String? {
        let bytes = Array(number.utf8)
        guard bytes.first == UInt8(ascii: "+") else { return "must be in E.164 form, starting with + and the country code" }
        let digits = bytes.dropFirst()
        guard (7...15).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return "must be in E.164 form: + followed by 7 to 15 digits"
        }
        guard digits.first != UInt8(ascii: "0") else { return "must be in E.164 form: the country code cannot start with 0" }
        return nil
    }
}
