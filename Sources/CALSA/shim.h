// CALSA: exposes alsa-lib (libasound) to Swift. Only SoundOutput imports it (ALSAPlayback, Mixer).
#ifndef BOOTH_CALSA_SHIM_H
#define BOOTH_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* alsa-lib prints its own lines on stderr for every failed open ("cannot find card '0'"); the booth
 * reports each failure once, with the fix, so those lines are only noise in the journal. */
static void booth_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...)
{
	(void)file;
	(void)line;
	(void)function;
	(void)err;
	(void)fmt;
}

/** Stops alsa-lib's own error lines (process-wide). */
static inline void booth_alsa_quiet(void)
{
	snd_lib_error_set_handler(booth_alsa_silent);
}
#endif
