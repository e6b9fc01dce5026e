// Private to CCurl: libcurl is loaded on first use (see loader.c).
#ifndef LINKPEEK_CCURL_LOADER_H
#define LINKPEEK_CCURL_LOADER_H

#include <curl/curl.h>

/// The address of libcurl's `name`; loads libcurl on first use. Stops the
/// process with a message when libcurl or the symbol is missing.
void *lp_curl_symbol(const char *name);

/// libcurl's variadic functions, for the typed wrappers in shim.c to call
/// with an argument of the right type.
CURLcode (*lp_curl_easy_setopt(void))(CURL *, CURLoption, ...);
CURLcode (*lp_curl_easy_getinfo(void))(CURL *, CURLINFO, ...);
CURLMcode (*lp_curl_multi_setopt(void))(CURLM *, CURLMoption, ...);
CURLSHcode (*lp_curl_share_setopt(void))(CURLSH *, CURLSHoption, ...);

#endif
