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
        guard seconds.magnitude <= UInt64(maxDurationSeconds), nanos.magnitude <= 999_999_999, !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else { return nil }
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

/// Base64 for the JSON mapping's bytes fields, over raw buffers with lookup tables: a 1 KiB
/// payload is read and written in one pass each way, with one allocation.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Each byte's 6-bit value shifted to its place in a group of four (standard and URL-safe
    /// alike), one table per place, so that a group is four loads and three ORs; a byte outside the
    /// alphabet has bit 24 set.
    static let placed: [UInt32] = {
        var table = [UInt32](repeating: 1 << 24, count: 4 * 256)
        var values = Array(alphabet.enumerated()).map { (UInt32($0.offset), $0.element) }
        values += [(62, UInt8(ascii: "-")), (63, UInt8(ascii: "_"))]
        for (value, byte) in values {
            for place in 0..<4 { table[place * 256 + Int(byte)] = value << (18 - 6 * place) }
        }
        return table
    }()

    /// Standard base64 with padding, as the JSON mapping writes bytes.
    static func encode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let start = out.count
        let length = (bytes.count + 2) / 3 * 4
        out.append(contentsOf: repeatElement(0, count: length))
        guard length > 0 else { return }
        alphabet.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { buffer in
                let o = buffer.baseAddress! + start
                var i = 0
                var j = 0
                while i + 3 <= bytes.count {
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                    o[j] = table[Int(v >> 18)]
                    o[j + 1] = table[Int(v >> 12 & 63)]
                    o[j + 2] = table[Int(v >> 6 & 63)]
                    o[j + 3] = table[Int(v & 63)]
                    i += 3
                    j += 4
                }
                let rest = bytes.count - i
                guard rest > 0 else { return }
                let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                o[j] = table[Int(v >> 18)]
                o[j + 1] = table[Int(v >> 12 & 63)]
                o[j + 2] = rest == 2 ? table[Int(v >> 6 & 63)] : UInt8(ascii: "=")
                o[j + 3] = UInt8(ascii: "=")
            }
        }
    }

    /// Standard or URL-safe base64, padded or not; nil when the text is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Standard or URL-safe base64, padded or not; nil when the text is not base64.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        // Up to two '=' at the end, and only where they complete a group of four.
        var count = text.count
        var padding = 0
        while count > 0, padding < 2, text[count - 1] == UInt8(ascii: "=") {
            count -= 1
            padding += 1
        }
        guard count % 4 != 1, padding == 0 || (count + padding) % 4 == 0 else { return nil }
        let length = count / 4 * 3 + max(count % 4 - 1, 0)
        var bad: UInt32 = 0
        let out = placed.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: length) { o, initialized in
                var i = 0
                var j = 0
                while i + 4 <= count {
                    let v = table[Int(text[i])] | table[256 + Int(text[i + 1])] | table[512 + Int(text[i + 2])] | table[768 + Int(text[i + 3])]
                    bad |= v
                    o[j] = UInt8(truncatingIfNeeded: v >> 16)
                    o[j + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    o[j + 2] = UInt8(truncatingIfNeeded: v)
                    i += 4
                    j += 3
                }
                let rest = count - i
                if rest >= 2 {
                    let v = table[Int(text[i])] | table[256 + Int(text[i + 1])] | (rest == 3 ? table[512 + Int(text[i + 2])] : 0)
                    bad |= v
                    o[j] = UInt8(truncatingIfNeeded: v >> 16)
                    if rest == 3 { o[j + 1] = UInt8(truncatingIfNeeded: v >> 8) }
                }
                initialized = length
            }
        }
        // Bit 24 marks a byte outside the alphabet.
        let valid = bad >> 24 == 0
        return valid ? out : nil
    }
}
