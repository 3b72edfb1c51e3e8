/* booth_bus_internal: the connection's handle, text built in a caller's buffer, and the helpers the shim's files
 * share (internal header). */
#ifndef BOOTH_BUS_INTERNAL_H
#define BOOTH_BUS_INTERNAL_H

#include "booth_message.h"
#include "booth_bus.h"

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-bus.h>

/* Shared by booth_bus.c (the connection, errors and StopUnit), booth_bus_call.c (any call of basic-typed
 * arguments) and booth_bus_objects.c (an object manager's objects). */

struct booth_bus {
	sd_bus *bus;
};

/* Text being built in a caller's buffer; overflow is remembered, not written past. */
struct text {
	char *out;
	size_t size, length;
	bool overflow;
};

/* booth_bus.c: the errno (and message) of a failed call. */
int booth_bus_call_failed(const sd_bus_error *error, int r, char *message, size_t size, const char *interface,
			  const char *method);

/* booth_bus_call.c: the start of a call that answers as text: `message` (of `size` bytes) cleared, an empty `out`
 * refused (-1, errno ERANGE), else `out` emptied and `text` set to fill it; 0. */
int booth_bus_text_begin(struct text *text, char *out, size_t out_size, char *message, size_t size);
/* booth_bus_call.c: text added to a caller's buffer, a basic value read as text, D-Bus's basic types. */
void booth_bus_text_add(struct text *text, const char *format, ...) __attribute__((format(printf, 2, 3)));
int booth_bus_read_basic_text(sd_bus_message *m, char type, struct text *text);
bool booth_bus_is_basic(char type);

#endif
