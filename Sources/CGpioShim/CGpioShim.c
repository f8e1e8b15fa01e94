// The only file that includes <gpiod.h>. Two implementations of CGpioShim.h, one per libgpiod API.
#define _GNU_SOURCE
#include "CGpioShim.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <gpiod.h>

// libgpiod 1.x defines GPIOD_LINE_BULK_MAX_LINES as a macro; 2.x has no line bulks at all.
#if !defined(BK_GPIOD_V2) && !defined(GPIOD_LINE_BULK_MAX_LINES)
#define BK_GPIOD_V2 1
#endif

#define BK_GPIO_MAX_LINES 16

struct bk_gpio_line {
    struct gpiod_chip *chip;
#ifdef BK_GPIOD_V2
    struct gpiod_line_request *request;
    unsigned offset;
#else
    struct gpiod_line *line;
#endif
    int fd;
};

struct bk_gpio_lines {
    char consumer[32];
    int active_low;
    int bias;
    unsigned debounce_us;
    int epoll_fd;
    unsigned count;
    struct bk_gpio_line line[BK_GPIO_MAX_LINES];
#ifdef BK_GPIOD_V2
    struct gpiod_edge_event_buffer *events;
#endif
};

static int copy_path(char *out, size_t capacity, const char *path) {
    if (strlen(path) + 1 > capacity) { errno = ENAMETOOLONG; return -1; }
    memcpy(out, path, strlen(path) + 1);
    return 0;
}

// Calls visit(path, chip, context) for each /dev/gpiochipN that opens, until it returns 1.
// Chips are found by listing /dev, never by number.
typedef int (*chip_visitor)(const char *path, struct gpiod_chip *chip, void *context);
static int each_chip(chip_visitor visit, void *context) {
    DIR *dev = opendir("/dev");
    if (!dev) return -1;
    struct dirent *entry;
    int found = 0;
    while (!found && (entry = readdir(dev)) != NULL) {
        if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
        char path[300];
        snprintf(path, sizeof path, "/dev/%s", entry->d_name);
        struct gpiod_chip *chip = gpiod_chip_open(path);
        if (!chip) continue;
        found = visit(path, chip, context);
        gpiod_chip_close(chip);
    }
    closedir(dev);
    if (!found) { errno = ENOENT; return -1; }
    return 0;
}

struct find_line_context { const char *name; char *path; size_t capacity; unsigned *offset; };
static int visit_find_line(const char *path, struct gpiod_chip *chip, void *raw) {
    struct find_line_context *context = raw;
#ifdef BK_GPIOD_V2
    int offset = gpiod_chip_get_line_offset_from_name(chip, context->name);
    if (offset < 0) return 0;
    *context->offset = (unsigned)offset;
#else
    struct gpiod_line *line = gpiod_chip_find_line(chip, context->name);
    if (!line) return 0;
    *context->offset = gpiod_line_offset(line);
#endif
    return copy_path(context->path, context->capacity, path) == 0;
}

int bk_gpio_find_line(const char *name, char *chip_path, size_t capacity, unsigned *offset) {
    struct find_line_context context = { name, chip_path, capacity, offset };
    return each_chip(visit_find_line, &context);
}

struct find_chip_context { const char *label; char *path; size_t capacity; };
static int visit_find_chip(const char *path, struct gpiod_chip *chip, void *raw) {
    struct find_chip_context *context = raw;
    int match;
#ifdef BK_GPIOD_V2
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) return 0;
    match = strcmp(gpiod_chip_info_get_label(info), context->label) == 0;
    gpiod_chip_info_free(info);
#else
    match = strcmp(gpiod_chip_label(chip), context->label) == 0;
#endif
    return match && copy_path(context->path, context->capacity, path) == 0;
}

int bk_gpio_find_chip(const char *label, char *chip_path, size_t capacity) {
    struct find_chip_context context = { label, chip_path, capacity };
    return each_chip(visit_find_chip, &context);
}

int bk_gpio_shim_version(void) {
#ifdef BK_GPIOD_V2
    return 2;
#else
    return 1;
#endif
}

const char *bk_gpio_library_version(void) {
#ifdef BK_GPIOD_V2
    return gpiod_api_version();
#else
    return gpiod_version_string();
#endif
}

bk_gpio_lines *bk_gpio_open(const char *consumer, int active_low, int bias, unsigned debounce_us) {
    bk_gpio_lines *lines = calloc(1, sizeof *lines);
    if (!lines) return NULL;
    snprintf(lines->consumer, sizeof lines->consumer, "%s", consumer ? consumer : "backdrop");
    lines->active_low = active_low;
    lines->bias = bias;
    lines->debounce_us = debounce_us;
    lines->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (lines->epoll_fd < 0) { free(lines); return NULL; }
#ifdef BK_GPIOD_V2
    lines->events = gpiod_edge_event_buffer_new(64);
    if (!lines->events) { close(lines->epoll_fd); free(lines); return NULL; }
#endif
    return lines;
}

#ifdef BK_GPIOD_V2
static struct gpiod_line_request *request_v2(bk_gpio_lines *lines, struct gpiod_chip *chip, unsigned offset) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    if (settings && line_config && request_config) {
        static const enum gpiod_line_bias biases[] = {
            GPIOD_LINE_BIAS_AS_IS, GPIOD_LINE_BIAS_DISABLED, GPIOD_LINE_BIAS_PULL_UP, GPIOD_LINE_BIAS_PULL_DOWN,
        };
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_active_low(settings, lines->active_low != 0);
        gpiod_line_settings_set_bias(settings, biases[lines->bias & 3]);
        gpiod_line_settings_set_debounce_period_us(settings, lines->debounce_us);
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        gpiod_request_config_set_consumer(request_config, lines->consumer);
        if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) == 0)
            request = gpiod_chip_request_lines(chip, request_config, line_config);
    }
    int saved = errno;
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}
#endif

int bk_gpio_add_line(bk_gpio_lines *lines, const char *chip_path, unsigned offset) {
    if (lines->count == BK_GPIO_MAX_LINES) { errno = ENOSPC; return -1; }
    struct bk_gpio_line *slot = &lines->line[lines->count];
    slot->chip = gpiod_chip_open(chip_path);
    if (!slot->chip) return -1;
#ifdef BK_GPIOD_V2
    slot->request = request_v2(lines, slot->chip, offset);
    if (!slot->request) goto fail;
    slot->offset = offset;
    slot->fd = gpiod_line_request_get_fd(slot->request);
#else
    slot->line = gpiod_chip_get_line(slot->chip, offset);
    if (!slot->line) goto fail;
    static const int bias_flags[] = {
        0, GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE, GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP,
        GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN,
    };
    struct gpiod_line_request_config config = {
        .consumer = lines->consumer,
        .request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
        .flags = bias_flags[lines->bias & 3] | (lines->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0),
    };
    if (gpiod_line_request(slot->line, &config, 0) != 0) goto fail;
    slot->fd = gpiod_line_event_get_fd(slot->line);
#endif
    struct epoll_event interest = { .events = EPOLLIN, .data.u32 = lines->count };
    if (slot->fd < 0 || epoll_ctl(lines->epoll_fd, EPOLL_CTL_ADD, slot->fd, &interest) != 0) {
        int saved = errno;
#ifdef BK_GPIOD_V2
        gpiod_line_request_release(slot->request);
#else
        gpiod_line_release(slot->line);
#endif
        errno = saved;
        goto fail;
    }
    return (int)lines->count++;
fail:;
    int saved = errno;
    gpiod_chip_close(slot->chip);
    memset(slot, 0, sizeof *slot);
    errno = saved;
    return -1;
}

int bk_gpio_kernel_debounce(const bk_gpio_lines *lines) {
#ifdef BK_GPIOD_V2
    // uAPI v2 debounces in gpiolib when the controller cannot, so the period always applies.
    return lines->debounce_us > 0;
#else
    (void)lines;
    return 0;
#endif
}

int bk_gpio_fd(const bk_gpio_lines *lines) { return lines->epoll_fd; }

int bk_gpio_read_edges(bk_gpio_lines *lines, bk_gpio_edge *edges, unsigned capacity) {
    unsigned stored = 0;
    for (unsigned index = 0; index < lines->count && stored < capacity; index++) {
        struct bk_gpio_line *slot = &lines->line[index];
        // The event fds block on read; only read what poll says is there.
        struct pollfd ready = { .fd = slot->fd, .events = POLLIN };
        int polled;
        do polled = poll(&ready, 1, 0); while (polled < 0 && errno == EINTR);
        if (polled < 0) return -1;
        if (polled == 0) continue;
#ifdef BK_GPIOD_V2
        size_t room = capacity - stored < 64 ? capacity - stored : 64;
        int got = gpiod_line_request_read_edge_events(slot->request, lines->events, room);
        if (got < 0) return -1;
        for (int n = 0; n < got; n++) {
            struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(lines->events, (unsigned long)n);
            edges[stored].index = index;
            edges[stored].active = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
            edges[stored].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
            stored++;
        }
#else
        struct gpiod_line_event events[16];
        unsigned room = capacity - stored < 16 ? capacity - stored : 16;
        int got = gpiod_line_event_read_fd_multiple(slot->fd, events, room);
        if (got < 0) return -1;
        for (int n = 0; n < got; n++) {
            edges[stored].index = index;
            edges[stored].active = events[n].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
            edges[stored].timestamp_ns = (uint64_t)events[n].ts.tv_sec * 1000000000ull + (uint64_t)events[n].ts.tv_nsec;
            stored++;
        }
#endif
    }
    return (int)stored;
}

int bk_gpio_get_value(bk_gpio_lines *lines, unsigned index) {
    if (index >= lines->count) { errno = EINVAL; return -1; }
#ifdef BK_GPIOD_V2
    int value = (int)gpiod_line_request_get_value(lines->line[index].request, lines->line[index].offset);
    return value < 0 ? -1 : value;
#else
    return gpiod_line_get_value(lines->line[index].line);
#endif
}

void bk_gpio_close(bk_gpio_lines *lines) {
    if (!lines) return;
    for (unsigned index = 0; index < lines->count; index++) {
#ifdef BK_GPIOD_V2
        gpiod_line_request_release(lines->line[index].request);
#else
        gpiod_line_release(lines->line[index].line);
#endif
        gpiod_chip_close(lines->line[index].chip);
    }
#ifdef BK_GPIOD_V2
    gpiod_edge_event_buffer_free(lines->events);
#endif
    close(lines->epoll_fd);
    free(lines);
}
