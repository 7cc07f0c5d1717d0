import SoukMessages

/// The content types Souk recognises by their leading bytes (magic numbers). An upload's
/// declared type must be one of them and match its content; a client's word is not trusted.
public enum MediaContentType {
    /// Every recognised MIME type; a marketplace may allow only these.
    public static let recognised: [String] = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "application/pdf"]

    /// Bytes of the content `matches` needs to decide.
    public static let headerLength = 12

    /// Whether `header` (the content's first bytes, at least `headerLength` unless the content
    /// is shorter) is what a file of `contentType` starts with.
    public static func matches(_ contentType: String, header: some Collection<UInt8>) -> Bool {
        let bytes = Array(header.prefix(headerLength))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        switch contentType {
        case "image/jpeg": return starts([0xFF, 0xD8, 0xFF])
        case "image/png": return starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case "image/webp": return starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8)
        case "image/gif": return starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8))
        case "image/heic":
            // An ISO media file whose `ftyp` box names a HEIF brand.
            return starts(Array("ftyp".utf8), at: 4)
                && ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains { starts(Array($0.utf8), at: 8) }
        case "application/pdf": return starts(Array("%PDF-".utf8))
        default: return false
        }
    }
}

/// A marketplace's upload limits, with the defaults for what its settings leave unset.
public struct MediaLimits: Sendable, Equatable {
    /// 10 MiB.
    public static let defaultMaxUploadBytes: Int64 = 10 << 20
    /// 100 MiB: the largest limit a marketplace may set.
    public static let largestMaxUploadBytes: Int64 = 100 << 20
    public static let defaultContentTypes = ["image/jpeg", "image/png", "image/webp", "application/pdf"]

    public var maxUploadBytes: Int64
    public var allowedContentTypes: [String]

    /// The limits `settings` set, defaults where unset.
    public init(_ settings: SoukV1.MediaSettings?) {
        let max = settings?.maxUploadBytes ?? 0
        maxUploadBytes = max > 0 ? max : Self.defaultMaxUploadBytes
        let types = settings?.allowedContentTypes ?? []
        allowedContentTypes = types.isEmpty ? Self.defaultContentTypes : types
    }
}
