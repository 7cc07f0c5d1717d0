/// The bytes written in `text` as hexadecimal digits (white space between them is ignored): the
/// committed bytes of records stored by an earlier format.
public func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter(\.isHexDigit))
    precondition(digits.count.isMultiple(of: 2), "an odd count of hexadecimal digits")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}
