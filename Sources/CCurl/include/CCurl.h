// CCurl: the few libcurl calls Swift cannot make by itself.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadic
// functions, which Swift cannot call. Each wrapper below fixes the type of the
// variadic argument so the call becomes an ordinary, type-checked function.
// Nothing else belongs here: everything that Swift can do lives in `Curl`.
// (The one other C file, loader.c, opens libcurl on first use instead of at
// start-up; Swift calls libcurl's functions by their usual names.)
#ifndef LINKPEEK_CCURL_H
#define LINKPEEK_CCURL_H

#include <curl/curl.h>

/// Options that take a `long` (timeouts, flags, limits).
CURLcode lp_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// Options that take a `curl_off_t` (byte sizes).
CURLcode lp_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// Options that take a C string; libcurl copies it.
CURLcode lp_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
/// Options that take an opaque pointer (userdata, error buffer, slists).
CURLcode lp_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
CURLcode lp_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
/// CURLOPT_OPENSOCKETFUNCTION.
CURLcode lp_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback);
/// CURLOPT_XFERINFOFUNCTION (the progress callback: where a transfer is, from libcurl's own timings).
CURLcode lp_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);

CURLcode lp_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode lp_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode lp_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode lp_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode lp_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// A share handle for every loop of one transfer engine: DNS cache and TLS
/// sessions, each kind of data behind its own mutex (the lock callbacks
/// libcurl requires when the share is used from several threads). Not the
/// connection cache: libcurl does not support sharing connections between
/// threads. NULL when libcurl refuses it or memory runs out.
typedef struct lp_share lp_share;
lp_share *lp_share_create(void);
/// The CURLSH* to set as CURLOPT_SHARE.
CURLSH *lp_share_handle(lp_share *share);
/// Frees the share once no easy handle uses it (else leaves it, rather than free what is in use).
void lp_share_destroy(lp_share *share);

#endif
