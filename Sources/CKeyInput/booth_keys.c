/* The kernel's input devices as the booth reads a remote's keys (booth_keys.h). */
#define _GNU_SOURCE
#include "booth_keys.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int booth_keys_open(const char *path, struct booth_key_device_info *info) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    memset(info, 0, sizeof *info);
    struct input_id id;
    if (ioctl(fd, EVIOCGID, &id) < 0 || ioctl(fd, EVIOCGNAME(sizeof info->name - 1), info->name) < 0) {
        int failure = errno;
        close(fd);
        return -failure;
    }
    info->bustype = id.bustype;
    info->vendor = id.vendor;
    info->product = id.product;
    int clock = CLOCK_MONOTONIC;
    if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) {
        int failure = errno;
        close(fd);
        return -failure;
    }
    return fd;
}

int booth_keys_has_key(int fd, unsigned code) {
    unsigned char bits[KEY_MAX / 8 + 1];
    if (code > KEY_MAX) return 0;
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGBIT(EV_KEY, sizeof bits), bits) < 0) return -errno;
    return (bits[code / 8] >> (code % 8)) & 1;
}

int booth_keys_is_down(int fd, unsigned code) {
    unsigned char bits[KEY_MAX / 8 + 1];
    if (code > KEY_MAX) return 0;
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGKEY(sizeof bits), bits) < 0) return -errno;
    return (bits[code / 8] >> (code % 8)) & 1;
}

int booth_keys_grab(int fd, int on) {
    return ioctl(fd, EVIOCGRAB, (void *)(long)(on ? 1 : 0)) < 0 ? -errno : 0;
}

int booth_keys_read(int fd, struct booth_key_event *events, int max) {
    struct input_event records[64];
    if (max > 64) max = 64;
    if (max <= 0) return 0;
    ssize_t n;
    do {
        n = read(fd, records, sizeof records[0] * (size_t)max);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -errno;
    int count = (int)(n / (ssize_t)sizeof records[0]);
    for (int i = 0; i < count; i++) {
        events[i].nanoseconds = (int64_t)records[i].input_event_sec * 1000000000 + (int64_t)records[i].input_event_usec * 1000;
        events[i].type = records[i].type;
        events[i].code = records[i].code;
        events[i].value = records[i].value;
    }
    return count;
}

void booth_keys_close(int fd) { close(fd); }

int booth_keys_record_size(void) { return (int)sizeof(struct input_event); }
