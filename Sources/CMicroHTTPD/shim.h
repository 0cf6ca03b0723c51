#ifndef GATEHOUSE_CMICROHTTPD_H
#define GATEHOUSE_CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic; Swift cannot call it. Options travel as one
// MHD_OPTION_ARRAY so the Swift side builds a plain array of MHD_OptionItem.
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, uint16_t port,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// Flags are a closed enum in Swift; OR-ing them is easier here.
static inline unsigned int cmhd_flags(int ipv6) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_EPOLL;
    if (ipv6) flags |= MHD_USE_IPv6;
    return flags;
}

static inline struct MHD_Response *cmhd_response_copying(size_t size, const void *bytes) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

// Writes the peer's numeric address into `out`; an empty string when unknown.
static inline void cmhd_client_address(struct MHD_Connection *connection, char *out, size_t length) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, (socklen_t)length);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, (socklen_t)length);
    }
}

// A flag read on every request by several threads; atomics keep that read lock-free.
static inline int cmhd_flag_get(int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }
static inline void cmhd_flag_set(int *flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELEASE); }

static inline long cmhd_counter_add(long *counter, long delta) {
    return __atomic_add_fetch(counter, delta, __ATOMIC_ACQ_REL);
}
static inline long cmhd_counter_get(long *counter) { return __atomic_load_n(counter, __ATOMIC_ACQUIRE); }

// MHD decodes %XX in the path before the application sees it; signed requests need the
// path exactly as sent, so decoding happens in Swift instead.
static inline size_t cmhd_keep_escapes(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls; (void)connection;
    return strlen(text);
}
static inline intptr_t cmhd_keep_escapes_callback(void) { return (intptr_t)&cmhd_keep_escapes; }

// The application's per-connection pointer (set in the NOTIFY_CONNECTION callback).
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

// Ends both directions of a socket that MHD still owns: its next read sees the end and
// MHD closes the connection itself, on its own thread.
static inline void cmhd_cut(int fd) { shutdown(fd, SHUT_RDWR); }

// One write that never blocks MHD's thread and never raises SIGPIPE.
static inline ssize_t cmhd_send_now(int fd, const void *bytes, size_t length) {
    return send(fd, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT);
}

// On Linux, shutting a listening socket down ends its listening: connects are refused.
static inline void cmhd_stop_listening(int fd) { shutdown(fd, SHUT_RDWR); }

static inline int cmhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info ? info->listen_fd : -1;
}

// Closes a running daemon's listening socket under MHD's feet, so connects are refused from
// now on, without MHD_quiesce_daemon (see `Server.shutdown` for why). The descriptor number MHD
// holds is pointed at one end of a fresh socket pair: the listening socket itself is closed
// (the kernel refuses connects, resets what waited in its backlog, and takes it out of every
// worker's epoll set), while MHD's number stays a valid socket that never has anything to
// read, for MHD to close when it stops. Returns the pair's other end, to be closed once MHD
// has stopped (its end would report a hang-up to the workers' epoll sets before then); -1
// when no pair could be made, and nothing changed.
static inline int cmhd_close_listener(int listen_fd) {
    int pair[2];
    if (listen_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) != 0) return -1;
    if (dup2(pair[0], listen_fd) < 0) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    (void)fcntl(listen_fd, F_SETFD, FD_CLOEXEC);
    close(pair[0]);
    return pair[1];
}

// The request target as MHD first saw it, before a NUL could hide the rest of it and before
// MHD turned `+` into a space in its arguments: its length, and whether it held a space or a
// control byte. The URI log callback's answer is the request's first context value, so both
// travel in an odd pointer value (no object is ever at an odd address) and nothing is
// allocated for them.
static inline void *cmhd_log_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls; (void)connection;
    size_t length = 0;
    uintptr_t refused = 0;
    for (const unsigned char *c = (const unsigned char *)uri; *c != 0; c++, length++) {
        if (*c <= 0x20 || *c == 0x7F) refused = 1;
    }
    return (void *)(uintptr_t)((length << 2) | (refused << 1) | 1);
}
static inline intptr_t cmhd_log_uri_callback(void) { return (intptr_t)&cmhd_log_uri; }
static inline int cmhd_is_uri_length(const void *context) { return ((uintptr_t)context & 1) != 0; }
static inline size_t cmhd_uri_length(const void *context) { return (uintptr_t)context >> 2; }
static inline int cmhd_uri_has_refused_byte(const void *context) { return ((uintptr_t)context & 2) != 0; }

// libmicrohttpd 0.9.75 hands the head over as C strings cut at the first NUL, and it skips
// extra spaces in the request line and unfolds obs-fold lines into the field name. It leaves
// every line where it read it, though, with each CR and LF (and the colon and the request
// line's spaces) overwritten by NUL. So a head that a strict RFC 9112 reader accepts has an
// exact layout: the method, one NUL, the target, one NUL, the version, its line end, then each
// field as name, NUL, optional SP/HTAB, value, line end, and the empty line. Any byte hidden
// behind a NUL, any extra space and any folding breaks that layout; this walks it.
//
// The one case it cannot see: a NUL right before a line end, which hides nothing.
struct cmhd_layout_walk {
    const char *next;
    const char *last_end;
    int broken;
    size_t fields;
    size_t bytes;
};

// Where the line after a line end begins: a CRLF is two NULs now, a bare LF one. (A field
// line never begins with NUL: MHD takes such a line for the empty one that ends the head,
// which the final check below sees.)
static inline const char *cmhd_after_line_end(const char *end) {
    return end[1] == 0 ? end + 2 : end + 1;
}

static inline enum MHD_Result cmhd_layout_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                const char *value, size_t value_size) {
    (void)kind;
    struct cmhd_layout_walk *walk = cls;
    walk->fields += 1;
    walk->bytes += key_size + value_size + 4;
    if (key != walk->next || value == NULL) { walk->broken = 1; return MHD_NO; }
    const char *cursor = key + key_size + 1;
    while (cursor < value && (*cursor == ' ' || *cursor == '\t')) cursor++;
    const char *end = value + value_size;
    if (cursor != value || end[0] != 0) { walk->broken = 1; return MHD_NO; }
    walk->last_end = end;
    walk->next = cmhd_after_line_end(end);
    return MHD_YES;
}

// 0: the head is laid out as a strict reader would have read it; 1: the request line is not
// (extra spaces, a NUL in the target); 2: a field is not (a NUL hiding bytes, a folded line).
// `fields` and `bytes` say how many header fields and about how many bytes the head holds.
static inline int cmhd_head_layout(struct MHD_Connection *connection, const char *method, const char *url,
                                   const char *version, size_t uri_length, size_t *fields, size_t *bytes) {
    *fields = 0;
    *bytes = 0;
    if (method == NULL || url == NULL || version == NULL) return 1;
    if (url != method + strlen(method) + 1 || version != url + uri_length + 1) return 1;
    const char *version_end = version + strlen(version);
    struct cmhd_layout_walk walk = { cmhd_after_line_end(version_end), version_end, 0, 0, 0 };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, cmhd_layout_field, &walk);
    *fields = walk.fields;
    *bytes = walk.bytes + (size_t)(version_end - method);
    if (walk.broken) return 2;
    // From the last line's end to the head's end (MHD's header size, counted from the method):
    // that line end and the empty line, two to four NULs and nothing else. A line MHD took for
    // the empty one because it began with NUL, or bytes behind a NUL in the last field, show
    // here. (A CRLF, a NUL and a LF still read like two line ends: that NUL hides nothing.)
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL) return 2;
    const char *head_end = method + info->header_size;
    if (head_end <= walk.last_end || head_end - walk.last_end > 4) return 2;
    for (const char *cursor = walk.last_end; cursor < head_end; cursor++) {
        if (*cursor != 0) return 2;
    }
    return 0;
}

static inline ssize_t cmhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t cmhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline uint64_t cmhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
#endif
