/* booth_bus: the one call HeyLook Booth makes on systemd's D-Bus API, through libsystemd's sd-bus. */
#ifndef BOOTH_BUS_H
#define BOOTH_BUS_H

/*
 * Grammar follows libgpiod: booth_bus_<verb>, an opaque handle, ownership stated on each function,
 * errors reported as NULL or -1 with errno set. This header does not include systemd/sd-bus.h.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of message buffers: a D-Bus error's name and text, or a job's result. */
#define BOOTH_BUS_MESSAGE_MAX 256

/** A connection to the system bus. */
struct booth_bus;

/**
 * Connects to the system bus (sd_bus_open_system).
 * Returns a connection that must be closed by the caller using booth_bus_close, or NULL with errno
 * set: ENOENT or ECONNREFUSED where there is no system bus (no systemd, a container, the rig's guest).
 */
struct booth_bus *booth_bus_open_system(void);

/** Closes @p bus (NULL is ignored). */
void booth_bus_close(struct booth_bus *bus);

/**
 * Asks systemd to stop @p unit (org.freedesktop.systemd1.Manager.StopUnit, mode "replace") and waits
 * up to @p timeout_usec microseconds for the job to finish (its JobRemoved signal). Executes no program.
 * Returns 0 when the job's result is "done". Otherwise returns -1 with errno set and, in @p message (@p size
 * bytes, NUL-terminated; empty when there is nothing to add), the step that failed or the D-Bus error's name
 * and text; errno's own text is not in it (the caller names errno):
 *   ENOENT     the unit is unknown (org.freedesktop.systemd1.NoSuchUnit)
 *   ENXIO      no systemd on this bus (org.freedesktop.DBus.Error.ServiceUnknown, NameHasNoOwner)
 *   EACCES     polkit did not allow it (org.freedesktop.DBus.Error.AccessDenied, ...)
 *   ETIMEDOUT  the job did not finish in time
 *   EBUSY      the job finished with another result ("failed": e.g. a file still open there)
 *   other      the call failed (the D-Bus error name and text are in @p message)
 */
int booth_bus_stop_unit(struct booth_bus *bus, const char *unit, uint64_t timeout_usec, char *message,
			size_t size);

#ifdef __cplusplus
}
#endif

#endif
