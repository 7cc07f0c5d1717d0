import CVips

/// libvips, the image library that makes the sizes of uploaded pictures. Started once per
/// process, on first use; no libvips type leaves this file.
enum Vips {
    /// Whether `vips_init` succeeded (it runs once, whichever thread comes first).
    private static let started: Result<Void, VipsError> = souk_vips_start() == 0 ? .success(()) : .failure(.current("vips_init"))

    /// The image in the file at `path`, upright (EXIF orientation applied) and shrunk to fit
    /// `longSide` × `longSide` with its aspect ratio (never enlarged), encoded without metadata:
    /// PNG when it has transparency, JPEG otherwise.
    static func thumbnail(path: String, longSide: Int) throws -> EncodedImage {
        try started.get()
        var pointer: UnsafeMutablePointer<VipsImage>?
        guard souk_vips_thumbnail(path, Int32(longSide), &pointer) == 0, let pointer else {
            throw VipsError.current("thumbnail of \(path)")
        }
        let image = VipsImageReference(pointer)
        return try image.encoded()
    }
}

/// One image of libvips, unreferenced once when this is released.
private final class VipsImageReference {
    private let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    deinit { souk_vips_unref(pointer) }

    func encoded() throws -> EncodedImage {
        let png = souk_vips_has_alpha(pointer) != 0
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = png ? souk_vips_save_png(pointer, &buffer, &length) : souk_vips_save_jpeg(pointer, &buffer, &length)
        defer { if let buffer { souk_vips_free(buffer) } }
        guard status == 0, let buffer else { throw VipsError.current(png ? "pngsave" : "jpegsave") }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
        return EncodedImage(
            bytes: bytes, contentType: png ? "image/png" : "image/jpeg",
            width: Int(souk_vips_width(pointer)), height: Int(souk_vips_height(pointer)))
    }
}

/// An image encoded by libvips.
struct EncodedImage: Sendable {
    var bytes: [UInt8]
    var contentType: String
    var width: Int
    var height: Int
}

/// A libvips operation failed; carries libvips's own message.
struct VipsError: Error, CustomStringConvertible {
    let description: String

    /// The failure of `operation`, with the messages libvips collected (then cleared).
    static func current(_ operation: String) -> VipsError {
        let message = String(cString: souk_vips_error()).split(whereSeparator: \.isNewline).joined(separator: "; ")
        souk_vips_error_clear()
        return VipsError(description: "libvips \(operation): \(message.isEmpty ? "failed" : message)")
    }
}
