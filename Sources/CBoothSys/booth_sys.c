/* Linux calls that Swift cannot reach directly. */
#define _GNU_SOURCE
#include "booth_sys.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int booth_rename_noreplace(const char *from, const char *to)
{
	return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
}
