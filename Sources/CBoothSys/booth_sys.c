/* Linux calls that Swift cannot reach directly. */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include "booth_sys.h"

#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/vfs.h>
#include <unistd.h>

int booth_rename_noreplace(const char *from, const char *to)
{
	return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
}

int booth_renameat_noreplace(int dirfd, const char *from, const char *to)
{
	return (int)syscall(SYS_renameat2, dirfd, from, dirfd, to, 1u /* RENAME_NOREPLACE */);
}

int booth_preallocate(int fd, long long size)
{
	return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size);
}

int booth_accept_nonblocking(int fd)
{
	return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int booth_syncfs(int fd)
{
	return syncfs(fd);
}

int booth_umount(const char *target, int flags)
{
	return umount2(target, flags);
}

int booth_fs_type(int fd, long *type)
{
	struct statfs stats;

	if (fstatfs(fd, &stats) != 0)
		return -1;
	*type = (long)stats.f_type;
	return 0;
}

const char *booth_errno_name(int code)
{
	return strerrorname_np(code);
}

int booth_clock_synchronised(void)
{
	struct timex state = { 0 };
	int result = adjtimex(&state);
	if (result < 0)
		return -1;
	return result != TIME_ERROR && !(state.status & STA_UNSYNC);
}

int booth_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) < 0) return 0;
    return size.ws_col;
}
