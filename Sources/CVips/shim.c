#include "CVips.h"
#include "loader.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;
static char start_error[512];

// libvips's warnings and info lines (GLib log domain "VIPS"): dropped. What
// went wrong reaches the caller through the error buffer; the warnings
// would go to the daemon's stderr unformatted, one per tile of a bad image.
static void drop_log(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static void start(void) {
    if (lp_vips_load() != 0) {
        snprintf(start_error, sizeof start_error, "%s", lp_vips_load_error());
        return;
    }
    // No libvips modules at start-up. vips_init loads every module in
    // $libdir/vips-modules-X.Y (Debian: HEIF, JPEG XL, ImageMagick, PDF,
    // OpenSlide), each with its codec libraries: some 20 ms and 5 MiB for
    // a process that wants a JPEG, and loaders linkpeek blocks anyway.
    // libvips finds that directory from $VIPSHOME, and /dev/null cannot
    // hold one (it is not a directory), so none loads; HEIF, the one module
    // linkpeek reads and writes, is loaded when an image needs it
    // (lp_vips_load_module). libvips itself sets VIPSHOME when it is unset,
    // so this is no new write to the environment, and it happens once.
    setenv("VIPSHOME", "/dev/null", 1);
    if (lp_vips.init("linkpeek") != 0) {
        snprintf(start_error, sizeof start_error, "vips_init failed: %s", lp_vips.error_buffer());
        lp_vips.error_clear();
        return;
    }
    // G_LOG_LEVEL_WARNING | MESSAGE | INFO | DEBUG.
    lp_vips.g_log_set_handler("VIPS", (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7), drop_log, NULL);
    // Loaders libvips marks untrusted (ImageMagick, PDF, …) read formats
    // that can name other files; only librsvg is wanted among them, and
    // SVG bytes are checked before they reach it (SVGSanitizer).
    lp_vips.block_untrusted_set(1);
    lp_vips.operation_block_set("VipsForeignLoadSvg", 0);
    // The operation cache would keep decoded images (and buffers by
    // address) alive between requests; linkpeek caches encoded variants itself.
    lp_vips.cache_set_max(0);
    start_result = 0;
}

int lp_vips_start(void) {
    pthread_once(&start_once, start);
    return start_result;
}

LPVipsImage *lp_vips_thumbnail_buffer(const void *buffer, size_t length, const char *load_options,
                                      const LPThumbnailOptions *options) {
    void *out = NULL;
    // libvips does not write to the buffer; its signature predates const.
    const char *options_string = load_options ? load_options : "";
    int status = options->to_srgb
        ? lp_vips.thumbnail_buffer((void *)buffer, length, &out, options->width,
            "height", options->height,
            "size", options->size,
            "crop", options->crop,
            "export_profile", "srgb",
            "intent", 1, // VIPS_INTENT_RELATIVE
            "option_string", options_string,
            NULL)
        : lp_vips.thumbnail_buffer((void *)buffer, length, &out, options->width,
            "height", options->height,
            "size", options->size,
            "crop", options->crop,
            "option_string", options_string,
            NULL);
    return status == 0 ? (LPVipsImage *)out : NULL;
}

LPVipsImage *lp_vips_thumbnail_image(LPVipsImage *image, const LPThumbnailOptions *options) {
    void *out = NULL;
    int status = lp_vips.thumbnail_image(image, &out, options->width,
        "height", options->height,
        "size", options->size,
        "crop", options->crop,
        NULL);
    return status == 0 ? (LPVipsImage *)out : NULL;
}

int lp_vips_header(const void *buffer, size_t length, int *width, int *height, int *pages, int *has_profile) {
    void *image = lp_vips.image_new_from_buffer(buffer, length, "", NULL);
    if (image == NULL) return -1;
    *has_profile = lp_vips.image_get_typeof(image, "icc-profile-data") != 0;
    *width = lp_vips.image_get_width(image);
    *height = lp_vips.image_get_page_height(image);
    *pages = lp_vips.image_get_n_pages(image);
    lp_vips.g_object_unref(image);
    return 0;
}

LPVipsImage *lp_vips_image_from_rgba(const void *pixels, size_t length, int width, int height) {
    // 0 is VIPS_FORMAT_UCHAR.
    return (LPVipsImage *)lp_vips.image_new_from_memory_copy(pixels, length, width, height, 4, 0);
}

LPVipsImage *lp_vips_flatten(LPVipsImage *image, double red, double green, double blue) {
    double colour[3] = {red, green, blue};
    void *background = lp_vips.array_double_new(colour, 3);
    void *out = NULL;
    int status = lp_vips.flatten(image, &out, "background", background, NULL);
    lp_vips.area_unref(background);
    return status == 0 ? (LPVipsImage *)out : NULL;
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

typedef struct {
    double deadline;
    int timed_out;
} LPWatch;

// libvips's "eval" signal, sent as tiles are computed: past the deadline,
// ask libvips to stop (the documented way to cancel a computation).
static void on_eval(void *image, void *progress, void *data) {
    (void)progress;
    LPWatch *watch = data;
    if (!watch->timed_out && monotonic_seconds() > watch->deadline) {
        watch->timed_out = 1;
        lp_vips.image_set_kill(image, 1);
    }
}

// Metadata a saver could write: EXIF (the blob and libvips's exif-ifd*
// fields, from which savers rebuild it), XMP, IPTC, the ICC profile.
static int is_metadata(const char *name) {
    return strncmp(name, "exif-", 5) == 0 || strcmp(name, "xmp-data") == 0 || strcmp(name, "iptc-data") == 0
        || strcmp(name, "icc-profile-data") == 0;
}

// `image` with its metadata removed, on a copy (libvips images are not
// changed once made). Why not only the savers' `strip`: libvips 8.14's
// WebP saver rebuilds EXIF from the exif-ifd* fields whatever `strip`
// says, and would hand a photo's GPS position on.
static void *without_metadata(void *image) {
    void *copy = NULL;
    if (lp_vips.copy(image, &copy, NULL) != 0) return NULL;
    char **fields = lp_vips.image_get_fields(copy);
    for (char **field = fields; field != NULL && *field != NULL; field++) {
        if (is_metadata(*field)) lp_vips.image_remove(copy, *field);
    }
    lp_vips.g_strfreev(fields);
    return copy;
}

int lp_vips_write(LPVipsImage *input, const char *suffix, double seconds, void **bytes, size_t *length,
                  int *timed_out) {
    *timed_out = 0;
    void *image = without_metadata(input);
    if (image == NULL) return -1;
    LPWatch watch = {monotonic_seconds() + seconds, 0};
    unsigned long handler = 0;
    if (seconds > 0) {
        lp_vips.image_set_progress(image, 1);
        handler = lp_vips.g_signal_connect_data(image, "eval", (void (*)(void))on_eval, &watch, NULL, 0);
    }
    int status = lp_vips.image_write_to_buffer(image, suffix, bytes, length, NULL);
    // `watch` lives on this stack frame: no signal may reach it after this.
    if (handler != 0) lp_vips.g_signal_handler_disconnect(image, handler);
    lp_vips.g_object_unref(image);
    *timed_out = watch.timed_out;
    if (watch.timed_out && status == 0) {
        lp_vips.g_free(*bytes);
        *bytes = NULL;
    }
    return watch.timed_out ? -1 : status;
}

int lp_vips_width(LPVipsImage *image) { return lp_vips.image_get_width(image); }
int lp_vips_height(LPVipsImage *image) { return lp_vips.image_get_height(image); }
int lp_vips_page_height(LPVipsImage *image) { return lp_vips.image_get_page_height(image); }
int lp_vips_bands(LPVipsImage *image) { return lp_vips.image_get_bands(image); }
int lp_vips_has_alpha(LPVipsImage *image) { return lp_vips.image_hasalpha(image); }

void lp_vips_unref(LPVipsImage *image) {
    if (image != NULL) lp_vips.g_object_unref(image);
}

void lp_vips_free(void *bytes) {
    if (bytes != NULL) lp_vips.g_free(bytes);
}

void lp_vips_take_error(char *buffer, size_t capacity) {
    if (capacity == 0) return;
    if (start_result != 0) {
        snprintf(buffer, capacity, "%s", start_error);
        return;
    }
    // Copied and cleared under libvips's lock: two threads may fail at once.
    char *text = lp_vips.error_buffer_copy();
    snprintf(buffer, capacity, "%s", text ? text : "");
    lp_vips.g_free(text);
}
