// CVips: the few libvips calls Swift cannot make by itself.
//
// libvips's operations take their optional arguments as NULL-terminated
// name/value pairs (C variadics), which Swift cannot call; each function
// below fixes those arguments so the call becomes an ordinary, type-checked
// one. libvips is not linked but opened on first use (loader.c says why),
// so this header declares no libvips type: an image is the opaque
// `LPVipsImage`. Nothing else belongs here: the rules (caps, formats, which
// loader may run) live in Swift, in `Images` and `LinkPeek`.
#ifndef LINKPEEK_CVIPS_H
#define LINKPEEK_CVIPS_H

#include <stddef.h>

/// A libvips image (a `VipsImage`, reference counted). Release with `lp_vips_unref`.
typedef struct LPVipsImage LPVipsImage;

/// Opens libvips and runs `vips_init` once (later calls return the first
/// outcome), loading none of libvips's modules (`lp_vips_load_heif` loads
/// the one linkpeek uses). Untrusted loaders built in are blocked except
/// SVG, and the operation cache is off. 0 on success; -1 when libvips
/// cannot be loaded (`lp_vips_take_error` says why).
int lp_vips_start(void);

/// Loads libvips's HEIF module (HEIF and AVIF, read and write), once:
/// `lp_vips_start` loads no module, and this is the one linkpeek uses.
/// 0 when it is loaded or there is no module file (HEIF built into
/// libvips, or not there at all: decoding then fails with libvips's
/// reason); -1 when the file is there but cannot be loaded
/// (`lp_vips_heif_error` says why).
int lp_vips_load_heif(void);
const char *lp_vips_heif_error(void);

/// How `lp_vips_thumbnail_*` sizes its result (vips_thumbnail's options).
typedef struct {
    /// Target box, pixels.
    int width;
    int height;
    /// VipsSize: 0 both (default), 1 up only, 2 down only, 3 force (ignore aspect).
    int size;
    /// VipsInteresting: 0 none (fit inside the box), 1 centre (crop to fill it).
    int crop;
    /// Convert from the embedded ICC profile to sRGB (relative colorimetric).
    /// Only for images that have one: for the others libvips would convert
    /// through its built-in profiles and shift colours that were sRGB already.
    int to_srgb;
} LPThumbnailOptions;

/// Decodes `buffer` at reduced scale (shrink-on-load), applies the EXIF
/// orientation, converts to sRGB and sizes it. `load_options` is the
/// loader's option string ("fail_on=truncated", "n=-1"), or NULL. The
/// buffer must outlive the returned image. NULL on error.
LPVipsImage *lp_vips_thumbnail_buffer(const void *buffer, size_t length, const char *load_options,
                                      const LPThumbnailOptions *options);

/// The same for an image already in memory.
LPVipsImage *lp_vips_thumbnail_image(LPVipsImage *image, const LPThumbnailOptions *options);

/// Reads only the header of `buffer`: width, height (of one page), page
/// count, and whether an ICC profile is embedded. 0 on success.
int lp_vips_header(const void *buffer, size_t length, int *width, int *height, int *pages, int *has_profile);

/// An 8-bit RGBA image copied from `pixels` (width × height × 4 bytes).
LPVipsImage *lp_vips_image_from_rgba(const void *pixels, size_t length, int width, int height);

/// `image` without its alpha channel, composed over an RGB background (0–255).
LPVipsImage *lp_vips_flatten(LPVipsImage *image, double red, double green, double blue);

/// Encodes `image` in the format `suffix` names, with options (".png[strip]",
/// ".jpg[Q=80,strip]"), its metadata (EXIF, XMP, IPTC, ICC) removed first
/// on a copy: `strip` alone does not keep EXIF out of WebP in libvips 8.14. On success `*bytes` (free with `lp_vips_free`) and
/// `*length` are set and 0 is returned. libvips decodes lazily, so this is
/// where the work happens: when it takes longer than `seconds` (> 0) the
/// computation is stopped and -1 returned, with *timed_out set to 1.
int lp_vips_write(LPVipsImage *image, const char *suffix, double seconds, void **bytes, size_t *length,
                  int *timed_out);

int lp_vips_width(LPVipsImage *image);
int lp_vips_height(LPVipsImage *image);
/// The height of one frame of an animation (the whole height otherwise).
int lp_vips_page_height(LPVipsImage *image);
int lp_vips_bands(LPVipsImage *image);
int lp_vips_has_alpha(LPVipsImage *image);

void lp_vips_unref(LPVipsImage *image);
void lp_vips_free(void *bytes);

/// Copies libvips's error text (at most `capacity - 1` bytes) into `buffer`,
/// NUL-terminated, and clears it. libvips keeps one text per process: with
/// two images failing at once the texts may mix, never the results.
void lp_vips_take_error(char *buffer, size_t capacity);

#endif
