#ifndef GATEHOUSE_CCURL_H
#define GATEHOUSE_CCURL_H
#include <curl/curl.h>
#include <sys/socket.h>

// curl_easy_setopt and curl_easy_getinfo are variadic; Swift cannot call them. One typed
// wrapper per argument kind.
static inline CURLcode ccurl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ccurl_set_write(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}
static inline CURLcode ccurl_set_read(CURL *easy, curl_read_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_READFUNCTION, callback);
}
static inline CURLcode ccurl_set_opensocket(CURL *easy, curl_opensocket_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}
static inline CURLcode ccurl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ccurl_get_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLMcode ccurl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

// Macros Swift does not import.
static inline size_t ccurl_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline curl_socket_t ccurl_socket_bad(void) { return CURL_SOCKET_BAD; }
static inline int ccurl_pause_continue(void) { return CURLPAUSE_CONT; }

// The address curl is about to connect to, and a socket for it: the one place where the
// address is known for certain, after any resolution.
static inline const struct sockaddr *ccurl_sockaddr(struct curl_sockaddr *address) { return &address->addr; }
static inline curl_socket_t ccurl_open_socket(struct curl_sockaddr *address) {
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}
#endif
