// libcurl, loaded when the first transfer engine starts rather than when the
// process starts.
//
// Why: linking libcurl makes the dynamic loader map and relocate it and its
// ~25 dependencies (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, …) and run their
// constructors at start-up: about 5 MB of resident memory in a daemon that
// may only ever answer `initialize` or serve its cache. Swift cannot call
// `dlopen`'d functions by name, so this file defines the libcurl functions
// that `Curl` calls, each forwarding to the real one. A libcurl function not
// listed here fails to link: add one line for it below.
#include "loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __APPLE__
#define LP_CURL_LIBRARY "libcurl.4.dylib"
#else
#define LP_CURL_LIBRARY "libcurl.so.4"
#endif

static void *library;
static pthread_once_t library_once = PTHREAD_ONCE_INIT;

static void load_library(void) {
    library = dlopen(LP_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
}

void *lp_curl_symbol(const char *name) {
    pthread_once(&library_once, load_library);
    void *symbol = library ? dlsym(library, name) : NULL;
    if (symbol == NULL) {
        // Without libcurl nothing can be fetched; say why rather than crash later.
        fprintf(stderr, "linkpeek: cannot load %s from %s: %s\n", name, LP_CURL_LIBRARY, dlerror());
        abort();
    }
    return symbol;
}

// Each function looks its symbol up once and keeps it.
#define LP_RESOLVE(name) \
    static _Atomic(void *) cached; \
    void *function = atomic_load_explicit(&cached, memory_order_acquire); \
    if (function == NULL) { \
        function = lp_curl_symbol(#name); \
        atomic_store_explicit(&cached, function, memory_order_release); \
    }

#define LP_FORWARD(result, name, parameters, arguments) \
    result name parameters { \
        LP_RESOLVE(name) \
        return ((result(*) parameters) function) arguments; \
    }

#define LP_FORWARD_VOID(name, parameters, arguments) \
    void name parameters { \
        LP_RESOLVE(name) \
        ((void(*) parameters) function) arguments; \
    }

LP_FORWARD(CURLcode, curl_global_init, (long flags), (flags))
LP_FORWARD(CURL *, curl_easy_init, (void), ())
LP_FORWARD_VOID(curl_easy_cleanup, (CURL *handle), (handle))
LP_FORWARD(const char *, curl_easy_strerror, (CURLcode code), (code))
LP_FORWARD(CURLM *, curl_multi_init, (void), ())
LP_FORWARD(CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi))
LP_FORWARD(CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *handle), (multi, handle))
LP_FORWARD(CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *handle), (multi, handle))
LP_FORWARD(CURLMcode, curl_multi_perform, (CURLM *multi, int *running), (multi, running))
LP_FORWARD(CURLMcode, curl_multi_poll,
    (CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready),
    (multi, extra, count, timeout, ready))
LP_FORWARD(CURLMcode, curl_multi_wakeup, (CURLM *multi), (multi))
LP_FORWARD(CURLMsg *, curl_multi_info_read, (CURLM *multi, int *queued), (multi, queued))
LP_FORWARD(CURLSH *, curl_share_init, (void), ())
LP_FORWARD(CURLSHcode, curl_share_cleanup, (CURLSH *share), (share))
LP_FORWARD(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *string), (list, string))
LP_FORWARD_VOID(curl_slist_free_all, (struct curl_slist *list), (list))

CURLcode (*lp_curl_easy_setopt(void))(CURL *, CURLoption, ...) {
    LP_RESOLVE(curl_easy_setopt)
    return (CURLcode(*)(CURL *, CURLoption, ...)) function;
}

CURLcode (*lp_curl_easy_getinfo(void))(CURL *, CURLINFO, ...) {
    LP_RESOLVE(curl_easy_getinfo)
    return (CURLcode(*)(CURL *, CURLINFO, ...)) function;
}

CURLMcode (*lp_curl_multi_setopt(void))(CURLM *, CURLMoption, ...) {
    LP_RESOLVE(curl_multi_setopt)
    return (CURLMcode(*)(CURLM *, CURLMoption, ...)) function;
}

CURLSHcode (*lp_curl_share_setopt(void))(CURLSH *, CURLSHoption, ...) {
    LP_RESOLVE(curl_share_setopt)
    return (CURLSHcode(*)(CURLSH *, CURLSHoption, ...)) function;
}
