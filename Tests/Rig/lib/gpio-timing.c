// gpio-timing: fast gpio-sim sampling and bouncing for rig scenarios (bash is too slow under emulation).
//
// gpio-timing sample OUT DURATION_MS EVERY_US [--hold PID AFTER_MS FOR_MS] VALUE_FILE...
//     Reads the sysfs value files every EVERY_US (0: in a tight loop) for DURATION_MS and writes to OUT one
//     line per change: "t_us prev_us v1 v2 ... lost_us", t_us being the CLOCK_MONOTONIC time of the read that saw
//     the new values and prev_us that of the read before (the change happened in between). The first line is the
//     start state. lost_us is the time the sampler lost since the read before: how much later than its pause it
//     woke, plus how much longer its read took than its quickest one. Run SCHED_FIFO 99 on a CPU, it loses time
//     only when that CPU stands still (a guest the host starves), so anything else on that CPU lost it too; a
//     line is also written, values unchanged, whenever it lost 1 ms or more. SIGTERM or SIGINT ends it early (the
//     file is still written). Prints the number of reads and the median and largest gap between reads. With
//     EVERY_US > 0 each pause lasts at least four times the read before it (up to 10 ms), so the sampler holds no more
//     than a fifth of its CPU, however slowly the host runs it.
//     --hold PID AFTER_MS FOR_MS: AFTER_MS after the read before the one that first sees a value file at 1 (the
//     countdown's first frame was written after it), stops PID (SIGSTOP) until the sampler has run FOR_MS (the time
//     it lost meanwhile not counted, at most four times FOR_MS in all), then lets it go on (SIGCONT, also when the
//     sampling ends first), and prints "held PID at +A ms for F ms (monotonic FROM_US to TO_US)" as measured on its
//     own clock. While PID is held the sampler spins between its reads instead of sleeping, so its CPU never idles
//     (an idle emulated CPU wakes late on a busy host, which the sampler would count as lost and the check would
//     excuse). A guest the host starves stands still in a hold as anywhere else, and the check excuses that time:
//     counting only the time the sampler ran keeps the held edge's lateness beyond what is excused on a busy host.
// gpio-timing bounce PULL_FILE TOGGLES INTERVAL_US
//     Writes pull-down, pull-up, pull-down, ... TOGGLES times into PULL_FILE, one every INTERVAL_US on an
//     absolute CLOCK_MONOTONIC schedule, starting with the opposite of the current pull (2 toggles: a click).
//     Prints the span from the first write to the last in microseconds.
// gpio-timing listen CHIP_DEV OFFSET OUT [RT_PRIORITY]
//     The floor any program can reach: requests line OFFSET of CHIP_DEV (/dev/gpiochipN) for both edges through
//     the kernel's GPIO uAPI v2, blocks in read() and, for each event, writes "kernel_timestamp_us read_us R|F" to
//     OUT (CLOCK_MONOTONIC; R a rising edge, F a falling one, as the kernel reports it) until SIGTERM or SIGINT. RT_PRIORITY > 0 runs it SCHED_FIFO at that priority.
// Build: gcc -O2 -o gpio-timing gpio-timing.c
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { max_lines = 16, max_changes = 100000 };

static volatile sig_atomic_t stopping;

static void stop(int signal) { stopping = signal; }

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int read_value(int fd, const char *path) {
    char c;
    if (pread(fd, &c, 1, 0) != 1) {
        fprintf(stderr, "gpio-timing: read %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return c == '1';
}

static int compare_gaps(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

// What `--hold` asks: stop `pid` `after_us` after the first 1 is seen, for `for_us` (pid 0: no hold).
struct hold {
    pid_t pid;
    int64_t after_us, for_us;
};

// How long after the hold began it ends: FOR_US of time the sampler ran, plus the time it lost, at most 4 x FOR_US.
static int64_t hold_end(int64_t for_us, int64_t lost_us) {
    return for_us + lost_us < 4 * for_us ? for_us + lost_us : 4 * for_us;
}

static int sample(const char *out, int64_t duration_ms, int64_t every_us, struct hold hold, int count, char **paths) {
    if (count < 1 || count > max_lines) {
        fprintf(stderr, "gpio-timing: 1 to %d value files\n", max_lines);
        return 2;
    }
    int fds[max_lines];
    for (int i = 0; i < count; i++) {
        fds[i] = open(paths[i], O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0) {
            fprintf(stderr, "gpio-timing: open %s: %s\n", paths[i], strerror(errno));
            return 1;
        }
    }
    static int64_t times[max_changes], prev_times[max_changes], lost_times[max_changes];
    static unsigned masks[max_changes];
    static int64_t gaps[1 << 22];
    size_t changes = 0, reads = 0, gap_count = 0;
    int64_t start = now_us(), end = start + duration_ms * 1000, last = start, prev = start;
    int64_t quickest = INT64_MAX, woken_due = start, first_lit = -1, held_at = -1, released_at = -1, held_lost = 0;
    unsigned shown = ~0u;
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    for (int64_t t = start; t < end && !stopping; t = now_us()) {
        unsigned mask = 0;
        for (int i = 0; i < count; i++) mask |= (unsigned)read_value(fds[i], paths[i]) << i;
        int64_t after = now_us();
        reads++;
        // Lost: woken later than the pause asked, and a read slower than the quickest (the CPU stood still in it).
        if (after - t < quickest) quickest = after - t;
        int64_t lost = (t > woken_due ? t - woken_due : 0) + (after - t - quickest);
        if (reads > 1 && gap_count < sizeof gaps / sizeof gaps[0]) gaps[gap_count++] = after - last;
        if ((mask != shown || lost >= 1000) && changes < max_changes) {
            times[changes] = after;
            prev_times[changes] = prev;
            lost_times[changes] = lost;
            masks[changes++] = mask;
            shown = mask;
        }
        int64_t read_before = last;
        prev = last = after;
        if (hold.pid > 0) {
            // From the read before the one that saw the row lit: the frame was written no earlier than that.
            if (first_lit < 0 && mask != 0) first_lit = read_before;
            if (first_lit >= 0 && held_at < 0 && after >= first_lit + hold.after_us) {
                kill(hold.pid, SIGSTOP);
                held_at = now_us();
            }
            if (held_at >= 0 && released_at < 0) held_lost += lost;
            if (held_at >= 0 && released_at < 0 && now_us() >= held_at + hold_end(hold.for_us, held_lost)) {
                kill(hold.pid, SIGCONT);
                released_at = now_us();
            }
        }
        woken_due = now_us();
        if (every_us > 0) {
            // At least four times the read (see the usage above): at a fixed pause a slowed CPU was the sampler's.
            // At most 10 ms: a read the host slowed by standing the CPU still must not leave a long blind gap.
            int64_t pause_us = every_us > 4 * (after - t) ? every_us : 4 * (after - t);
            if (pause_us > 10000 && every_us <= 10000) pause_us = 10000;
            // A hold ends on time: the pause is cut short at its end.
            int64_t hold_until = held_at + hold_end(hold.for_us, held_lost);
            if (held_at >= 0 && released_at < 0 && hold_until - woken_due < pause_us)
                pause_us = hold_until > woken_due ? hold_until - woken_due : 0;
            woken_due += pause_us;
            if (held_at >= 0 && released_at < 0) {
                // While the booth is held its CPU would be idle, and an idle emulated CPU wakes late on a busy host:
                // the sampler spins instead, so the time it loses is the CPU's own standstill, not a late wake-up.
                while (now_us() < woken_due) {
                }
            } else {
                struct timespec pause = {.tv_sec = pause_us / 1000000, .tv_nsec = pause_us % 1000000 * 1000};
                nanosleep(&pause, NULL);
            }
        }
    }
    if (held_at >= 0 && released_at < 0) {
        kill(hold.pid, SIGCONT);
        released_at = now_us();
    }
    if (held_at >= 0)
        printf("held %d at +%lld ms for %lld ms (monotonic %lld to %lld us)\n", (int)hold.pid,
               (long long)(held_at - first_lit) / 1000, (long long)(released_at - held_at) / 1000, (long long)held_at,
               (long long)released_at);
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "gpio-timing: open %s: %s\n", out, strerror(errno));
        return 1;
    }
    for (size_t n = 0; n < changes; n++) {
        fprintf(f, "%lld %lld", (long long)times[n], (long long)prev_times[n]);
        for (int i = 0; i < count; i++) fprintf(f, " %u", (masks[n] >> i) & 1);
        fprintf(f, " %lld\n", (long long)lost_times[n]);
    }
    if (fclose(f) != 0) return 1;
    qsort(gaps, gap_count, sizeof gaps[0], compare_gaps);
    printf("reads %zu changes %zu gap_median_us %lld gap_max_us %lld\n", reads, changes,
           (long long)(gap_count ? gaps[gap_count / 2] : 0), (long long)(gap_count ? gaps[gap_count - 1] : 0));
    return 0;
}

static int bounce(const char *path, int toggles, int64_t interval_us) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "gpio-timing: open %s: %s\n", path, strerror(errno));
        return 1;
    }
    char current[16] = {0};
    if (pread(fd, current, sizeof current - 1, 0) < 0) {
        fprintf(stderr, "gpio-timing: read %s: %s\n", path, strerror(errno));
        return 1;
    }
    int down = strncmp(current, "pull-down", 9) != 0;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    int64_t first = 0, last = 0;
    for (int i = 0; i < toggles; i++, down = !down) {
        const char *word = down ? "pull-down" : "pull-up";
        if (pwrite(fd, word, strlen(word), 0) < 0) {
            fprintf(stderr, "gpio-timing: write %s: %s\n", path, strerror(errno));
            return 1;
        }
        last = now_us();
        if (i == 0) first = last;
        next.tv_nsec += interval_us * 1000;
        while (next.tv_nsec >= 1000000000) {
            next.tv_nsec -= 1000000000;
            next.tv_sec++;
        }
        if (i + 1 < toggles) clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    printf("%lld\n", (long long)(last - first));
    return 0;
}

static int listen_line(const char *chip, unsigned offset, const char *out, int priority) {
    int fd = open(chip, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "gpio-timing: open %s: %s\n", chip, strerror(errno));
        return 1;
    }
    struct gpio_v2_line_request request = {.num_lines = 1, .offsets = {offset}};
    request.config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING;
    snprintf(request.consumer, sizeof request.consumer, "gpio-timing");
    if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &request) < 0) {
        fprintf(stderr, "gpio-timing: request %s line %u: %s\n", chip, offset, strerror(errno));
        return 1;
    }
    if (priority > 0) {
        struct sched_param param = {.sched_priority = priority};
        if (sched_setscheduler(0, SCHED_FIFO, &param) != 0) {
            fprintf(stderr, "gpio-timing: SCHED_FIFO %d: %s\n", priority, strerror(errno));
            return 1;
        }
    }
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "gpio-timing: open %s: %s\n", out, strerror(errno));
        return 1;
    }
    struct sigaction action = {.sa_handler = stop};  // no SA_RESTART: a signal ends the read
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    printf("listening\n");
    fflush(stdout);
    while (!stopping) {
        struct gpio_v2_line_event event;
        ssize_t n = read(request.fd, &event, sizeof event);
        int64_t read_us = now_us();
        if (n < 0 && errno == EINTR) continue;
        if (n != sizeof event) {
            fprintf(stderr, "gpio-timing: read event: %s\n", n < 0 ? strerror(errno) : "short read");
            return 1;
        }
        fprintf(f, "%lld %lld %c\n", (long long)(event.timestamp_ns / 1000), (long long)read_us,
                event.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? 'R' : 'F');
    }
    return fclose(f) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc >= 6 && strcmp(argv[1], "sample") == 0) {
        struct hold hold = {0};
        if (argc >= 10 && strcmp(argv[5], "--hold") == 0) {
            hold = (struct hold){.pid = atoi(argv[6]), .after_us = atoll(argv[7]) * 1000, .for_us = atoll(argv[8]) * 1000};
            return sample(argv[2], atoll(argv[3]), atoll(argv[4]), hold, argc - 9, argv + 9);
        }
        return sample(argv[2], atoll(argv[3]), atoll(argv[4]), hold, argc - 5, argv + 5);
    }
    if (argc == 5 && strcmp(argv[1], "bounce") == 0) return bounce(argv[2], atoi(argv[3]), atoll(argv[4]));
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "listen") == 0)
        return listen_line(argv[2], (unsigned)atoi(argv[3]), argv[4], argc == 6 ? atoi(argv[5]) : 0);
    fprintf(stderr, "usage: gpio-timing sample OUT DURATION_MS EVERY_US [--hold PID AFTER_MS FOR_MS] VALUE_FILE...\n"
                    "       gpio-timing bounce PULL_FILE TOGGLES INTERVAL_US\n"
                    "       gpio-timing listen CHIP_DEV OFFSET OUT [RT_PRIORITY]\n");
    return 2;
}
