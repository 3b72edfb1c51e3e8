/* booth_gpio_internal: picks the libgpiod backend and holds the state both backends share. */
#ifndef BOOTH_GPIO_INTERNAL_H
#define BOOTH_GPIO_INTERNAL_H

#include <gpiod.h>

#include "booth_gpio.h"

/* v1's gpiod.h defines GPIOD_LINE_BULK_MAX_LINES; v2 dropped line bulks. */
#ifdef GPIOD_LINE_BULK_MAX_LINES
#define BOOTH_GPIO_LIBGPIOD_V1 1
#define BOOTH_GPIO_LIBGPIOD_V2 0
#else
#define BOOTH_GPIO_LIBGPIOD_V1 0
#define BOOTH_GPIO_LIBGPIOD_V2 1
#endif

/** An open chip: the libgpiod handle plus copies of its identity. */
struct booth_gpio_chip {
	struct gpiod_chip *handle;
	char name[BOOTH_GPIO_NAME_MAX];
	char label[BOOTH_GPIO_NAME_MAX];
	char path[BOOTH_GPIO_PATH_MAX];
	unsigned int num_lines;
};

/** Copies src (NULL means empty) into dst of size dst_size, always NUL-terminated. */
void booth_gpio_copy_string(char *dst, size_t dst_size, const char *src);

/** Allocates a chip around an opened libgpiod handle (backend-specific). */
struct booth_gpio_chip *booth_gpio_backend_chip_open(const char *path);

#endif /* BOOTH_GPIO_INTERNAL_H */
