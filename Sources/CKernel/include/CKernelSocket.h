// Unix datagram sockets for the service manager's notification protocol (sd_notify): the socket
// calls take a struct sockaddr_un, which Swift cannot build portably in Embedded mode, so the
// address is passed as bytes and the struct is filled here. No logic lives here.
#ifndef BACKDROP_CKERNEL_SOCKET_H
#define BACKDROP_CKERNEL_SOCKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Longest address these calls accept: sizeof(sun_path). A path needs one byte more for its NUL.
enum { BK_UNIX_ADDRESS_MAX = 108 };

/// An unbound AF_UNIX SOCK_DGRAM socket (close-on-exec), or -1 with errno.
int bk_unix_dgram_socket(void);

/// Sends one datagram to `address` (`length` bytes). A leading NUL byte names an abstract socket
/// (the kernel takes exactly `length` bytes then); otherwise it is a file-system path. Never blocks
/// (MSG_DONTWAIT) and never raises SIGPIPE. Returns the bytes sent or -1 with errno (EAGAIN when
/// the receiver's queue is full).
ssize_t bk_unix_dgram_send(int fd, const uint8_t *address, size_t length, const void *data, size_t size);

/// A non-blocking AF_UNIX SOCK_DGRAM socket bound to `address` (same encoding as the send), or -1
/// with errno: the receiving end, as the service manager holds it.
int bk_unix_dgram_bind(const uint8_t *address, size_t length);

/// Receives one datagram without blocking: its size (truncated to `capacity`), or -1 with errno
/// (EAGAIN when none is queued).
ssize_t bk_unix_dgram_receive(int fd, void *buffer, size_t capacity);

int bk_getpid(void);

#ifdef __cplusplus
}
#endif
#endif
