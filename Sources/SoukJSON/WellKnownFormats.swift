/// The text forms of the well-known types and of bytes: RFC 3339 timestamps, durations in
/// seconds, FieldMask paths, base64.

enum TimeText {
    static let minTimestampSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let maxTimestampSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z
    static let maxDurationSeconds: Int64 = 315_576_000_000

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Nanoseconds as 0, 3, 6 or 9 fraction digits, with their dot.
    static func fraction(_ nanos: Int32) -> String {
        guard nanos != 0 else { return "" }
        var digits = String(nanos)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        if nanos % 1_000_000 == 0 { return "." + digits.prefix(3) }
        if nanos % 1000 == 0 { return "." + digits.prefix(6) }
        return "." + digits
    }

    /// The quoted timestamp appended without building strings (a list answer holds many).
    static func appendTimestamp(seconds: Int64, nanos: Int32, into out: inout [UInt8]) -> Bool {
        guard seconds >= minTimestampSeconds, seconds <= maxTimestampSeconds, nanos >= 0, nanos <= 999_999_999 else { return false }
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (y, m, d) = civil(days: days)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: value / divisor) + 0x30)
                value %= divisor
                divisor /= 10
            }
        }
        out.append(UInt8(ascii: "\""))
        digits(y, 4); out.append(UInt8(ascii: "-")); digits(m, 2); out.append(UInt8(ascii: "-")); digits(d, 2)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":")); digits(secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":")); digits(secondOfDay % 60, 2)
        if nanos != 0 {
            out.append(UInt8(ascii: "."))
            if nanos % 1_000_000 == 0 {
                digits(Int64(nanos / 1_000_000), 3)
            } else if nanos % 1000 == 0 {
                digits(Int64(nanos / 1000), 6)
            } else {
                digits(Int64(nanos), 9)
            }
        }
        out.append(UInt8(ascii: "Z"))
        out.append(UInt8(ascii: "\""))
        return true
    }

    static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        let b = Array(text.utf8)
        func number(_ at: Int, _ count: Int) -> Int64? {
            guard at + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in at..<at + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20, let year = number(0, 4), b[4] == UInt8(ascii: "-"), let month = number(5, 2), b[7] == UInt8(ascii: "-"),
              let day = number(8, 2), b[10] == UInt8(ascii: "T"), let hour = number(11, 2), b[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), b[16] == UInt8(ascii: ":"), let second = number(17, 2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60 else { return nil }
        var position = 19
        var nanos: Int64 = 0
        if position < b.count, b[position] == UInt8(ascii: ".") {
            position += 1
            var digits = 0
            while position < b.count, b[position] >= 0x30, b[position] <= 0x39 {
                guard digits < 9 else { return nil }
                nanos = nanos * 10 + Int64(b[position] - 0x30)
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offset: Int64 = 0
        guard position < b.count else { return nil }
        if b[position] == UInt8(ascii: "Z") {
            position += 1
        } else if b[position] == UInt8(ascii: "+") || b[position] == UInt8(ascii: "-") {
            guard let oh = number(position + 1, 2), position + 3 < b.count, b[position + 3] == UInt8(ascii: ":"),
                  let om = number(position + 4, 2), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[position] == UInt8(ascii: "+") ? 1 : -1)
            position += 6
        } else {
            return nil
        }
        guard position == b.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second - offset
        guard seconds >= minTimestampSeconds, seconds <= maxTimestampSeconds else { return nil }
        return (seconds, Int32(nanos))
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func formatDuration(seconds: Int64, nanos: Int32) -> String? {
        guard abs(seconds) <= maxDurationSeconds, abs(nanos) <= 999_999_999, !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + fraction(Int32(nanos.magnitude)) + "s"
    }

    static func parseDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        var b = Array(text.utf8)
        guard b.last == UInt8(ascii: "s") else { return nil }
        b.removeLast()
        var negative = false
        var position = 0
        if b.first == UInt8(ascii: "-") { negative = true; position = 1 }
        var seconds: Int64 = 0
        var digits = 0
        while position < b.count, b[position] >= 0x30, b[position] <= 0x39 {
            guard digits < 13 else { return nil }
            seconds = seconds * 10 + Int64(b[position] - 0x30)
            digits += 1
            position += 1
        }
        var nanos: Int64 = 0
        var fractionDigits = 0
        if position < b.count, b[position] == UInt8(ascii: ".") {
            position += 1
            while position < b.count, b[position] >= 0x30, b[position] <= 0x39 {
                guard fractionDigits < 9 else { return nil }
                nanos = nanos * 10 + Int64(b[position] - 0x30)
                fractionDigits += 1
                position += 1
            }
            guard fractionDigits > 0 else { return nil }
            for _ in fractionDigits..<9 { nanos *= 10 }
        }
        guard digits > 0, position == b.count, seconds <= maxDurationSeconds else { return nil }
        return negative ? (-seconds, Int32(-nanos)) : (seconds, Int32(nanos))
    }
}

enum FieldMaskText {
    /// `user.display_name` → `user.displayName`; nil when the path would not come back the same.
    static func toJSON(_ path: String) -> String? {
        var result = ""
        var afterUnderscore = false
        for c in path.unicodeScalars {
            if c == "_" {
                guard !afterUnderscore else { return nil }
                afterUnderscore = true
                continue
            }
            if ("A"..."Z").contains(c) { return nil }
            if afterUnderscore {
                guard ("a"..."z").contains(c) else { return nil }
                result.unicodeScalars.append(Unicode.Scalar(c.value - 32)!)
                afterUnderscore = false
            } else {
                result.unicodeScalars.append(c)
            }
        }
        return afterUnderscore ? nil : result
    }

    /// `user.displayName` → `user.display_name`; nil when the path holds an underscore.
    static func fromJSON(_ path: String) -> String? {
        var result = ""
        for c in path.unicodeScalars {
            if c == "_" { return nil }
            if ("A"..."Z").contains(c) {
                result += "_"
                result.unicodeScalars.append(Unicode.Scalar(c.value + 32)!)
            } else {
                result.unicodeScalars.append(c)
            }
        }
        return result
    }
}

enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with padding, as the JSON mapping writes bytes.
    static func encode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(v >> 18)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            out.append(UInt8(ascii: "="))
        }
    }

    /// Standard or URL-safe base64, padded or not; nil when the text is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            values.append(v)
        }
        guard values.count % 4 != 1, padding <= 2, padding == 0 || (values.count + padding) % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 4 <= values.count {
            let v = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6 | UInt32(values[i + 3])
            out.append(UInt8(v >> 16 & 255))
            out.append(UInt8(v >> 8 & 255))
            out.append(UInt8(v & 255))
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            out.append(values[i] << 2 | values[i + 1] >> 4)
        } else if rest == 3 {
            out.append(values[i] << 2 | values[i + 1] >> 4)
            out.append(values[i + 1] << 4 | values[i + 2] >> 2)
        }
        return out
    }
}
