/* Linux calls that Swift cannot reach directly (variadic or missing from Glibc's module map). */
#ifndef BOOTH_SYS_H
#define BOOTH_SYS_H

/* The event loop's kernel interfaces, which Swift's Glibc module does not export. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

/**
 * Renames @p from to @p to only if @p to does not exist (renameat2 with RENAME_NOREPLACE).
 * Returns 0, or -1 with errno set (EEXIST when @p to exists; EINVAL where the file system has no
 * renameat2 support, as FAT on some kernels).
 */
int booth_rename_noreplace(const char *from, const char *to);

#endif
