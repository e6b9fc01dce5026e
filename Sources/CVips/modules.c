// libvips's modules, loaded one at a time. lp_vips_start loads none of
// them (shim.c says why); the HEIF module is the one linkpeek uses, for
// AVIF and HEIC, and it is loaded here the first time an image needs it.
#include "CVips.h"
#include "loader.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;
static int heif_result = -1;
static char heif_error[512];

// What vips_init does for each module, for one: g_module_open runs the
// module's g_module_check_init, which registers its loaders and savers;
// kept resident, as libvips keeps its modules.
static void load_heif(void) {
    const char *directory = lp_vips_library_directory();
    if (directory == NULL) {
        snprintf(heif_error, sizeof heif_error, "cannot tell where libvips is installed");
        return;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/vips-modules-%d.%d/vips-heif.so", directory, lp_vips.version(0), lp_vips.version(1));
    if (access(path, R_OK) != 0) {
        // A libvips built without modules has HEIF built in, or lacks it:
        // either way there is nothing to load, and libvips says which.
        heif_result = 0;
        return;
    }
    void *module = lp_vips.g_module_open(path, 1 /* G_MODULE_BIND_LAZY */);
    if (module == NULL) {
        const char *why = lp_vips.g_module_error();
        snprintf(heif_error, sizeof heif_error, "cannot load %s: %s", path, why ? why : "unknown error");
        return;
    }
    lp_vips.g_module_make_resident(module);
    heif_result = 0;
}

int lp_vips_load_heif(void) {
    if (lp_vips_start() != 0) return -1;
    pthread_once(&heif_once, load_heif);
    return heif_result;
}

const char *lp_vips_heif_error(void) {
    return heif_error;
}
