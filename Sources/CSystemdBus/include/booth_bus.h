/* booth_bus: HeyLook Booth's D-Bus calls (systemd's StopUnit, NetworkManager, BlueZ, any simple method), through sd-bus. */
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

/**
 * Connects to the bus at @p address (a D-Bus address, e.g. "unix:path=/run/x"), as a client: a private bus in
 * tests. Returns a connection to close with booth_bus_close, or NULL with errno set.
 */
struct booth_bus *booth_bus_open_address(const char *address);

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

/**
 * Calls @p method of @p interface on object @p path of @p destination with the arguments @p arguments, given as
 * text and typed by @p signature (one D-Bus type per argument: s, o, b as "true" or "false", y, u, i, t, x, or v: a
 * variant of one of those, its type before a colon, as "b:true" or "s:text"),
 * and waits for the reply (sd-bus's default timeout, 25 s). The reply's first value is written to @p reply
 * (@p reply_size bytes, NUL-terminated) as text: a variant unwrapped, an array of basic values one per line, a
 * boolean as "true" or "false", a number in decimal; "" when the reply has no value or one of another type.
 * Properties are read with org.freedesktop.DBus.Properties.Get ("ss": interface, name).
 * Returns 0, or -1 with errno set and, in @p message (@p size bytes), the D-Bus error's name and text:
 *   ENXIO      no owner of @p destination on the bus (ServiceUnknown, NameHasNoOwner)
 *   EACCES     not allowed (AccessDenied, AuthFailed, InteractiveAuthorizationRequired)
 *   EINVAL     an argument is not of its type, or the signature is not one of basic types
 *   ERANGE     the reply's text does not fit in @p reply
 *   other      the call failed (sd-bus's errno for the D-Bus error)
 */
int booth_bus_call(struct booth_bus *bus, const char *destination, const char *path, const char *interface,
		   const char *method, const char *signature, const char *const *arguments, char *reply,
		   size_t reply_size, char *message, size_t size);

/**
 * Calls org.freedesktop.DBus.ObjectManager.GetManagedObjects on @p path of @p destination (BlueZ's "/") and writes
 * every object's properties to @p out (@p out_size bytes, NUL-terminated), one line each:
 * "OBJECT\tINTERFACE\tPROPERTY\tVALUE\n", the value a basic value as text (as booth_bus_call writes it) or an array
 * of basic values joined by commas; properties of other types are left out, and control characters in a value
 * (a tab or a line break in a device's name) are written as spaces.
 * Returns 0, or -1 with errno set as booth_bus_call does (ERANGE: the text does not fit in @p out) and, in
 * @p message (@p size bytes), the D-Bus error's name and text or the step that failed.
 */
int booth_bus_managed_objects(struct booth_bus *bus, const char *destination, const char *path, char *out,
			      size_t out_size, char *message, size_t size);

#ifdef __cplusplus
}
#endif

#endif
