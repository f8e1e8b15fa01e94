// Files and folders reached relative to an open folder (the *at calls), for durable writes and for
// reading untrusted trees (a USB stick) without following symlinks. Same rules as CKernel.h: every
// open adds O_CLOEXEC, errors are -1 with errno, no logic.
#ifndef BACKDROP_CKERNEL_FILES_H
#define BACKDROP_CKERNEL_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Special folder descriptor meaning "relative to the working directory" (AT_FDCWD).
int bk_at_cwd(void);

/// Opens a folder; never follows a symlink in the last component (O_DIRECTORY | O_NOFOLLOW).
int bk_open_directory_at(int dirfd, const char *name);
/// Opens a file for reading: O_NOFOLLOW (a symlink fails with ELOOP), O_NONBLOCK (a fifo that
/// slipped past a kind check cannot block), O_NOCTTY. The caller checks the kind with bk_fstat.
int bk_open_read_at(int dirfd, const char *name);
/// Creates or truncates a file for writing, mode 0644, O_NOFOLLOW.
int bk_create_at(int dirfd, const char *name);
/// flock(2) without waiting, exclusive or shared: 0 taken, 1 held through another open file,
/// -1 on any other error (errno). Released when the last descriptor of that open file closes.
int bk_flock_try(int fd, int exclusive);

enum {
    BK_KIND_OTHER = 0, BK_KIND_REGULAR = 1, BK_KIND_DIRECTORY = 2, BK_KIND_SYMLINK = 3,
    BK_KIND_FIFO = 4, BK_KIND_CHARACTER_DEVICE = 5, BK_KIND_BLOCK_DEVICE = 6, BK_KIND_SOCKET = 7,
};
/// What an open descriptor is: kind (BK_KIND_*), size in bytes, allocated bytes (st_blocks * 512,
/// which is small for a sparse file).
int bk_fstat(int fd, int *kind, int64_t *size, int64_t *allocated);
/// The same for a name in a folder, without following a symlink (lstat semantics).
int bk_stat_at_nofollow(int dirfd, const char *name, int *kind, int64_t *size, int64_t *allocated);

int bk_mkdir_at(int dirfd, const char *name, unsigned mode);
int bk_rename_at(int from_dirfd, const char *from, int to_dirfd, const char *to);
/// Removes a file or symlink (directory = 0) or an empty folder (directory = 1).
int bk_unlink_at(int dirfd, const char *name, int directory);
/// A hard link: `to` in to_dirfd names the same file as `from` (never following a symlink).
int bk_link_at(int from_dirfd, const char *from, int to_dirfd, const char *to);
int bk_symlink_at(const char *target, int dirfd, const char *name);
/// Reads a symlink's target into buffer (NUL-terminated); returns its length or -1.
ssize_t bk_read_link_at(int dirfd, const char *name, char *buffer, size_t capacity);

/// Lists an open folder like bk_list_directory (NUL-separated names, no . and ..). Reads through a
/// duplicate of dirfd, so the caller's descriptor stays open and owned by the caller. Returns the
/// number of entries in the folder, counting those that did not fit: a caller that got fewer names
/// knows the listing was cut short.
int bk_list_directory_fd(int dirfd, char *names, size_t capacity, size_t *used);

/// The absolute path with every symlink, `.` and `..` resolved (realpath(3)) into buffer; -1 with
/// errno when the path does not exist or does not fit.
int bk_resolve_path(const char *path, char *buffer, size_t capacity);
/// 1 when fd is a terminal (a progress line may redraw itself there), else 0.
int bk_is_terminal(int fd);

enum { BK_ELOOP = 40, BK_ENOTDIR = 20, BK_EISDIR = 21, BK_EXDEV = 18, BK_ENOTEMPTY = 39, BK_ENXIO = 6, BK_EROFS = 30, BK_EDQUOT = 122 };

#ifdef __cplusplus
}
#endif
#endif
