// Private to CVips: libvips is opened on first use (see loader.c).
#ifndef LINKPEEK_CVIPS_LOADER_H
#define LINKPEEK_CVIPS_LOADER_H

#include <stddef.h>

/// libvips's functions as shim.c calls them. The variadic ones take
/// NULL-terminated name/value pairs; images are `VipsImage *` (here `void *`).
typedef struct {
    int (*init)(const char *argv0);
    void (*block_untrusted_set)(int state);
    void (*operation_block_set)(const char *name, int state);
    void (*cache_set_max)(int max);
    int (*thumbnail_buffer)(void *buffer, size_t length, void **out, int width, ...);
    int (*thumbnail_image)(void *in, void **out, int width, ...);
    void *(*image_new_from_buffer)(const void *buffer, size_t length, const char *options, ...);
    void *(*image_new_from_memory_copy)(const void *data, size_t size, int width, int height, int bands, int format);
    int (*image_write_to_buffer)(void *in, const char *suffix, void **buffer, size_t *size, ...);
    int (*flatten)(void *in, void **out, ...);
    int (*copy)(void *in, void **out, ...);
    char **(*image_get_fields)(void *image);
    int (*image_remove)(void *image, const char *name);
    void (*g_strfreev)(char **strings);
    void *(*array_double_new)(const double *array, int n);
    void (*area_unref)(void *area);
    int (*image_get_width)(const void *image);
    int (*image_get_height)(const void *image);
    int (*image_get_bands)(const void *image);
    int (*image_get_n_pages)(void *image);
    int (*image_get_page_height)(void *image);
    int (*image_hasalpha)(void *image);
    unsigned long (*image_get_typeof)(const void *image, const char *name);
    const char *(*error_buffer)(void);
    char *(*error_buffer_copy)(void);
    void (*error_clear)(void);
    void (*image_set_progress)(void *image, int progress);
    void (*image_set_kill)(void *image, int kill);
    unsigned long (*g_signal_connect_data)(void *instance, const char *signal, void (*handler)(void),
                                           void *data, void *destroy, int flags);
    void (*g_signal_handler_disconnect)(void *instance, unsigned long handler);
    unsigned (*g_log_set_handler)(const char *domain, int levels,
                                  void (*handler)(const char *, int, const char *, void *), void *data);
    void (*g_object_unref)(void *object);
    void (*g_free)(void *memory);
    int (*version)(int flag);
    void *(*g_module_open)(const char *path, int flags);
    void (*g_module_make_resident)(void *module);
    const char *(*g_module_error)(void);
} LPVipsFunctions;

extern LPVipsFunctions lp_vips;

/// Opens libvips and fills `lp_vips`; 0 on success, else -1 and `lp_vips_load_error()`.
int lp_vips_load(void);
const char *lp_vips_load_error(void);

/// The directory libvips was loaded from ("/usr/lib/x86_64-linux-gnu"), or
/// NULL when it cannot be told; valid after `lp_vips_load`.
const char *lp_vips_library_directory(void);

#endif
