#define _GNU_SOURCE
#include "CKernelFiles.h"
#include "FaultPoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int bk_at_cwd(void) { return AT_FDCWD; }

int bk_open_directory_at(int dirfd, const char *name) {
    return BK_SYSCALL(BK_CALL_OPEN, dirfd, 0, openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}
int bk_open_read_at(int dirfd, const char *name) {
    return BK_SYSCALL(BK_CALL_OPEN, dirfd, 0, openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
}
int bk_create_at(int dirfd, const char *name) {
    return BK_SYSCALL(BK_CALL_OPEN, dirfd, 0, openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
}

int bk_flock_try(int fd, int exclusive) {
    int result;
    do result = flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB); while (result < 0 && errno == EINTR);
    if (result == 0) return 0;
    return errno == EWOULDBLOCK ? 1 : -1;
}

static int kind_of(mode_t mode) {
    if (S_ISREG(mode)) return BK_KIND_REGULAR;
    if (S_ISDIR(mode)) return BK_KIND_DIRECTORY;
    if (S_ISLNK(mode)) return BK_KIND_SYMLINK;
    if (S_ISFIFO(mode)) return BK_KIND_FIFO;
    if (S_ISCHR(mode)) return BK_KIND_CHARACTER_DEVICE;
    if (S_ISBLK(mode)) return BK_KIND_BLOCK_DEVICE;
    if (S_ISSOCK(mode)) return BK_KIND_SOCKET;
    return BK_KIND_OTHER;
}

static void fill(const struct stat *info, int *kind, int64_t *size, int64_t *allocated) {
    *kind = kind_of(info->st_mode);
    *size = (int64_t)info->st_size;
    *allocated = (int64_t)info->st_blocks * 512;
}

int bk_fstat(int fd, int *kind, int64_t *size, int64_t *allocated) {
    struct stat info;
    if (fstat(fd, &info) != 0) return -1;
    fill(&info, kind, size, allocated);
    return 0;
}
int bk_stat_at_nofollow(int dirfd, const char *name, int *kind, int64_t *size, int64_t *allocated) {
    struct stat info;
    if (fstatat(dirfd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    fill(&info, kind, size, allocated);
    return 0;
}

int bk_mkdir_at(int dirfd, const char *name, unsigned mode) { return BK_SYSCALL(BK_CALL_MKDIR, dirfd, 0, mkdirat(dirfd, name, mode)); }
int bk_rename_at(int from_dirfd, const char *from, int to_dirfd, const char *to) {
    return BK_SYSCALL(BK_CALL_RENAME, to_dirfd, 0, renameat(from_dirfd, from, to_dirfd, to));
}
int bk_unlink_at(int dirfd, const char *name, int directory) {
    return unlinkat(dirfd, name, directory ? AT_REMOVEDIR : 0);
}
int bk_link_at(int from_dirfd, const char *from, int to_dirfd, const char *to) {
    return linkat(from_dirfd, from, to_dirfd, to, 0);
}
int bk_symlink_at(const char *target, int dirfd, const char *name) { return symlinkat(target, dirfd, name); }
ssize_t bk_read_link_at(int dirfd, const char *name, char *buffer, size_t capacity) {
    if (capacity == 0) { errno = EINVAL; return -1; }
    ssize_t length = readlinkat(dirfd, name, buffer, capacity - 1);
    if (length < 0) return -1;
    buffer[length] = 0;
    return length;
}

int bk_list_directory_fd(int dirfd, char *names, size_t capacity, size_t *used) {
    // fdopendir takes ownership of its descriptor; hand it a duplicate opened at the start of the
    // folder (openat "." rather than dup, so the read offset is not shared with the caller's fd).
    int copy = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (copy < 0) return -1;
    DIR *directory = fdopendir(copy);
    if (!directory) { int saved = errno; close(copy); errno = saved; return -1; }
    int count = 0;
    size_t offset = 0, stored = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        size_t length = strlen(entry->d_name) + 1;
        count++;
        if (offset + length > capacity) { offset = capacity + 1; continue; }
        memcpy(names + offset, entry->d_name, length);
        offset += length;
        stored = offset;
    }
    closedir(directory);
    // Past capacity, `offset` is parked beyond it so nothing more is stored; report what was.
    *used = offset > capacity ? stored : offset;
    return count;
}

int bk_resolve_path(const char *path, char *buffer, size_t capacity) {
    char resolved[PATH_MAX];
    if (realpath(path, resolved) == NULL) return -1;
    size_t length = strlen(resolved);
    if (length + 1 > capacity) { errno = ENAMETOOLONG; return -1; }
    memcpy(buffer, resolved, length + 1);
    return 0;
}

int bk_is_terminal(int fd) { return isatty(fd) == 1 ? 1 : 0; }
