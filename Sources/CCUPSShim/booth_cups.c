/* booth_cups: printing through CUPS, over libcups loaded with dlopen (see booth_cups.h). */
#include "booth_message.h"
#include "booth_cups.h"

#include <cups/cups.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	__typeof__(cupsSetServer) *set_server;
	__typeof__(cupsPrintFile2) *print_file;
	__typeof__(cupsGetJobs2) *get_jobs;
	__typeof__(cupsFreeJobs) *free_jobs;
	__typeof__(cupsGetDests2) *get_dests;
	__typeof__(cupsGetDest) *get_dest;
	__typeof__(cupsFreeDests) *free_dests;
	__typeof__(cupsGetOption) *get_option;
	__typeof__(cupsAddOption) *add_option;
	__typeof__(cupsFreeOptions) *free_options;
	__typeof__(cupsLastError) *last_error_code;
	__typeof__(cupsLastErrorString) *last_error_string;
} cups;

static pthread_once_t cups_once = PTHREAD_ONCE_INIT;
/* Why libcups could not be loaded ("" once it is). */
static char cups_problem[BOOTH_CUPS_MESSAGE_MAX];

#define RESOLVE(field, symbol)                                                                                 \
	do {                                                                                                   \
		*(void **)(&cups.field) = dlsym(library, #symbol);                                             \
		if (cups.field == NULL) {                                                                      \
			snprintf(cups_problem, sizeof cups_problem, "libcups.so.2 has no %s", #symbol);         \
			return;                                                                                \
		}                                                                                              \
	} while (0)

static void load_cups(void)
{
	void *library = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL);
	if (library == NULL) {
		snprintf(cups_problem, sizeof cups_problem, "cannot load libcups (%s): install Debian's cups",
			 dlerror());
		return;
	}
	RESOLVE(set_server, cupsSetServer);
	RESOLVE(print_file, cupsPrintFile2);
	RESOLVE(get_jobs, cupsGetJobs2);
	RESOLVE(free_jobs, cupsFreeJobs);
	RESOLVE(get_dests, cupsGetDests2);
	RESOLVE(get_dest, cupsGetDest);
	RESOLVE(free_dests, cupsFreeDests);
	RESOLVE(get_option, cupsGetOption);
	RESOLVE(add_option, cupsAddOption);
	RESOLVE(free_options, cupsFreeOptions);
	RESOLVE(last_error_code, cupsLastError);
	RESOLVE(last_error_string, cupsLastErrorString);
}

/* Loads libcups once and points this thread at `server`; 0, or -1 with the reason. */
static int begin(const char *server, char *message)
{
	pthread_once(&cups_once, load_cups);
	if (cups_problem[0] != '\0') {
		booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "%s", cups_problem);
		return -1;
	}
	cups.set_server(server);
	return 0;
}

/* The server's last error, for a message. */
static const char *last_error(void)
{
	const char *text = cups.last_error_string();
	return text != NULL && text[0] != '\0' ? text : "no reason given";
}

int booth_cups_print_file(const char *server, const char *queue, const char *path, const char *title, int copies,
			  char *message)
{
	if (begin(server, message) != 0)
		return 0;
	char name[BOOTH_CUPS_MESSAGE_MAX];
	int state = 0;
	char reasons[BOOTH_CUPS_MESSAGE_MAX];
	int found = booth_cups_queue_state(server, queue, name, &state, reasons, message);
	if (found != 0)
		return found == BOOTH_CUPS_UNREACHABLE ? BOOTH_CUPS_UNREACHABLE : 0;
	cups_option_t *options = NULL;
	int count = 0;
	char text[16];
	snprintf(text, sizeof text, "%d", copies < 1 ? 1 : copies);
	count = cups.add_option("copies", text, count, &options);
	/* A photo is in colour (a queue's default may be monochrome); a printer without colour ignores it. */
	count = cups.add_option("print-color-mode", "color", count, &options);
	int job = cups.print_file(CUPS_HTTP_DEFAULT, name, path, title, count, options);
	cups.free_options(count, options);
	if (job <= 0) {
		booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "CUPS refused the job for queue '%s': %s", name, last_error());
		return 0;
	}
	return job;
}

int booth_cups_job_state(const char *server, const char *queue, int job, int *state, char *message)
{
	if (begin(server, message) != 0)
		return -1;
	cups_job_t *jobs = NULL;
	int count = cups.get_jobs(CUPS_HTTP_DEFAULT, &jobs, queue != NULL && queue[0] != '\0' ? queue : NULL, 0,
				  CUPS_WHICHJOBS_ALL);
	if (count < 0) {
		booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "cannot list the jobs of CUPS: %s", last_error());
		return cups.last_error_code() == IPP_STATUS_ERROR_SERVICE_UNAVAILABLE ? BOOTH_CUPS_UNREACHABLE : -1;
	}
	int found = -1;
	for (int i = 0; i < count; i++) {
		if (jobs[i].id == job) {
			*state = (int)jobs[i].state;
			found = 0;
			break;
		}
	}
	cups.free_jobs(count, jobs);
	if (found != 0)
		booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "CUPS knows no job %d (cancelled and purged, or CUPS restarted without its history)", job);
	return found;
}

/* The queues CUPS lists, and the one asked for (NULL with the reason in `message`); free `*dests` after. */
static cups_dest_t *find_queue(const char *queue, cups_dest_t **dests, int *count, int *status, char *message)
{
	*dests = NULL;
	*count = cups.get_dests(CUPS_HTTP_DEFAULT, dests);
	if (*count <= 0) {
		int unreachable = cups.last_error_code() > IPP_STATUS_OK_EVENTS_COMPLETE;
		if (unreachable)
			booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "cannot reach CUPS (%s): is the cups service running? (`systemctl status cups`)",
			    last_error());
		else
			booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "CUPS has no print queue: add the printer (`lpadmin`, or the CUPS web page)");
		*status = unreachable ? BOOTH_CUPS_UNREACHABLE : -1;
		return NULL;
	}
	int wanted = queue != NULL && queue[0] != '\0';
	cups_dest_t *dest = cups.get_dest(wanted ? queue : NULL, NULL, *count, *dests);
	if (dest == NULL) {
		if (wanted)
			booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "CUPS has no queue '%s' (`lpstat -p` lists them): set print.queue to one of them",
			    queue);
		else
			booth_message_set(message, BOOTH_CUPS_MESSAGE_MAX, "CUPS has no default queue: set print.queue, or make one the default with "
				     "`lpoptions -d QUEUE`");
		*status = -1;
	}
	return dest;
}

int booth_cups_queue_attribute(const char *server, const char *queue, const char *attribute, char *value,
			       char *message)
{
	if (begin(server, message) != 0)
		return -1;
	cups_dest_t *dests;
	int count;
	int status = 0;
	cups_dest_t *dest = find_queue(queue, &dests, &count, &status, message);
	if (dest != NULL) {
		const char *text = cups.get_option(attribute, dest->num_options, dest->options);
		snprintf(value, BOOTH_CUPS_MESSAGE_MAX, "%s", text != NULL ? text : "");
	}
	cups.free_dests(count, dests);
	return status;
}

int booth_cups_queue_state(const char *server, const char *queue, char *name, int *state, char *reasons,
			   char *message)
{
	if (begin(server, message) != 0)
		return -1;
	cups_dest_t *dests;
	int count;
	int status = 0;
	cups_dest_t *dest = find_queue(queue, &dests, &count, &status, message);
	if (dest != NULL) {
		snprintf(name, BOOTH_CUPS_MESSAGE_MAX, "%s", dest->name);
		const char *text = cups.get_option("printer-state", dest->num_options, dest->options);
		*state = text != NULL ? atoi(text) : 0;
		text = cups.get_option("printer-state-reasons", dest->num_options, dest->options);
		snprintf(reasons, BOOTH_CUPS_MESSAGE_MAX, "%s", text != NULL && text[0] != '\0' ? text : "none");
	}
	cups.free_dests(count, dests);
	return status;
}
