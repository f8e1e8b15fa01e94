/* The end-to-end camera: loops one known colour frame (YUYV) and one depth frame (Z16) into two
 * v4l2loopback output nodes, as a RealSense's two nodes would deliver them.
 *
 *   producer COLOUR_NODE DEPTH_NODE WIDTH HEIGHT COLOUR.yuyv DEPTH.z16 [FPS]
 *
 * Frames go out with write(): v4l2loopback stamps each with CLOCK_MONOTONIC and its own sequence
 * number, so the consumer sees real kernel timestamps. Both nodes stay open for the whole run,
 * because v4l2loopback 0.12 frees its buffers (and forgets the format) when the last opener closes.
 * SIGUSR1 pauses the stream (a stalled camera), SIGUSR2 resumes it; SIGTERM/SIGINT end it.
 * Prints one line when it starts and the frame count when it ends.
 * Built at test time, with the host's gcc or aarch64-linux-gnu-gcc (-static) for the arm64 board. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping, paused;

static void on_signal(int sig) {
    if (sig == SIGUSR1) paused = 1;
    else if (sig == SIGUSR2) paused = 0;
    else stopping = 1;
}

static void *slurp(const char *path, size_t want) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { perror(path); exit(1); }
    char *data = malloc(want);
    size_t got = 0;
    while (got < want) {
        ssize_t n = read(fd, data + got, want - got);
        if (n <= 0) { fprintf(stderr, "%s: shorter than one frame (%zu bytes)\n", path, got); exit(1); }
        got += (size_t)n;
    }
    close(fd);
    return data;
}

static int open_output(const char *path, unsigned width, unsigned height, unsigned fourcc, unsigned fps) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) { perror(path); exit(1); }
    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    fmt.fmt.pix.width = width;
    fmt.fmt.pix.height = height;
    fmt.fmt.pix.pixelformat = fourcc;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    fmt.fmt.pix.bytesperline = width * 2;
    fmt.fmt.pix.sizeimage = width * height * 2;
    if (ioctl(fd, VIDIOC_S_FMT, &fmt) < 0) { fprintf(stderr, "%s: VIDIOC_S_FMT: %s\n", path, strerror(errno)); exit(1); }
    if (fmt.fmt.pix.pixelformat != fourcc || fmt.fmt.pix.width != width || fmt.fmt.pix.height != height) {
        fprintf(stderr, "%s: driver granted %ux%u %.4s\n", path, fmt.fmt.pix.width, fmt.fmt.pix.height,
                (char *)&fmt.fmt.pix.pixelformat);
        exit(1);
    }
    /* The frame rate the capture side reports; not fatal where the driver ignores it. */
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    parm.parm.output.timeperframe.numerator = 1;
    parm.parm.output.timeperframe.denominator = fps;
    (void)ioctl(fd, VIDIOC_S_PARM, &parm);
    return fd;
}

static int put(int fd, const char *path, const void *frame, size_t size) {
    ssize_t n = write(fd, frame, size);
    if (n == (ssize_t)size) return 0;
    if (n < 0 && errno == EINTR) return 0;
    fprintf(stderr, "producer: write %s: %s\n", path, n < 0 ? strerror(errno) : "short write");
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: producer COLOUR_NODE DEPTH_NODE WIDTH HEIGHT COLOUR.yuyv DEPTH.z16 [FPS]\n");
        return 2;
    }
    unsigned width = (unsigned)atoi(argv[3]), height = (unsigned)atoi(argv[4]);
    unsigned fps = argc > 7 ? (unsigned)atoi(argv[7]) : 30;
    size_t size = (size_t)width * height * 2;
    void *colour = slurp(argv[5], size), *depth = slurp(argv[6], size);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);

    int cfd = open_output(argv[1], width, height, V4L2_PIX_FMT_YUYV, fps);
    int dfd = open_output(argv[2], width, height, v4l2_fourcc('Z', '1', '6', ' '), fps);
    printf("producer: %s YUYV and %s Z16, %ux%u at %u fps\n", argv[1], argv[2], width, height, fps);
    fflush(stdout);

    long period = 1000000000L / fps;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    unsigned long frames = 0;
    int status = 0;
    while (!stopping) {
        if (!paused) {
            if (put(cfd, argv[1], colour, size) || put(dfd, argv[2], depth, size)) { status = 1; break; }
            frames++;
        }
        next.tv_nsec += period;
        while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        /* Behind by more than a frame (emulated CPU busy): restart the schedule rather than burst. */
        if (now.tv_sec > next.tv_sec + 1 || (now.tv_sec - next.tv_sec) * 1000000000L + (now.tv_nsec - next.tv_nsec) > period)
            next = now;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR && !stopping) {}
    }
    printf("producer: %lu frame pairs written\n", frames);
    close(cfd);
    close(dfd);
    return status;
}
