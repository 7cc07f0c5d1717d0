#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `Range` request header asks of a body of a known length (RFC 9110 §14).
public enum ByteRangeRequest: Equatable, Sendable {
    /// No usable range (absent, not `bytes=`, several ranges, malformed): the whole body, 200.
    case whole
    /// Bytes `range` of the body: 206 with `Content-Range`.
    case part(ClosedRange<Int64>)
    /// A well-formed range outside the body: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Reads one `bytes=first-last`, `bytes=first-` or `bytes=-suffix` range. Several ranges are
    /// answered with the whole body, which RFC 9110 allows a server to do.
    public init(header: String?, length: Int64) {
        guard let header, header.hasPrefix("bytes=") else { self = .whole; return }
        let spec = header.dropFirst("bytes=".count).filter { $0 != " " && $0 != "\t" }
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            // The last `suffix` bytes.
            guard let suffix = Int64(lastText), suffix >= 0 else { self = .whole; return }
            guard suffix > 0, length > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, length - suffix)...(length - 1))
            return
        }
        guard let first = Int64(firstText), first >= 0 else { self = .whole; return }
        var last = length - 1
        if !lastText.isEmpty {
            guard let given = Int64(lastText), given >= first else { self = .whole; return }
            last = min(given, length - 1)
        }
        guard first < length else { self = .unsatisfiable; return }
        self = .part(first...last)
    }
}

/// Entity tags as `If-None-Match` compares them (weak comparison, RFC 9110 §13.1.2).
public enum EntityTag {
    /// Whether an `If-None-Match` value (`*`, or a list of tags, weak or strong) matches `tag`
    /// (a quoted strong tag such as `"abc"`).
    public static func noneMatchMatches(_ header: String, tag: String) -> Bool {
        for item in header.split(separator: ",") {
            var candidate = item.trimmingSpaces
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == tag[...] { return true }
        }
        return false
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date of `seconds` since 1970 in UTC.
    public static func format(secondsSinceEpoch seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
