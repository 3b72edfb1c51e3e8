/* booth_bus: the connection to a bus, the errno of a failed call, and StopUnit on systemd's D-Bus API (waiting for
 * the job's end). Any call of basic-typed arguments is in booth_bus_call.c, an object manager's objects in
 * booth_bus_objects.c. */
#include "booth_bus_internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define SYSTEMD_SERVICE "org.freedesktop.systemd1"
#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"

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
int booth_bus_call_failed(const sd_bus_error *error, int r, char *message, size_t size, const char *interface,
			  const char *method)
{
	if (error->name)
		booth_message_set(message, size, "%s: %s", error->name, error->message ? error->message : "");
	else
		booth_message_set(message, size, "%s%s%s", interface ? interface : "", interface ? "." : "", method);
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
		booth_message_set(message, size, "cannot watch systemd's jobs");
		goto err_match;
	}
	r = sd_bus_call_method(bus->bus, SYSTEMD_SERVICE, SYSTEMD_PATH, SYSTEMD_MANAGER, "StopUnit", &error, &reply,
			       "ss", unit, "replace");
	if (r < 0) {
		code = booth_bus_call_failed(&error, r, message, size, NULL, "StopUnit");
		goto err_call;
	}
	r = sd_bus_message_read(reply, "o", &job);
	if (r < 0) {
		code = -r;
		booth_message_set(message, size, "StopUnit's reply");
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
			booth_message_set(message, size, "systemd's bus");
			goto err_wait;
		}
		if (r > 0)
			continue;
		if (now >= deadline) {
			code = ETIMEDOUT;
			booth_message_set(message, size, "the job %s did not finish in time", job);
			goto err_wait;
		}
		r = sd_bus_wait(bus->bus, deadline - now);
		if (r < 0 && r != -EINTR) {
			code = -r;
			booth_message_set(message, size, "systemd's bus");
			goto err_wait;
		}
	}
	if (strcmp(wait.result, "done") != 0) {
		code = EBUSY;
		booth_message_set(message, size, "the job ended \"%s\" (see journalctl -u %s)", wait.result, unit);
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
