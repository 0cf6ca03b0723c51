#ifndef GATEHOUSE_CCURL_H
#define GATEHOUSE_CCURL_H
#include <curl/curl.h>
#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
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

// The multi handle's socket interface: curl says which sockets to watch and when its next
// timer is due; the loop watches them with epoll and tells curl what happened.
static inline CURLMcode ccurl_multi_set_socket(CURLM *multi, curl_socket_callback callback, void *data) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, data);
}
static inline CURLMcode ccurl_multi_set_timer(CURLM *multi, curl_multi_timer_callback callback, void *data) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_TIMERDATA, data);
}
static inline curl_socket_t ccurl_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

// epoll_event is packed on x86-64; these keep its layout on the C side.
static inline int ccurl_epoll_watch(int epoll, int fd, int in, int out) {
    struct epoll_event event = { .events = (in ? EPOLLIN : 0) | (out ? EPOLLOUT : 0), .data = { .fd = fd } };
    if (epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) == 0) return 0;
    return errno == ENOENT ? epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) : -1;
}
static inline void ccurl_epoll_forget(int epoll, int fd) {
    struct epoll_event event = { 0 };
    (void)epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event);
}
// Waits up to `timeout` ms; fills `fds` and curl's CURL_CSELECT_* bits for each ready socket.
static inline int ccurl_epoll_wait(int epoll, int *fds, int *masks, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int ready = epoll_wait(epoll, events, capacity, timeout);
    for (int i = 0; i < ready; i++) {
        fds[i] = events[i].data.fd;
        masks[i] = ((events[i].events & EPOLLIN) ? CURL_CSELECT_IN : 0) | ((events[i].events & EPOLLOUT) ? CURL_CSELECT_OUT : 0)
            | ((events[i].events & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
    }
    return ready;
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
