// hiredis and zlib, loaded when fleet mode first talks to Redis rather than
// when the process starts.
//
// Why: a daemon without `--fleet` should pay nothing for fleet mode — no
// mapped library, no relocations, no resident pages. Swift cannot call
// `dlopen`'d functions by name, so this file defines the hiredis and zlib
// functions that `Redis` calls, each forwarding to the real one (as
// CCurl/loader.c does for libcurl). Unlike libcurl, a missing hiredis is not
// fatal: `lp_hiredis_load` says so first, and fleet mode then stays off
// (the local cache levels work as without `--fleet`). A function not listed
// here fails to link: add one line for it below.
#include "CHiredis.h"
#include "loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// The hiredis this was compiled against: its reply struct changed between
// 0.14 and 1.x, so only the library that matches the header may be opened
// (the unversioned name comes with libhiredis-dev, which installed the header).
#define LP_STRINGIFY2(x) #x
#define LP_STRINGIFY(x) LP_STRINGIFY2(x)
#if HIREDIS_MAJOR == 0
#define LP_HIREDIS_SONAME "libhiredis.so." LP_STRINGIFY(HIREDIS_MAJOR) "." LP_STRINGIFY(HIREDIS_MINOR)
#else
#define LP_HIREDIS_SONAME "libhiredis.so." LP_STRINGIFY(HIREDIS_MAJOR) "." LP_STRINGIFY(HIREDIS_MINOR) "." LP_STRINGIFY(HIREDIS_PATCH)
#endif
static const char *const hiredis_names[] = {LP_HIREDIS_SONAME, "libhiredis.so", NULL};
static const char *const zlib_names[] = {"libz.so.1", "libz.so", NULL};

struct library {
    pthread_once_t once;
    const char *const *names;
    void *handle;
    char error[256];
};

static struct library libraries[2] = {
    {PTHREAD_ONCE_INIT, hiredis_names, NULL, ""},
    {PTHREAD_ONCE_INIT, zlib_names, NULL, ""},
};

static void open_library(struct library *library) {
    for (int i = 0; library->names[i] != NULL && library->handle == NULL; i++) {
        library->handle = dlopen(library->names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library->handle == NULL) {
        const char *why = dlerror();
        snprintf(library->error, sizeof library->error, "%s", why ? why : "not found");
    }
}

static void open_hiredis(void) { open_library(&libraries[0]); }
static void open_zlib(void) { open_library(&libraries[1]); }

static struct library *loaded(int zlib) {
    pthread_once(&libraries[zlib].once, zlib ? open_zlib : open_hiredis);
    return &libraries[zlib];
}

static int load(int zlib, char *why, int size) {
    struct library *library = loaded(zlib);
    if (library->handle != NULL) return 1;
    if (why != NULL && size > 0) snprintf(why, (size_t)size, "%s", library->error);
    return 0;
}

int lp_hiredis_load(char *why, int size) { return load(0, why, size); }
int lp_zlib_load(char *why, int size) { return load(1, why, size); }

void *lp_fleet_symbol(int zlib, const char *name) {
    struct library *library = loaded(zlib);
    return library->handle ? dlsym(library->handle, name) : NULL;
}

const char *lp_redis_error(const redisContext *context) {
    return context ? context->errstr : "no connection";
}

// Each function looks its symbol up once and keeps it. Swift calls these
// only after `lp_hiredis_load` / `lp_zlib_load` said yes, and every symbol
// below is in every hiredis ≥ 0.13 and zlib ≥ 1.2.9, so `function` is not NULL.
#define LP_RESOLVE(zlib, name) \
    static _Atomic(void *) cached; \
    void *function = atomic_load_explicit(&cached, memory_order_acquire); \
    if (function == NULL) { \
        function = lp_fleet_symbol(zlib, #name); \
        atomic_store_explicit(&cached, function, memory_order_release); \
    }

#define LP_FORWARD(zlib, result, failure, name, parameters, arguments) \
    result name parameters { \
        LP_RESOLVE(zlib, name) \
        if (function == NULL) return failure; \
        return ((result(*) parameters) function) arguments; \
    }

#define LP_FORWARD_VOID(zlib, name, parameters, arguments) \
    void name parameters { \
        LP_RESOLVE(zlib, name) \
        if (function == NULL) return; \
        ((void(*) parameters) function) arguments; \
    }

LP_FORWARD(0, redisContext *, NULL, redisConnectWithTimeout, (const char *ip, int port, const struct timeval tv), (ip, port, tv))
LP_FORWARD(0, int, REDIS_ERR, redisSetTimeout, (redisContext *c, const struct timeval tv), (c, tv))
LP_FORWARD(0, int, REDIS_ERR, redisEnableKeepAlive, (redisContext *c), (c))
LP_FORWARD_VOID(0, redisFree, (redisContext *c), (c))
LP_FORWARD_VOID(0, freeReplyObject, (void *reply), (reply))
LP_FORWARD(0, int, REDIS_ERR, redisAppendCommandArgv,
    (redisContext *c, int argc, const char **argv, const size_t *argvlen), (c, argc, argv, argvlen))
LP_FORWARD(0, int, REDIS_ERR, redisGetReply, (redisContext *c, void **reply), (c, reply))

LP_FORWARD(1, uLong, 0, compressBound, (uLong sourceLen), (sourceLen))
LP_FORWARD(1, int, Z_STREAM_ERROR, compress2,
    (Bytef *dest, uLongf *destLen, const Bytef *source, uLong sourceLen, int level),
    (dest, destLen, source, sourceLen, level))
LP_FORWARD(1, int, Z_STREAM_ERROR, uncompress2,
    (Bytef *dest, uLongf *destLen, const Bytef *source, uLong *sourceLen), (dest, destLen, source, sourceLen))
