/* booth_bus_call: any method call of basic-typed arguments given as text, and its reply's first value as text. */
#include "booth_bus_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

/* Appends @p text to @p m as one value of basic type @p type, or, for 'v', a variant of the basic type named by the
 * text's first character, its value after a colon ("b:true", "s:input-keyboard"). */
static int append_text(sd_bus_message *m, char type, const char *text)
{
	union {
		uint8_t y;
		int b;
		int32_t i;
		uint32_t u;
		int64_t x;
		uint64_t t;
	} value;
	char *end = NULL;

	switch (type) {
	case 's':
		return sd_bus_message_append_basic(m, 's', text);
	case 'o':
		if (!sd_bus_object_path_is_valid(text))
			return -EINVAL;
		return sd_bus_message_append_basic(m, 'o', text);
	case 'b':
		if (strcmp(text, "true") == 0)
			value.b = 1;
		else if (strcmp(text, "false") == 0)
			value.b = 0;
		else
			return -EINVAL;
		return sd_bus_message_append_basic(m, 'b', &value.b);
	case 'y':
	case 'u':
	case 't': {
		unsigned long long n;

		if (text[0] == '\0' || text[0] == '-')
			return -EINVAL;
		errno = 0;
		n = strtoull(text, &end, 10);
		if (errno != 0 || *end != '\0' || (type == 'y' && n > UINT8_MAX) || (type == 'u' && n > UINT32_MAX))
			return -EINVAL;
		if (type == 'y')
			value.y = (uint8_t)n;
		else if (type == 'u')
			value.u = (uint32_t)n;
		else
			value.t = n;
		return sd_bus_message_append_basic(m, type, &value);
	}
	case 'i':
	case 'x': {
		long long n;

		if (text[0] == '\0')
			return -EINVAL;
		errno = 0;
		n = strtoll(text, &end, 10);
		if (errno != 0 || *end != '\0' || (type == 'i' && (n < INT32_MIN || n > INT32_MAX)))
			return -EINVAL;
		if (type == 'i')
			value.i = (int32_t)n;
		else
			value.x = n;
		return sd_bus_message_append_basic(m, type, &value);
	}
	case 'v': {
		char contents[2] = { text[0], '\0' };
		int r;

		if (text[0] == 'v' || !booth_bus_is_basic(text[0]) || text[1] != ':')
			return -EINVAL;
		r = sd_bus_message_open_container(m, SD_BUS_TYPE_VARIANT, contents);
		if (r < 0)
			return r;
		r = append_text(m, text[0], text + 2);
		if (r < 0)
			return r;
		return sd_bus_message_close_container(m);
	}
	default:
		return -EINVAL;
	}
}

void booth_bus_text_add(struct text *text, const char *format, ...)
{
	va_list args;
	int n;

	if (text->overflow)
		return;
	va_start(args, format);
	n = vsnprintf(text->out + text->length, text->size - text->length, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= text->size - text->length) {
		text->overflow = true;
		text->out[text->length] = '\0';
		return;
	}
	text->length += (size_t)n;
}

/* Reads the next value of basic type @p type from @p m into @p text. Returns sd-bus's result (0 at the end). */
int booth_bus_read_basic_text(sd_bus_message *m, char type, struct text *text)
{
	union {
		uint8_t y;
		int b;
		int16_t n;
		uint16_t q;
		int32_t i;
		uint32_t u;
		int64_t x;
		uint64_t t;
		double d;
		const char *s;
		int h;
	} value;
	int r = sd_bus_message_read_basic(m, type, &value);

	if (r <= 0)
		return r;
	switch (type) {
	case 'y': booth_bus_text_add(text, "%u", (unsigned)value.y); break;
	case 'b': booth_bus_text_add(text, "%s", value.b ? "true" : "false"); break;
	case 'n': booth_bus_text_add(text, "%d", (int)value.n); break;
	case 'q': booth_bus_text_add(text, "%u", (unsigned)value.q); break;
	case 'i': booth_bus_text_add(text, "%" PRId32, value.i); break;
	case 'u': booth_bus_text_add(text, "%" PRIu32, value.u); break;
	case 'x': booth_bus_text_add(text, "%" PRId64, value.x); break;
	case 't': booth_bus_text_add(text, "%" PRIu64, value.t); break;
	case 'd': booth_bus_text_add(text, "%.17g", value.d); break;
	case 's':
	case 'o':
	case 'g': booth_bus_text_add(text, "%s", value.s); break;
	default: break;
	}
	return r;
}

/* Whether @p type is one of D-Bus's basic types. */
bool booth_bus_is_basic(char type)
{
	return type != '\0' && strchr("ybnqiuxtdsogh", type) != NULL;
}

/* The reply's next value as text: a variant unwrapped, an array of basic values one per line, others "". */
static int read_text(sd_bus_message *m, struct text *text)
{
	const char *contents = NULL;
	char type;
	int r = sd_bus_message_peek_type(m, &type, &contents);

	if (r <= 0)
		return r;
	if (type == SD_BUS_TYPE_VARIANT) {
		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_VARIANT, contents);
		if (r < 0)
			return r;
		r = read_text(m, text);
		if (r < 0)
			return r;
		return sd_bus_message_exit_container(m);
	}
	if (type == SD_BUS_TYPE_ARRAY && contents && strlen(contents) == 1 && booth_bus_is_basic(contents[0])) {
		bool first = true;

		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, contents);
		if (r < 0)
			return r;
		for (;;) {
			size_t before = text->length;

			if (!first)
				booth_bus_text_add(text, "\n");
			r = booth_bus_read_basic_text(m, contents[0], text);
			if (r < 0)
				return r;
			if (r == 0) {
				text->length = before;
				text->out[before] = '\0';
				break;
			}
			first = false;
		}
		return sd_bus_message_exit_container(m);
	}
	if (booth_bus_is_basic(type))
		return booth_bus_read_basic_text(m, type, text);
	return sd_bus_message_skip(m, NULL);
}

int booth_bus_text_begin(struct text *text, char *out, size_t out_size, char *message, size_t size)
{
	if (size > 0)
		message[0] = '\0';
	if (out_size == 0) {
		errno = ERANGE;
		return -1;
	}
	out[0] = '\0';
	*text = (struct text){ .out = out, .size = out_size };
	return 0;
}

int booth_bus_call(struct booth_bus *bus, const char *destination, const char *path, const char *interface,
		   const char *method, const char *signature, const char *const *arguments, char *reply,
		   size_t reply_size, char *message, size_t size)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *call = NULL, *answer = NULL;
	struct text text;
	int code = 0, r;

	if (booth_bus_text_begin(&text, reply, reply_size, message, size) < 0)
		return -1;
	r = sd_bus_message_new_method_call(bus->bus, &call, destination, path, interface, method);
	if (r < 0) {
		code = -r;
		booth_message_set(message, size, "%s.%s: cannot make the call", interface, method);
		goto out;
	}
	for (size_t i = 0; signature[i] != '\0'; i++) {
		r = append_text(call, signature[i], arguments[i]);
		if (r < 0) {
			code = -r;
			booth_message_set(message, size, "%s.%s: argument %zu (\"%s\") is not of type '%c'", interface, method,
				 i + 1, arguments[i], signature[i]);
			goto out;
		}
	}
	r = sd_bus_call(bus->bus, call, 0, &error, &answer);
	if (r < 0) {
		code = booth_bus_call_failed(&error, r, message, size, interface, method);
		goto out;
	}
	r = read_text(answer, &text);
	if (r < 0) {
		code = -r;
		booth_message_set(message, size, "%s.%s: cannot read the reply", interface, method);
	} else if (text.overflow) {
		code = ERANGE;
		booth_message_set(message, size, "%s.%s: the reply is longer than %zu bytes", interface, method, reply_size - 1);
	}
out:
	sd_bus_message_unref(answer);
	sd_bus_message_unref(call);
	sd_bus_error_free(&error);
	if (code == 0)
		return 0;
	errno = code;
	return -1;
}
