import SoukTesting
import Testing
@testable import SoukIdentity

@Suite struct ValidationTests {
    @Test(arguments: ["a@b.co", "Jordan.Patel+laundry@rutgers.edu", "o'brien@example.com", "x_y-z@sub.domain.example"])
    func validEmails(address: String) {
        #expect(EmailAddress.problem(with: address) == nil)
    }

    @Test(arguments: [
        "", "plain", "a@b", "a@@b.com", "a@b@c.com", ".a@b.com", "a.@b.com", "a..b@c.com", "a@-b.com", "a@b-.com",
        "a@b.c", "a@b.c0m", "nguyễn@example.com", "a b@example.com", "a@exa mple.com",
        String(repeating: "a", count: 65) + "@example.com",
    ])
    func invalidEmails(address: String) {
        #expect(EmailAddress.problem(with: address) != nil)
    }

    @Test func allowedDomainsAreCaseInsensitiveAndExact() {
        #expect(EmailAddress.isAllowed("Jo@Rutgers.EDU", domains: ["rutgers.edu"]))
        #expect(!EmailAddress.isAllowed("jo@gmail.com", domains: ["rutgers.edu"]))
        #expect(!EmailAddress.isAllowed("jo@notrutgers.edu", domains: ["rutgers.edu"]))
        #expect(!EmailAddress.isAllowed("jo@scarletmail.rutgers.edu", domains: ["rutgers.edu"]))
        #expect(EmailAddress.isAllowed("jo@anything.com", domains: []))
        #expect(EmailAddress.key("Jo@Rutgers.EDU") == "jo@rutgers.edu")
    }

    @Test(arguments: ["+966512345678", "+60123456789", "+17325550101", "+84901234567", "+9613123401"])
    func e164Numbers(number: String) {
        #expect(PhoneNumber.problem(with: number) == nil)
    }

    @Test(arguments: ["", "966512345678", "+0123456789", "+1 732 555 0101", "+1-732-555-0101", "+12345", "+1234567890123456", "+96651234567a"])
    func notE164(number: String) {
        #expect(PhoneNumber.problem(with: number) != nil)
    }

    @Test(arguments: [
        "عبدالله", "Nguyễn Thị Minh Khai", "王小明", "Nurul Aisyah binti Ahmad", "O'Brien-Smith", "José", "Zoë",
        "محمد‌رضا",  // with a zero-width non-joiner, as Persian writes it
        String(repeating: "a", count: 120),
    ])
    func namesInAnyScript(name: String) {
        #expect(PersonName.problem(with: name) == nil)
    }

    @Test(arguments: [
        "", "   ", " Ann", "Ann ", "Ann\u{0}", "Ann\nLee", "Ann\u{7}", "Ann\u{202E}eL", "Ann\u{E000}",
        String(repeating: "a", count: 121),
    ])
    func invalidNames(name: String) {
        #expect(PersonName.problem(with: name) != nil)
    }

    @Test(arguments: ["Abcdef1!", "Pässwörd9_", "Ab1-Ab1-", "Z9 zzzz ?", "ÉCOLE-école-1"])
    func strongPasswords(password: String) {
        #expect(PasswordPolicy.problem(with: password) == nil)
    }

    @Test func weakPasswordsSayWhatIsMissing() {
        #expect(PasswordPolicy.problem(with: "Ab1!") == "must be at least 8 characters long")
        #expect(PasswordPolicy.problem(with: "abcdefg1!") == "must contain an upper-case letter")
        #expect(PasswordPolicy.problem(with: "ABCDEFG1!") == "must contain a lower-case letter")
        #expect(PasswordPolicy.problem(with: "Abcdefgh!") == "must contain a digit")
        #expect(PasswordPolicy.problem(with: "Abcdefgh1") == "must contain a special character")
        #expect(PasswordPolicy.problem(with: "abcdefgh") == "must contain an upper-case letter, a digit, a special character")
        #expect(PasswordPolicy.problem(with: "Abcdef1!\u{1}") == "must not contain control characters")
        #expect(PasswordPolicy.problem(with: "Ab1!" + String(repeating: "x", count: 125)) == "must be at most 128 characters long")
    }
}
