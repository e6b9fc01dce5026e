// zlib's inflate, loaded when the first encoded body arrives rather than
// when the process starts.
//
// Why: linking zlib would map it in every command, most of which fetch
// nothing; libcurl already depends on it, so once a transfer has run,
// `dlopen` finds it mapped and only looks the four symbols up. As in
// CCurl/loader.c, each function below forwards to the real one.
#include "CInflate.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct zlib_functions {
    int (*init2)(z_stream *, int, const char *, int);
    int (*inflate)(z_stream *, int);
    int (*reset)(z_stream *);
    int (*end)(z_stream *);
};

static struct zlib_functions functions;
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_zlib(void) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libz.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    functions.init2 = (int (*)(z_stream *, int, const char *, int))dlsym(library, "inflateInit2_");
    functions.inflate = (int (*)(z_stream *, int))dlsym(library, "inflate");
    functions.reset = (int (*)(z_stream *))dlsym(library, "inflateReset");
    functions.end = (int (*)(z_stream *))dlsym(library, "inflateEnd");
    loaded = functions.init2 && functions.inflate && functions.reset && functions.end;
}

int lp_inflate_init(z_stream *stream, int window_bits) {
    pthread_once(&load_once, load_zlib);
    if (!loaded) return Z_VERSION_ERROR;
    return functions.init2(stream, window_bits, ZLIB_VERSION, (int)sizeof(z_stream));
}

// The three below are called only on a stream `lp_inflate_init` set up, so zlib is loaded.
int lp_inflate(z_stream *stream, int flush) { return functions.inflate(stream, flush); }
int lp_inflate_reset(z_stream *stream) { return functions.reset(stream); }
int lp_inflate_end(z_stream *stream) { return functions.end(stream); }
