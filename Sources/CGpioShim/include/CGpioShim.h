// Every libgpiod call lives behind this header, so the rest of Backdrop builds against libgpiod 1.6
// (Debian 12, GPIO character device uAPI v1) and 2.x (Debian 13, uAPI v2) alike. The API below is
// ours and version-independent; CGpioShim.c picks the libgpiod API at compile time (BK_GPIOD_V2,
// or detected from the header). tests/gpiod2-compile.sh proves the 2.x side compiles.
//
// Threading: a bk_gpio_lines is used by one thread at a time (the I/O thread). Nothing blocks
// except where stated. Errors: functions returning int give -1 and set errno; pointers give NULL
// and set errno.
#ifndef BACKDROP_CGPIOSHIM_H
#define BACKDROP_CGPIOSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when built against libgpiod 1.x, 2 against 2.x.
int bk_gpio_shim_version(void);
/// libgpiod's own version string ("1.6.3"); static storage.
const char *bk_gpio_library_version(void);

/// Finds a line by its name (device tree gpio-line-names, gpio-sim's line names) on any chip.
/// Writes the chip's device path (e.g. "/dev/gpiochip0") and the line's offset. Returns 0, or -1
/// with errno ENOENT when no chip has such a line.
int bk_gpio_find_line(const char *name, char *chip_path, size_t capacity, unsigned *offset);
/// Finds a chip by its label (e.g. "pinctrl-bcm2711", "gpio-sim.0-node0"). Returns 0 or -1 (ENOENT).
int bk_gpio_find_chip(const char *label, char *chip_path, size_t capacity);

enum {
    BK_GPIO_BIAS_AS_IS = 0,
    BK_GPIO_BIAS_DISABLED = 1,
    BK_GPIO_BIAS_PULL_UP = 2,
    BK_GPIO_BIAS_PULL_DOWN = 3,
};

/// A set of input lines watched for both edges. Opaque.
typedef struct bk_gpio_lines bk_gpio_lines;

/// One edge as the kernel time-stamped it. `active` is the new logical level (active-low already
/// applied by the kernel). `timestamp_ns` is CLOCK_MONOTONIC (uAPI v1 since Linux 5.7, v2 asked).
typedef struct {
    uint32_t index;
    int32_t active;
    uint64_t timestamp_ns;
} bk_gpio_edge;

/// Starts an empty set. `debounce_us` is asked of the kernel for each line where the uAPI has it
/// (v2); see bk_gpio_kernel_debounce for whether it took.
bk_gpio_lines *bk_gpio_open(const char *consumer, int active_low, int bias, unsigned debounce_us);
/// Requests one line as an input with both edges; returns its index in the set (0, 1, ...) or -1.
/// EBUSY when another process holds it.
int bk_gpio_add_line(bk_gpio_lines *lines, const char *chip_path, unsigned offset);
/// 1 when the kernel debounces every line of the set, 0 when the caller must.
int bk_gpio_kernel_debounce(const bk_gpio_lines *lines);
/// One descriptor (an epoll set over the lines' event fds) that is readable while any line has an
/// edge queued: give it to the I/O thread's epoll. Owned by `lines`; do not close it.
int bk_gpio_fd(const bk_gpio_lines *lines);
/// Reads the queued edges of every line without blocking; returns how many were stored (0 when
/// none) or -1. Edges of one line are in order; different lines are not merged by time.
int bk_gpio_read_edges(bk_gpio_lines *lines, bk_gpio_edge *edges, unsigned capacity);
/// The present logical level of line `index`: 1 active, 0 inactive, -1 error.
int bk_gpio_get_value(bk_gpio_lines *lines, unsigned index);
/// Releases every line and frees the set. NULL is allowed.
void bk_gpio_close(bk_gpio_lines *lines);

#ifdef __cplusplus
}
#endif
#endif
