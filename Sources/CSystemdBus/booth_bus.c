/* booth_bus: StopUnit on systemd's D-Bus API (waiting for the job's end), any call of basic-typed arguments, and an
 * object manager's objects as lines of text. */
#include "booth_bus.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define SYSTEMD_SERVICE "org.freedesktop.systemd1"
#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"

struct booth_bus {
	sd_bus *bus;
};

/* The job being waited for, filled in by the JobRemoved handler. */
struct job_wait {
	char *job;
	bool finished;
	char result[BOOTH_BUS_MESSAGE_MAX];
};

struct booth_bus *booth_bus_open_system(void)
{
	struct booth_bus *handle = calloc(1, sizeof(*handle));
	int r;

	if (!handle)
		return NULL;
	r = sd_bus_open_system(&handle->bus);
	if (r < 0) {
		free(handle);
		errno = -r;
		return NULL;
	}
	return handle;
}

struct booth_bus *booth_bus_open_address(const char *address)
{
	struct booth_bus *handle = calloc(1, sizeof(*handle));
	int r;

	if (!handle)
		return NULL;
	r = sd_bus_new(&handle->bus);
	if (r >= 0)
		r = sd_bus_set_address(handle->bus, address);
	if (r >= 0)
		r = sd_bus_set_bus_client(handle->bus, 1);
	if (r >= 0)
		r = sd_bus_start(handle->bus);
	if (r < 0) {
		sd_bus_unref(handle->bus);
		free(handle);
		errno = -r;
		return NULL;
	}
	return handle;
}

void booth_bus_close(struct booth_bus *bus)
{
	if (!bus)
		return;
	sd_bus_flush_close_unref(bus->bus);
	free(bus);
}

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct job_wait *wait = userdata;
	const char *path = NULL, *unit = NULL, *result = NULL;
	uint32_t id;

	(void)ret_error;
	if (sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (wait->job && strcmp(path, wait->job) == 0) {
		wait->finished = true;
		snprintf(wait->result, sizeof(wait->result), "%s", result);
	}
	return 0;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The errno for a D-Bus error from StopUnit. */
static int error_code(const sd_bus_error *error, int r)
{
	if (sd_bus_error_has_name(error, "org.freedesktop.systemd1.NoSuchUnit") ||
	    sd_bus_error_has_name(error, "org.freedesktop.systemd1.LoadFailed"))
		return ENOENT;
	if (sd_bus_error_has_names(error, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
		return ENXIO;
	if (sd_bus_error_has_names(error, SD_BUS_ERROR_ACCESS_DENIED, SD_BUS_ERROR_AUTH_FAILED,
				   SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED))
		return EACCES;
	return r < 0 ? -r : EIO;
}

/* A call that failed with @p r: writes the D-Bus error's name and text to @p message (@p size bytes), or the call's
 * name (@p interface, which may be NULL, and @p method) when there is no D-Bus error; returns the errno to set. */
static int call_failed(const sd_bus_error *error, int r, char *message, size_t size, const char *interface,
		       const char *method)
{
	if (error->name)
		snprintf(message, size, "%s: %s", error->name, error->message ? error->message : "");
	else
		snprintf(message, size, "%s%s%s", interface ? interface : "", interface ? "." : "", method);
	return error_code(error, r);
}

int booth_bus_stop_unit(struct booth_bus *bus, const char *unit, uint64_t timeout_usec, char *message,
			size_t size)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	sd_bus_slot *slot = NULL;
	struct job_wait wait = { 0 };
	const char *job = NULL;
	uint64_t deadline = now_usec() + timeout_usec;
	int code = 0, r;

	if (size > 0)
		message[0] = '\0';
	/* The match comes first: the job may end before StopUnit's reply is read. Messages that arrive
	 * while sd_bus_call_method waits are queued, and dispatched by sd_bus_process below. */
	r = sd_bus_match_signal(bus->bus, &slot, SYSTEMD_SERVICE, SYSTEMD_PATH, SYSTEMD_MANAGER, "JobRemoved",
				on_job_removed, &wait);
	if (r < 0) {
		code = -r;
		snprintf(message, size, "cannot watch systemd's jobs");
		goto err_match;
	}
	r = sd_bus_call_method(bus->bus, SYSTEMD_SERVICE, SYSTEMD_PATH, SYSTEMD_MANAGER, "StopUnit", &error, &reply,
			       "ss", unit, "replace");
	if (r < 0) {
		code = call_failed(&error, r, message, size, NULL, "StopUnit");
		goto err_call;
	}
	r = sd_bus_message_read(reply, "o", &job);
	if (r < 0) {
		code = -r;
		snprintf(message, size, "StopUnit's reply");
		goto err_call;
	}
	wait.job = strdup(job);
	if (!wait.job) {
		code = ENOMEM;
		goto err_call;
	}
	while (!wait.finished) {
		uint64_t now = now_usec();

		r = sd_bus_process(bus->bus, NULL);
		if (r < 0) {
			code = -r;
			snprintf(message, size, "systemd's bus");
			goto err_wait;
		}
		if (r > 0)
			continue;
		if (now >= deadline) {
			code = ETIMEDOUT;
			snprintf(message, size, "the job %s did not finish in time", job);
			goto err_wait;
		}
		r = sd_bus_wait(bus->bus, deadline - now);
		if (r < 0 && r != -EINTR) {
			code = -r;
			snprintf(message, size, "systemd's bus");
			goto err_wait;
		}
	}
	if (strcmp(wait.result, "done") != 0) {
		code = EBUSY;
		snprintf(message, size, "the job ended \"%s\" (see journalctl -u %s)", wait.result, unit);
	}

err_wait:
	free(wait.job);
err_call:
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	sd_bus_slot_unref(slot);
err_match:
	if (code == 0)
		return 0;
	errno = code;
	return -1;
}

static bool is_basic(char type);

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

		if (text[0] == 'v' || !is_basic(text[0]) || text[1] != ':')
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

/* Text being built in a caller's buffer; overflow is remembered, not written past. */
struct text {
	char *out;
	size_t size, length;
	bool overflow;
};

static void text_add(struct text *text, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void text_add(struct text *text, const char *format, ...)
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
static int read_basic_text(sd_bus_message *m, char type, struct text *text)
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
	case 'y': text_add(text, "%u", (unsigned)value.y); break;
	case 'b': text_add(text, "%s", value.b ? "true" : "false"); break;
	case 'n': text_add(text, "%d", (int)value.n); break;
	case 'q': text_add(text, "%u", (unsigned)value.q); break;
	case 'i': text_add(text, "%" PRId32, value.i); break;
	case 'u': text_add(text, "%" PRIu32, value.u); break;
	case 'x': text_add(text, "%" PRId64, value.x); break;
	case 't': text_add(text, "%" PRIu64, value.t); break;
	case 'd': text_add(text, "%.17g", value.d); break;
	case 's':
	case 'o':
	case 'g': text_add(text, "%s", value.s); break;
	default: break;
	}
	return r;
}

/* Whether @p type is one of D-Bus's basic types. */
static bool is_basic(char type)
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
	if (type == SD_BUS_TYPE_ARRAY && contents && strlen(contents) == 1 && is_basic(contents[0])) {
		bool first = true;

		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, contents);
		if (r < 0)
			return r;
		for (;;) {
			size_t before = text->length;

			if (!first)
				text_add(text, "\n");
			r = read_basic_text(m, contents[0], text);
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
	if (is_basic(type))
		return read_basic_text(m, type, text);
	return sd_bus_message_skip(m, NULL);
}

int booth_bus_call(struct booth_bus *bus, const char *destination, const char *path, const char *interface,
		   const char *method, const char *signature, const char *const *arguments, char *reply,
		   size_t reply_size, char *message, size_t size)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *call = NULL, *answer = NULL;
	struct text text = { .out = reply, .size = reply_size };
	int code = 0, r;

	if (size > 0)
		message[0] = '\0';
	if (reply_size == 0) {
		errno = ERANGE;
		return -1;
	}
	reply[0] = '\0';
	r = sd_bus_message_new_method_call(bus->bus, &call, destination, path, interface, method);
	if (r < 0) {
		code = -r;
		snprintf(message, size, "%s.%s: cannot make the call", interface, method);
		goto out;
	}
	for (size_t i = 0; signature[i] != '\0'; i++) {
		r = append_text(call, signature[i], arguments[i]);
		if (r < 0) {
			code = -r;
			snprintf(message, size, "%s.%s: argument %zu (\"%s\") is not of type '%c'", interface, method,
				 i + 1, arguments[i], signature[i]);
			goto out;
		}
	}
	r = sd_bus_call(bus->bus, call, 0, &error, &answer);
	if (r < 0) {
		code = call_failed(&error, r, message, size, interface, method);
		goto out;
	}
	r = read_text(answer, &text);
	if (r < 0) {
		code = -r;
		snprintf(message, size, "%s.%s: cannot read the reply", interface, method);
	} else if (text.overflow) {
		code = ERANGE;
		snprintf(message, size, "%s.%s: the reply is longer than %zu bytes", interface, method, reply_size - 1);
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

/* Replaces control characters (a tab or a line break in a device's name) in @p text from @p from on with spaces. */
static void text_flatten(struct text *text, size_t from)
{
	for (size_t i = from; i < text->length; i++)
		if ((unsigned char)text->out[i] < 0x20)
			text->out[i] = ' ';
}

/* Reads a property's variant from @p m as one line's value: a basic value, or an array of basic values joined by
 * commas. Returns 1 when written, 0 when the value is of another type (skipped), or sd-bus's negative errno. */
static int read_property_value(sd_bus_message *m, struct text *text)
{
	const char *contents = NULL, *inner = NULL;
	char type, inner_type;
	int r = sd_bus_message_peek_type(m, &type, &contents);

	if (r <= 0)
		return r < 0 ? r : -EBADMSG;
	if (type != SD_BUS_TYPE_VARIANT)
		return -EBADMSG;
	r = sd_bus_message_enter_container(m, SD_BUS_TYPE_VARIANT, contents);
	if (r < 0)
		return r;
	r = sd_bus_message_peek_type(m, &inner_type, &inner);
	if (r < 0)
		return r;
	if (is_basic(inner_type)) {
		r = read_basic_text(m, inner_type, text);
		if (r >= 0)
			r = 1;
	} else if (inner_type == SD_BUS_TYPE_ARRAY && inner && strlen(inner) == 1 && is_basic(inner[0])) {
		bool first = true;

		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, inner);
		while (r >= 0) {
			size_t before = text->length;

			if (!first)
				text_add(text, ",");
			r = read_basic_text(m, inner[0], text);
			if (r <= 0) {
				text->length = before;
				if (!text->overflow)
					text->out[before] = '\0';
				break;
			}
			first = false;
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r >= 0)
			r = 1;
	} else {
		r = sd_bus_message_skip(m, NULL);
		if (r >= 0)
			r = 0;
	}
	if (r < 0)
		return r;
	{
		int e = sd_bus_message_exit_container(m);

		return e < 0 ? e : r;
	}
}

/* Reads one object's interfaces and properties (sa{sv} entries of an a{sa{sv}}) from @p m into lines of @p text. */
static int read_object(sd_bus_message *m, const char *object, struct text *text)
{
	int r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "{sa{sv}}");

	if (r < 0)
		return r;
	while ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_DICT_ENTRY, "sa{sv}")) > 0) {
		const char *interface = NULL;

		r = sd_bus_message_read_basic(m, 's', &interface);
		if (r < 0)
			return r;
		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, "{sv}");
		if (r < 0)
			return r;
		while ((r = sd_bus_message_enter_container(m, SD_BUS_TYPE_DICT_ENTRY, "sv")) > 0) {
			const char *name = NULL;
			size_t line = text->length, value;

			r = sd_bus_message_read_basic(m, 's', &name);
			if (r < 0)
				return r;
			text_add(text, "%s\t%s\t%s\t", object, interface, name);
			value = text->length;
			r = read_property_value(m, text);
			if (r < 0)
				return r;
			if (r == 0 || text->overflow) {
				if (!text->overflow) {
					text->length = line;
					text->out[line] = '\0';
				}
			} else {
				text_flatten(text, value);
				text_add(text, "\n");
			}
			r = sd_bus_message_exit_container(m);
			if (r < 0)
				return r;
		}
		if (r < 0)
			return r;
		r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
		r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(m);
}

int booth_bus_managed_objects(struct booth_bus *bus, const char *destination, const char *path, char *out,
			      size_t out_size, char *message, size_t size)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *answer = NULL;
	struct text text = { .out = out, .size = out_size };
	int code = 0, r;

	if (size > 0)
		message[0] = '\0';
	if (out_size == 0) {
		errno = ERANGE;
		return -1;
	}
	out[0] = '\0';
	r = sd_bus_call_method(bus->bus, destination, path, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
			       &error, &answer, "");
	if (r < 0) {
		code = call_failed(&error, r, message, size, NULL, "GetManagedObjects");
		goto out;
	}
	r = sd_bus_message_enter_container(answer, SD_BUS_TYPE_ARRAY, "{oa{sa{sv}}}");
	while (r >= 0 && (r = sd_bus_message_enter_container(answer, SD_BUS_TYPE_DICT_ENTRY, "oa{sa{sv}}")) > 0) {
		const char *object = NULL;

		r = sd_bus_message_read_basic(answer, 'o', &object);
		if (r >= 0)
			r = read_object(answer, object, &text);
		if (r >= 0)
			r = sd_bus_message_exit_container(answer);
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(answer);
	if (r < 0) {
		code = -r;
		snprintf(message, size, "GetManagedObjects: cannot read the reply");
	} else if (text.overflow) {
		code = ERANGE;
		snprintf(message, size, "GetManagedObjects: the reply is longer than %zu bytes", out_size - 1);
	}
out:
	sd_bus_message_unref(answer);
	sd_bus_error_free(&error);
	if (code == 0)
		return 0;
	errno = code;
	return -1;
}
