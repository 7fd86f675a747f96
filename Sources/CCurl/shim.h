// libcurl for PagedotsFetch.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic,
// and Swift cannot call a variadic C function: these typed wrappers pass
// each kind of argument the option expects (curl.h says which).
#ifndef PAGEDOTS_CCURL_SHIM_H
#define PAGEDOTS_CCURL_SHIM_H

#include <curl/curl.h>

/// An option that takes a `long` (flags, counts, milliseconds).
static inline CURLcode pd_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a string (libcurl copies it) or a pointer of the caller's
/// (callback data, a header list, the error buffer), which must outlive the transfer.
static inline CURLcode pd_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode pd_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// CURLOPT_OPENSOCKETFUNCTION.
static inline CURLcode pd_curl_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

/// CURLOPT_PREREQFUNCTION (libcurl 7.80 and later).
static inline CURLcode pd_curl_easy_setopt_prereq_callback(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

/// Information given as a `long` (CURLINFO_RESPONSE_CODE, CURLINFO_OS_ERRNO).
static inline CURLcode pd_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// Information given as a `curl_off_t` (CURLINFO_CONNECT_TIME_T, in microseconds).
static inline CURLcode pd_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// Information given as a string owned by the handle (CURLINFO_REDIRECT_URL); NULL when absent.
static inline CURLcode pd_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// A multi-handle option that takes a `long`.
static inline CURLMcode pd_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

#endif
