// Unix datagram sockets; see CKernelSocket.h.
#include "CKernelSocket.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

// Fills `out` and returns the address length the kernel expects: for a path, the path and its NUL;
// for an abstract name, exactly the bytes given (trailing NULs would be part of the name).
static socklen_t fill_address(struct sockaddr_un *out, const uint8_t *address, size_t length) {
    if (length == 0 || length > sizeof out->sun_path || (address[0] != 0 && length == sizeof out->sun_path)) {
        errno = EINVAL;
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->sun_family = AF_UNIX;
    memcpy(out->sun_path, address, length);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + (address[0] != 0 ? 1 : 0));
}

int bk_unix_dgram_socket(void) { return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0); }

ssize_t bk_unix_dgram_send(int fd, const uint8_t *address, size_t length, const void *data, size_t size) {
    struct sockaddr_un target;
    socklen_t target_length = fill_address(&target, address, length);
    if (target_length == 0) return -1;
    ssize_t sent;
    do sent = sendto(fd, data, size, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&target, target_length);
    while (sent == -1 && errno == EINTR);
    return sent;
}

int bk_unix_dgram_bind(const uint8_t *address, size_t length) {
    struct sockaddr_un local;
    socklen_t local_length = fill_address(&local, address, length);
    if (local_length == 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&local, local_length) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

ssize_t bk_unix_dgram_receive(int fd, void *buffer, size_t capacity) {
    ssize_t got;
    do got = recv(fd, buffer, capacity, MSG_DONTWAIT); while (got == -1 && errno == EINTR);
    return got;
}

int bk_getpid(void) { return (int)getpid(); }
