import SoukHTTP2

/// The rules between custom metadata and HTTP/2 header fields.
package enum MetadataHeaders {
    /// Whether a header belongs to the protocol rather than to custom metadata: pseudo-headers,
    /// `content-type`, `te`, `user-agent` and every `grpc-` header.
    package static func isReserved(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first else { return true }
        return first == UInt8(ascii: ":") || name.isHeaderName("content-type") || name.isHeaderName("te")
            || name.isHeaderName("user-agent") || name.hasPrefix("grpc-")
    }

    /// Whether a name is a valid custom metadata key: 1*( 0-9 / a-z / "_" / "-" / "." ).
    package static func isValidKey(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard !utf8.isEmpty else { return false }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// Whether a key carries binary values (base64 on the wire).
    package static func isBinaryKey(_ name: String) -> Bool {
        name.utf8.count > 4 && name.hasSuffix("-bin")
    }

    /// Whether a string value is printable ASCII (0x20...0x7E), as ASCII-Value requires.
    package static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }

    /// Adds one received, non-reserved header to `metadata`. A `-bin` header may hold several
    /// comma-separated base64 values; one that is not base64 fails the call with INTERNAL.
    /// Other values are kept as they arrived (the spec forbids failing on them).
    package static func appendReceived(name: String, value: String, to metadata: inout Metadata) throws(RPCError) {
        guard isBinaryKey(name) else {
            metadata.append(Metadata.Entry(key: name, value: .string(value)))
            return
        }
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingSpaces()
            guard let bytes = MetadataBase64.decode(trimmed) else {
                throw RPCError(.internalError, "malformed binary metadata in header \(name)")
            }
            metadata.append(Metadata.Entry(key: name, value: .binary(bytes)))
        }
    }

    /// Appends the sendable entries of `metadata` to a header block. Entries with a reserved or
    /// invalid key, a string value that is not printable ASCII, or binary bytes under a key
    /// without `-bin` are left out; their keys are returned so the caller can report them.
    @discardableResult
    package static func append(_ metadata: Metadata, to headers: inout [HTTP2Header]) -> [String] {
        var rejected: [String] = []
        for entry in metadata {
            guard !isReserved(entry.key), isValidKey(entry.key) else {
                rejected.append(entry.key)
                continue
            }
            switch entry.value {
            case .binary(let bytes):
                guard isBinaryKey(entry.key) else {
                    rejected.append(entry.key)
                    continue
                }
                headers.append(HTTP2Header(entry.key, MetadataBase64.encode(bytes)))
            case .string(let value):
                if isBinaryKey(entry.key) {
                    headers.append(HTTP2Header(entry.key, MetadataBase64.encode(value.utf8)))
                } else if isValidValue(value) {
                    headers.append(HTTP2Header(entry.key, value))
                } else {
                    rejected.append(entry.key)
                }
            }
        }
        return rejected
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        var result = self[...]
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}

extension String {
    /// Whether this is the header name `literal`. The UTF-8 lengths are compared first: names
    /// mostly differ in length, and comparing lengths costs less than `==` on two unequal Strings.
    @inline(__always)
    func isHeaderName(_ literal: String) -> Bool {
        utf8.count == literal.utf8.count && self == literal
    }
}
