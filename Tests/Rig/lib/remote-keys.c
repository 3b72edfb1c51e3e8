// remote-keys: a remote made through the kernel's uinput (the real input subsystem), and a reader of an event node,
// for rig scenarios.
//
// remote-keys make NAME VENDOR PRODUCT KEY_CODE...
//     Creates an input device named NAME with the ids (hex) and the keys (decimal codes) through /dev/uinput, prints
//     "node /dev/input/eventN" once the kernel made its event node, then reads commands from standard input, one a
//     line, until "quit" or the end of input (the device is destroyed then, as a remote that goes away):
//       down CODE | up CODE | repeat CODE   one key event and its SYN_REPORT
//       click CODE                          down and up at once, as many selfie remotes send them
//       sleep MS                            pause
//       burst CODE N GAP_US                 N clicks GAP_US apart (chatter)
//     Each key event's CLOCK_MONOTONIC time (microseconds, taken just before it is written) is printed as
//     "sent CODE VALUE T_US" on standard output.
// remote-keys hid NAME VENDOR PRODUCT
//     A Bluetooth selfie remote as the kernel's HID layer sees one, through /dev/uhid: the report descriptor of an
//     "AB Shutter3" (a keyboard, report 1, and a consumer control, report 2), so its keys come through hid-generic's
//     own mapping as a real remote's do. Prints "node /dev/input/eventN NAME" for each input device the kernel made
//     of it, then reads commands as `make` does: click/down/up 115 (volume up, consumer usage 0xE9), 114 (volume down,
//     0xEA) or 28 (Enter, keyboard usage 0x28); sleep MS; quit.
// remote-keys listen NODE MS [OUT]
//     Opens NODE and counts the key events it receives for MS milliseconds; prints "keys N" (0 when another program
//     grabbed the device: EVIOCGRAB). With OUT, it runs SCHED_FIFO 10 (as the booth's loop) and writes a line per key
//     press to OUT: "KERNEL_US READ_US", the key's kernel timestamp and when read() returned it (both
//     CLOCK_MONOTONIC): the floor any program reading the device can reach. SIGINT or SIGTERM ends it early.
// Build: gcc -O2 -o remote-keys remote-keys.c
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uhid.h>
#include <linux/uinput.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void stop(int signal) { stopping = signal; }

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(const char *what) {
    fprintf(stderr, "remote-keys: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void emit(int fd, int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = (unsigned short)type;
    event.code = (unsigned short)code;
    event.value = value;
    if (type == EV_KEY) printf("sent %d %d %lld\n", code, value, (long long)now_us());
    if (write(fd, &event, sizeof event) != (ssize_t)sizeof event) die("write");
}

static void report(int fd) { emit(fd, EV_SYN, SYN_REPORT, 0); }

/* The event node of the uinput device whose sysfs name is SYSNAME (UI_GET_SYSNAME). */
static void print_node(const char *sysname) {
    char path[512];
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
    for (int tries = 0; tries < 500; tries++) {
        DIR *dir = opendir(path);
        if (dir) {
            struct dirent *entry;
            while ((entry = readdir(dir))) {
                if (strncmp(entry->d_name, "event", 5) == 0) {
                    char node[300];
                    snprintf(node, sizeof node, "/dev/input/%s", entry->d_name);
                    if (access(node, F_OK) == 0) {
                        printf("node %s\n", node);
                        fflush(stdout);
                        closedir(dir);
                        return;
                    }
                }
            }
            closedir(dir);
        }
        usleep(10000);
    }
    fprintf(stderr, "remote-keys: no event node for %s after 5 s\n", sysname);
    exit(1);
}

/* A key action of a device: CODE's VALUE (1 down, 0 up, 2 repeat) and its report. */
typedef void (*key_action)(int fd, long code, int value);

static void uinput_key(int fd, long code, int value) {
    emit(fd, EV_KEY, (int)code, value);
    report(fd);
}

static void hid_key(int fd, long code, int value);

/* Reads the commands (down/up/repeat/click CODE, burst CODE N GAP_US, sleep MS, quit) from standard input until quit or
 * its end, each carried out through KEY and answered with "done VERB". */
static void run_commands(int fd, key_action key) {
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        char verb[32];
        long a = 0, b = 0, c = 0;
        int n = sscanf(line, "%31s %ld %ld %ld", verb, &a, &b, &c);
        if (n < 1) continue;
        if (strcmp(verb, "quit") == 0) break;
        if (strcmp(verb, "down") == 0) {
            key(fd, a, 1);
        } else if (strcmp(verb, "up") == 0) {
            key(fd, a, 0);
        } else if (strcmp(verb, "repeat") == 0) {
            key(fd, a, 2);
        } else if (strcmp(verb, "click") == 0) {
            key(fd, a, 1);
            key(fd, a, 0);
        } else if (strcmp(verb, "burst") == 0) {
            for (long i = 0; i < b; i++) {
                key(fd, a, 1);
                key(fd, a, 0);
                if (i + 1 < b) usleep((useconds_t)c);
            }
        } else if (strcmp(verb, "sleep") == 0) {
            usleep((useconds_t)(a * 1000));
        } else {
            fprintf(stderr, "remote-keys: unknown command %s", line);
        }
        printf("done %s\n", verb);
        fflush(stdout);
    }
}

static int make(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: remote-keys make NAME VENDOR PRODUCT KEY_CODE...\n");
        return 2;
    }
    int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0) die("UI_SET_EVBIT");
    for (int i = 5; i < argc; i++)
        if (ioctl(fd, UI_SET_KEYBIT, atoi(argv[i])) < 0) die("UI_SET_KEYBIT");
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = (unsigned short)strtoul(argv[3], NULL, 16);
    setup.id.product = (unsigned short)strtoul(argv[4], NULL, 16);
    snprintf(setup.name, sizeof setup.name, "%s", argv[2]);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    char sysname[64];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME");
    print_node(sysname);
    run_commands(fd, uinput_key);
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}

/* A selfie remote's report descriptor: a keyboard (report 1: modifiers, reserved, six keys) and a consumer control
 * (report 2: a bit each for volume up, 0xE9, and volume down, 0xEA, then six bits of padding), as an AB Shutter3's. */
static const unsigned char selfie_descriptor[] = {
    0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x85, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00,
    0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0,
    0x05, 0x0c, 0x09, 0x01, 0xa1, 0x01, 0x85, 0x02, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x02, 0x09, 0xe9,
    0x09, 0xea, 0x81, 0x02, 0x95, 0x06, 0x81, 0x01, 0xc0,
};

static void uhid_write(int fd, const struct uhid_event *event) {
    if (write(fd, event, sizeof *event) != (ssize_t)sizeof *event) die("write /dev/uhid");
}

/* One input report: the key CODE (115, 114 or 28) down (VALUE 1, or 2: a HID remote repeats by holding) or up. */
static void hid_key(int fd, long code, int value) {
    int down = value != 0;
    struct uhid_event event;
    memset(&event, 0, sizeof event);
    event.type = UHID_INPUT2;
    if (code == 28) {
        unsigned char report[9] = {1, 0, 0, (unsigned char)(down ? 0x28 : 0), 0, 0, 0, 0, 0};
        memcpy(event.u.input2.data, report, sizeof report);
        event.u.input2.size = sizeof report;
    } else {
        unsigned char bits = down ? (code == 115 ? 1 : code == 114 ? 2 : 0) : 0;
        unsigned char report[2] = {2, bits};
        memcpy(event.u.input2.data, report, sizeof report);
        event.u.input2.size = sizeof report;
    }
    printf("sent %ld %d %lld\n", code, value, (long long)now_us());
    uhid_write(fd, &event);
}

/* Prints each event node whose input device's name starts with NAME, once at least one is there and no more came for
 * 300 ms. */
static void print_hid_nodes(const char *name) {
    int found = 0, stable = 0;
    char nodes[16][900];
    for (int tries = 0; tries < 500 && stable < 30; tries++, usleep(10000)) {
        int count = 0;
        DIR *dir = opendir("/sys/class/input");
        if (!dir) continue;
        struct dirent *entry;
        while ((entry = readdir(dir)) && count < 16) {
            if (strncmp(entry->d_name, "event", 5) != 0) continue;
            char path[600], device_name[256] = "";
            snprintf(path, sizeof path, "/sys/class/input/%s/device/name", entry->d_name);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            if (!fgets(device_name, sizeof device_name, f)) device_name[0] = 0;
            fclose(f);
            device_name[strcspn(device_name, "\n")] = 0;
            snprintf(path, sizeof path, "/dev/input/%s", entry->d_name);
            if (strncmp(device_name, name, strlen(name)) == 0 && access(path, F_OK) == 0)
                snprintf(nodes[count++], sizeof nodes[0], "%s %s", path, device_name);
        }
        closedir(dir);
        if (count > 0 && count == found) stable++;
        else stable = 0;
        found = count;
    }
    if (found == 0) {
        fprintf(stderr, "remote-keys: no input device named %s* after 5 s\n", name);
        exit(1);
    }
    for (int i = 0; i < found; i++) printf("node %s\n", nodes[i]);
    fflush(stdout);
}

static int hid(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: remote-keys hid NAME VENDOR PRODUCT\n");
        return 2;
    }
    int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("open /dev/uhid");
    struct uhid_event event;
    memset(&event, 0, sizeof event);
    event.type = UHID_CREATE2;
    snprintf((char *)event.u.create2.name, sizeof event.u.create2.name, "%s", argv[2]);
    memcpy(event.u.create2.rd_data, selfie_descriptor, sizeof selfie_descriptor);
    event.u.create2.rd_size = sizeof selfie_descriptor;
    event.u.create2.bus = BUS_BLUETOOTH;
    event.u.create2.vendor = (unsigned)strtoul(argv[3], NULL, 16);
    event.u.create2.product = (unsigned)strtoul(argv[4], NULL, 16);
    uhid_write(fd, &event);
    print_hid_nodes(argv[2]);
    run_commands(fd, hid_key);
    memset(&event, 0, sizeof event);
    event.type = UHID_DESTROY;
    uhid_write(fd, &event);
    close(fd);
    return 0;
}

static int listen_keys(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: remote-keys listen NODE MS [OUT]\n");
        return 2;
    }
    int fd = open(argv[2], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die(argv[2]);
    FILE *out = NULL;
    if (argc == 5) {
        int clock = CLOCK_MONOTONIC;
        if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) die("EVIOCSCLOCKID");
        struct sched_param param = {.sched_priority = 10};
        if (sched_setscheduler(0, SCHED_FIFO, &param) < 0) die("sched_setscheduler");
        out = fopen(argv[4], "w");
        if (!out) die(argv[4]);
    }
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    printf("listening\n");
    fflush(stdout);
    int64_t end = now_us() + atol(argv[3]) * 1000;
    int keys = 0;
    for (int64_t left; !stopping && (left = end - now_us()) > 0;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(left / 1000) + 1) <= 0) continue;
        struct input_event events[64];
        ssize_t n = read(fd, events, sizeof events);
        int64_t read_us = now_us();
        for (ssize_t i = 0; i < n / (ssize_t)sizeof events[0]; i++) {
            if (events[i].type != EV_KEY) continue;
            keys++;
            if (out && events[i].value == 1)
                fprintf(out, "%lld %lld\n",
                        (long long)events[i].input_event_sec * 1000000 + events[i].input_event_usec,
                        (long long)read_us);
        }
    }
    if (out) fclose(out);
    printf("keys %d\n", keys);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && strcmp(argv[1], "make") == 0) return make(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "listen") == 0) return listen_keys(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "hid") == 0) return hid(argc, argv);
    fprintf(stderr, "usage: remote-keys make NAME VENDOR PRODUCT KEY_CODE... | remote-keys hid NAME VENDOR PRODUCT | "
                    "remote-keys listen NODE MS [OUT]\n");
    return 2;
}
