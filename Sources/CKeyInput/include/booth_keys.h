/* The kernel's input devices (evdev: /dev/input/event*) as the booth reads a remote's keys: the ioctls Swift cannot
 * call (their request numbers are macros with arguments) and the event records, wrapped once. */
#ifndef BOOTH_KEYS_H
#define BOOTH_KEYS_H

#include <stdint.h>

/** What a device tells about itself. */
struct booth_key_device_info {
    /** The name it gives the kernel (EVIOCGNAME), NUL-terminated. */
    char name[256];
    /** The bus (BUS_USB 3, BUS_BLUETOOTH 5, BUS_VIRTUAL 6 ...) and the vendor and product ids (EVIOCGID). */
    uint16_t bustype, vendor, product;
};

/** One event a device sent: a key's press (value 1), release (0) or repeat (2), or another type's. */
struct booth_key_event {
    /** When the kernel took it, on CLOCK_MONOTONIC (booth_keys_open asks for that clock). */
    int64_t nanoseconds;
    uint16_t type, code;
    int32_t value;
};

/**
 * Opens the event node at @p path (read-only, non-blocking, close-on-exec), asks for its events' times on
 * CLOCK_MONOTONIC and fills @p info. Returns the descriptor, or -errno (ENOENT gone, EACCES no permission, ENOTTY
 * not an input device).
 */
int booth_keys_open(const char *path, struct booth_key_device_info *info);

/** Whether the device can send key @p code (EVIOCGBIT of EV_KEY): 1 yes, 0 no, -errno when it cannot be asked. */
int booth_keys_has_key(int fd, unsigned code);

/** Whether key @p code is down now (EVIOCGKEY): 1 yes, 0 no, -errno when it cannot be asked. */
int booth_keys_is_down(int fd, unsigned code);

/** Takes the device for the booth alone (EVIOCGRAB: its keys reach nothing else), or gives it back with @p on 0.
 * Returns 0, or -errno (EBUSY: another program took it first). */
int booth_keys_grab(int fd, int on);

/**
 * Reads up to @p max events into @p events. Returns how many (0 when none is waiting), or -errno (ENODEV: the device
 * went away). Only whole records are returned.
 */
int booth_keys_read(int fd, struct booth_key_event *events, int max);

/** Closes a device booth_keys_open opened (a grab ends with it). */
void booth_keys_close(int fd);

/** The size of one of the kernel's event records (struct input_event), which booth_keys_read takes apart. */
int booth_keys_record_size(void);

#endif
