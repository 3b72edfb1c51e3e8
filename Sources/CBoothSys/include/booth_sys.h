/* Linux calls that Swift cannot reach directly (variadic or missing from Glibc's module map). */
#ifndef BOOTH_SYS_H
#define BOOTH_SYS_H

/* The event loop's kernel interfaces, which Swift's Glibc module does not export. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
/* mallopt and its M_ constants (AllocatorLimits). */
#include <malloc.h>

/**
 * Renames @p from to @p to only if @p to does not exist (renameat2 with RENAME_NOREPLACE).
 * Returns 0, or -1 with errno set (EEXIST when @p to exists; EINVAL where the file system has no
 * renameat2 support, as FAT on some kernels).
 */
int booth_rename_noreplace(const char *from, const char *to);

/**
 * Renames @p from to @p to, both relative to the directory @p dirfd, only if @p to does not exist
 * (renameat2 with RENAME_NOREPLACE). Returns 0, or -1 with errno set as booth_rename_noreplace.
 */
int booth_renameat_noreplace(int dirfd, const char *from, const char *to);

/**
 * Reserves @p size bytes of storage for @p fd without changing its size (fallocate with
 * FALLOC_FL_KEEP_SIZE). Returns 0, or -1 with errno set (EOPNOTSUPP where the file system cannot).
 */
int booth_preallocate(int fd, long long size);

/** The symbolic name of errno @p code ("EBUSY"; glibc's strerrorname_np), or NULL for an unknown code. */
const char *booth_errno_name(int code);

/** Flushes the whole file system holding @p fd (syncfs). Returns 0, or -1 with errno set. */
int booth_syncfs(int fd);

/** Unmounts the file system at @p target (umount2 with @p flags). Returns 0, or -1 with errno set. */
int booth_umount(const char *target, int flags);

/**
 * Stores the file system type (statfs f_type magic, e.g. 0x4d44 for FAT) of the file system holding
 * @p fd in @p type. Returns 0, or -1 with errno set.
 */
int booth_fs_type(int fd, long *type);

/* Whether the kernel's clock is synchronised (adjtimex read, no change: needs no capability): 1 yes,
 * 0 no (TIME_ERROR or STA_UNSYNC), -1 with errno set when adjtimex fails. */
int booth_clock_synchronised(void);

/* The next connection on listening socket @p fd, non-blocking and closed on exec (accept4 with SOCK_NONBLOCK |
 * SOCK_CLOEXEC). Returns its descriptor, or -1 with errno set (EAGAIN: none waits). */
int booth_accept_nonblocking(int fd);

/* The width in columns of the terminal on @p fd (TIOCGWINSZ), or 0 when it is no terminal or has none. */
int booth_terminal_columns(int fd);

#endif
