/*
 * booth_cups: printing through CUPS, over libcups. libcups (and the Avahi,
 * GnuTLS and Kerberos libraries it brings) is loaded with dlopen the first
 * time it is needed, so a booth that does not print never maps it.
 *
 * Every call talks to one CUPS server: `server` is a socket path or
 * host[:port] (NULL: libcups's own choice, CUPS_SERVER or the local socket)
 * and is set for the calling thread only. Calls block on the server: run
 * them on a thread of their own.
 *
 * Errors: functions that can fail return -1 (or 0 for a job id) with a
 * human-readable reason in `message` (BOOTH_CUPS_MESSAGE_MAX bytes, always
 * NUL-terminated).
 */
#ifndef BOOTH_CUPS_H
#define BOOTH_CUPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of every `message` and `reasons` buffer. */
#define BOOTH_CUPS_MESSAGE_MAX 512

/** Returned when CUPS itself could not be reached (not running, restarting): the same call may work later. */
#define BOOTH_CUPS_UNREACHABLE (-2)

/**
 * Sends the file at `path` (its type found by CUPS) to `queue` (NULL or "":
 * the server's default queue) as `copies` copies titled `title`. The job's id
 * (> 0) on success, BOOTH_CUPS_UNREACHABLE when CUPS could not be reached,
 * 0 on any other failure (no such queue, the job refused).
 */
int booth_cups_print_file(const char *server, const char *queue, const char *path, const char *title, int copies,
			  char *message);

/**
 * The state of job `job` on `queue` (IPP's job-state: 3 pending, 4 held,
 * 5 processing, 6 stopped, 7 canceled, 8 aborted, 9 completed) in `*state`.
 * 0 on success, BOOTH_CUPS_UNREACHABLE when CUPS could not be reached, -1
 * on any other failure (the job unknown to the server among them).
 */
int booth_cups_job_state(const char *server, const char *queue, int job, int *state, char *message);

/**
 * The queue `queue` (NULL or "": the default one): its name in `name`, its
 * printer-state (3 idle, 4 processing, 5 stopped) in `*state` and its
 * printer-state-reasons, comma-separated, in `reasons` ("none" when it has
 * none); each buffer BOOTH_CUPS_MESSAGE_MAX bytes. 0 on success,
 * BOOTH_CUPS_UNREACHABLE when CUPS could not be reached, -1 on any other
 * failure (no such queue, no default).
 */
int booth_cups_queue_state(const char *server, const char *queue, char *name, int *state, char *reasons,
			   char *message);

/**
 * One attribute of the queue `queue` (NULL or "": the default one) as CUPS
 * lists its queues, e.g. "marker-levels" ("75,5"; each value comma-separated)
 * in `value` (BOOTH_CUPS_MESSAGE_MAX bytes, "" when the queue has none). 0 on
 * success, BOOTH_CUPS_UNREACHABLE or -1 as booth_cups_queue_state.
 */
int booth_cups_queue_attribute(const char *server, const char *queue, const char *attribute, char *value,
			       char *message);

#ifdef __cplusplus
}
#endif

#endif
