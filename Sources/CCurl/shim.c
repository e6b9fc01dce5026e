#include "CCurl.h"
#include "loader.h"

CURLcode lp_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return lp_curl_easy_setopt()(handle, option, value);
}

CURLcode lp_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return lp_curl_easy_setopt()(handle, option, value);
}

CURLcode lp_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return lp_curl_easy_setopt()(handle, option, value);
}

CURLcode lp_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return lp_curl_easy_setopt()(handle, option, value);
}

CURLcode lp_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return lp_curl_easy_setopt()(handle, option, callback);
}

CURLcode lp_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback) {
    return lp_curl_easy_setopt()(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode lp_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return lp_curl_easy_getinfo()(handle, info, value);
}

CURLcode lp_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return lp_curl_easy_getinfo()(handle, info, value);
}

CURLcode lp_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return lp_curl_easy_getinfo()(handle, info, value);
}

CURLcode lp_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return lp_curl_easy_getinfo()(handle, info, value);
}

CURLMcode lp_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return lp_curl_multi_setopt()(multi, option, value);
}
