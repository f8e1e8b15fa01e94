/* A button press on a gpio-sim line for the end-to-end guest: BOUNCES quick pull-up/pull-down
 * pairs (contact bounce), then pull-up, held SECONDS, pull-down, all from one process. The shell
 * did this with `echo` and an external `sleep`: on a loaded emulated CPU the fork and exec of
 * `sleep` made a 0.1 s press last a second or more in kernel time, so the box rightly read it as
 * a long press. Prints how long the line was held, CLOCK_MONOTONIC between the two writes.
 *   press PULL_FILE SECONDS [BOUNCES]                                                          */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int put(int fd, const char *level) {
    size_t n = strlen(level);
    return pwrite(fd, level, n, 0) == (ssize_t)n ? 0 : -1;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: press PULL_FILE SECONDS [BOUNCES]\n"); return 2; }
    double seconds = atof(argv[2]);
    int bounces = argc > 3 ? atoi(argv[3]) : 0;
    int fd = open(argv[1], O_WRONLY);
    if (fd < 0) { perror(argv[1]); return 1; }
    for (int i = 0; i < bounces; i++)
        if (put(fd, "pull-up") || put(fd, "pull-down")) { perror("bounce"); return 1; }
    struct timespec hold = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    if (put(fd, "pull-up")) { perror("pull-up"); return 1; }
    double down = now();
    clock_nanosleep(CLOCK_MONOTONIC, 0, &hold, NULL);
    if (put(fd, "pull-down")) { perror("pull-down"); return 1; }
    printf("%.0f\n", (now() - down) * 1000);
    close(fd);
    return 0;
}
