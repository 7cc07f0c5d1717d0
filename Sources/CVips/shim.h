// libvips for SoukMedia's image sizes. Its entry points take variadic option lists, which Swift
// cannot call: these wrappers fix the options Souk uses.
#include <vips/vips.h>

// Starts libvips once per process; 0 on success. The operation cache is off: every variant is
// made once and kept on disk, so cached operations would only hold memory and open files.
static inline int souk_vips_start(void) {
    if (VIPS_INIT("souk-server") != 0) return -1;
    vips_cache_set_max(0);
    return 0;
}

// The image at `path` shrunk to fit `size` x `size` (aspect ratio kept, never enlarged), turned
// upright by its EXIF orientation. The caller owns `*out` (g_object_unref).
static inline int souk_vips_thumbnail(const char *path, int size, VipsImage **out) {
    return vips_thumbnail(path, out, size, "height", size, "size", VIPS_SIZE_DOWN, NULL);
}

static inline int souk_vips_width(VipsImage *image) { return vips_image_get_width(image); }
static inline int souk_vips_height(VipsImage *image) { return vips_image_get_height(image); }
static inline int souk_vips_has_alpha(VipsImage *image) { return vips_image_hasalpha(image); }

// JPEG without metadata (no EXIF location leaves the server); the caller owns `*buffer` (g_free).
static inline int souk_vips_save_jpeg(VipsImage *image, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", 82, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

// PNG without metadata, for images with transparency; the caller owns `*buffer` (g_free).
static inline int souk_vips_save_png(VipsImage *image, void **buffer, size_t *length) {
    return vips_pngsave_buffer(image, buffer, length, "strip", TRUE, "compression", 6, NULL);
}

static inline void souk_vips_unref(VipsImage *image) { g_object_unref(image); }
static inline void souk_vips_free(void *buffer) { g_free(buffer); }

// The messages of the failures so far, then cleared (libvips keeps one buffer per process).
static inline const char *souk_vips_error(void) { return vips_error_buffer(); }
static inline void souk_vips_error_clear(void) { vips_error_clear(); }
