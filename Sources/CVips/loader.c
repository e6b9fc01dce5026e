// libvips, opened on first use rather than linked.
//
// Why: libvips pulls in GLib, GObject and a codec library per format (JPEG,
// PNG, WebP, HEIF, librsvg with Cairo and Pango, …): linking it would make
// the dynamic loader map and relocate all of them when the daemon starts,
// for a daemon that may never see an image (same reasoning as CCurl's
// loader.c). Swift cannot call dlsym'd functions by name, and libvips's
// headers need GLib's include paths, so this file declares the handful of
// libvips functions shim.c calls itself, with opaque pointers.
#define _GNU_SOURCE // dladdr
#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef __APPLE__
#define LP_VIPS_LIBRARY "libvips.42.dylib"
#else
#define LP_VIPS_LIBRARY "libvips.so.42"
#endif

LPVipsFunctions lp_vips;

static char load_error[512];
static char library_directory[4096];

static int resolve(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "cannot find %s in %s", name, LP_VIPS_LIBRARY);
        return -1;
    }
    return 0;
}

#define LP_RESOLVE(field, name) \
    if (resolve(library, (void **)&lp_vips.field, name) != 0) return -1;

int lp_vips_load(void) {
    void *library = dlopen(LP_VIPS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load %s: %s", LP_VIPS_LIBRARY, why ? why : "unknown error");
        return -1;
    }
    LP_RESOLVE(init, "vips_init")
    LP_RESOLVE(block_untrusted_set, "vips_block_untrusted_set")
    LP_RESOLVE(operation_block_set, "vips_operation_block_set")
    LP_RESOLVE(cache_set_max, "vips_cache_set_max")
    LP_RESOLVE(thumbnail_buffer, "vips_thumbnail_buffer")
    LP_RESOLVE(thumbnail_image, "vips_thumbnail_image")
    LP_RESOLVE(image_new_from_buffer, "vips_image_new_from_buffer")
    LP_RESOLVE(image_new_from_memory_copy, "vips_image_new_from_memory_copy")
    LP_RESOLVE(image_write_to_buffer, "vips_image_write_to_buffer")
    LP_RESOLVE(flatten, "vips_flatten")
    LP_RESOLVE(copy, "vips_copy")
    LP_RESOLVE(image_get_fields, "vips_image_get_fields")
    LP_RESOLVE(image_remove, "vips_image_remove")
    LP_RESOLVE(array_double_new, "vips_array_double_new")
    LP_RESOLVE(area_unref, "vips_area_unref")
    LP_RESOLVE(image_get_width, "vips_image_get_width")
    LP_RESOLVE(image_get_height, "vips_image_get_height")
    LP_RESOLVE(image_get_bands, "vips_image_get_bands")
    LP_RESOLVE(image_get_n_pages, "vips_image_get_n_pages")
    LP_RESOLVE(image_get_page_height, "vips_image_get_page_height")
    LP_RESOLVE(image_hasalpha, "vips_image_hasalpha")
    LP_RESOLVE(image_get_typeof, "vips_image_get_typeof")
    LP_RESOLVE(error_buffer, "vips_error_buffer")
    LP_RESOLVE(error_buffer_copy, "vips_error_buffer_copy")
    LP_RESOLVE(error_clear, "vips_error_clear")
    LP_RESOLVE(image_set_progress, "vips_image_set_progress")
    LP_RESOLVE(image_set_kill, "vips_image_set_kill")
    // GLib and GObject come with libvips; dlsym on its handle searches its dependencies too.
    LP_RESOLVE(g_object_unref, "g_object_unref")
    LP_RESOLVE(g_free, "g_free")
    LP_RESOLVE(g_strfreev, "g_strfreev")
    LP_RESOLVE(g_signal_connect_data, "g_signal_connect_data")
    LP_RESOLVE(g_log_set_handler, "g_log_set_handler")
    LP_RESOLVE(g_signal_handler_disconnect, "g_signal_handler_disconnect")
    LP_RESOLVE(version, "vips_version")
    // GModule too (libvips loads its own modules with it): see lp_vips_load_module.
    LP_RESOLVE(g_module_open, "g_module_open")
    LP_RESOLVE(g_module_make_resident, "g_module_make_resident")
    LP_RESOLVE(g_module_error, "g_module_error")
    Dl_info info;
    if (dladdr((void *)lp_vips.init, &info) != 0 && info.dli_fname != NULL) {
        snprintf(library_directory, sizeof library_directory, "%s", info.dli_fname);
        char *slash = strrchr(library_directory, '/');
        if (slash != NULL) *slash = '\0';
        else library_directory[0] = '\0';
    }
    return 0;
}

const char *lp_vips_library_directory(void) {
    return library_directory[0] != '\0' ? library_directory : NULL;
}

const char *lp_vips_load_error(void) {
    return load_error;
}
