/* booth_message: the one way a C shim writes why a call failed into its caller's message buffer. */
#ifndef BOOTH_MESSAGE_H
#define BOOTH_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Every shim reports a failure the same way: the call returns its error (-1 with errno, a negative errno, NULL) and
 * writes a sentence saying why into the caller's buffer `message` of `size` bytes (the shim's own
 * BOOTH_*_MESSAGE_MAX), always ended, cut short when longer. A NULL `message` or a `size` of 0 asks for none. */

static inline void booth_message_vset(char *message, size_t size, const char *format, va_list args)
	__attribute__((format(printf, 3, 0)));
static inline void booth_message_set(char *message, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static inline void booth_message_vset(char *message, size_t size, const char *format, va_list args)
{
	if (message == NULL || size == 0)
		return;
	vsnprintf(message, size, format, args);
}

static inline void booth_message_set(char *message, size_t size, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	booth_message_vset(message, size, format, args);
	va_end(args);
}

#endif
