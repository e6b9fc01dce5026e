#include "CCurl.h"
#include "loader.h"

#include <pthread.h>
#include <stdlib.h>

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

CURLcode lp_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return lp_curl_easy_setopt()(handle, CURLOPT_XFERINFOFUNCTION, callback);
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

struct lp_share {
    CURLSH *handle;
    pthread_mutex_t locks[CURL_LOCK_DATA_LAST];
};

static void lp_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr) {
    (void)handle;
    (void)access;
    struct lp_share *share = userptr;
    if (data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&share->locks[data]);
}

static void lp_share_unlock(CURL *handle, curl_lock_data data, void *userptr) {
    (void)handle;
    struct lp_share *share = userptr;
    if (data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&share->locks[data]);
}

lp_share *lp_share_create(void) {
    struct lp_share *share = calloc(1, sizeof *share);
    if (share == NULL) return NULL;
    share->handle = curl_share_init();
    if (share->handle == NULL) {
        free(share);
        return NULL;
    }
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&share->locks[i], NULL);
    CURLSHcode (*setopt)(CURLSH *, CURLSHoption, ...) = lp_curl_share_setopt();
    if (setopt(share->handle, CURLSHOPT_LOCKFUNC, lp_share_lock) != CURLSHE_OK
        || setopt(share->handle, CURLSHOPT_UNLOCKFUNC, lp_share_unlock) != CURLSHE_OK
        || setopt(share->handle, CURLSHOPT_USERDATA, (void *)share) != CURLSHE_OK
        || setopt(share->handle, CURLSHOPT_SHARE, (long)CURL_LOCK_DATA_DNS) != CURLSHE_OK
        || setopt(share->handle, CURLSHOPT_SHARE, (long)CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        lp_share_destroy(share);
        return NULL;
    }
    return share;
}

CURLSH *lp_share_handle(lp_share *share) {
    return share->handle;
}

void lp_share_destroy(lp_share *share) {
    if (share == NULL) return;
    if (curl_share_cleanup(share->handle) != CURLSHE_OK) return;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&share->locks[i]);
    free(share);
}
