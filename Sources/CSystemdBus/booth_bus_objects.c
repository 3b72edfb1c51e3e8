/* booth_bus_objects: an object manager's objects (GetManagedObjects) as lines of text. */
#include "booth_bus_internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

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
	if (booth_bus_is_basic(inner_type)) {
		r = booth_bus_read_basic_text(m, inner_type, text);
		if (r >= 0)
			r = 1;
	} else if (inner_type == SD_BUS_TYPE_ARRAY && inner && strlen(inner) == 1 && booth_bus_is_basic(inner[0])) {
		bool first = true;

		r = sd_bus_message_enter_container(m, SD_BUS_TYPE_ARRAY, inner);
		while (r >= 0) {
			size_t before = text->length;

			if (!first)
				booth_bus_text_add(text, ",");
			r = booth_bus_read_basic_text(m, inner[0], text);
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
			booth_bus_text_add(text, "%s\t%s\t%s\t", object, interface, name);
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
				booth_bus_text_add(text, "\n");
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
	struct text text;
	int code = 0, r;

	if (booth_bus_text_begin(&text, out, out_size, message, size) < 0)
		return -1;
	r = sd_bus_call_method(bus->bus, destination, path, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
			       &error, &answer, "");
	if (r < 0) {
		code = booth_bus_call_failed(&error, r, message, size, NULL, "GetManagedObjects");
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
		booth_message_set(message, size, "GetManagedObjects: cannot read the reply");
	} else if (text.overflow) {
		code = ERANGE;
		booth_message_set(message, size, "GetManagedObjects: the reply is longer than %zu bytes", out_size - 1);
	}
out:
	sd_bus_message_unref(answer);
	sd_bus_error_free(&error);
	if (code == 0)
		return 0;
	errno = code;
	return -1;
}
