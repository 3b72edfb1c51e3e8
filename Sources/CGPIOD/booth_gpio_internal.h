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

/** Fills chip's name, label and line count from its open handle; -1 with errno set on failure
 * (backend-specific: booth_gpio_chip_open_by_path opens and closes the handle for both). */
int booth_gpio_backend_chip_describe(struct booth_gpio_chip *chip);

/** The offset of the line called name (never empty) on chip, or -1 with errno set (backend-specific). */
int booth_gpio_backend_find_line(struct booth_gpio_chip *chip, const char *name);

/** libgpiod's direction of a line as a BOOTH_GPIO_DIRECTION_* (both APIs name theirs alike). */
int booth_gpio_direction(int libgpiod_direction);

/** 0 if a request of these lines can be made; -1 with errno EINVAL if there are none or an array is missing. */
int booth_gpio_check_request(const struct booth_gpio_input_config *inputs, size_t num_inputs,
			     const struct booth_gpio_output_config *outputs, size_t num_outputs);

/** Makes reads of an edge descriptor return at once (EAGAIN) when the kernel holds no edge, so a read needs no
 * poll before it; 0, or -1 with errno set. */
int booth_gpio_set_nonblocking(int fd);

/** 0 if index < count; -1 with errno EINVAL if not. */
int booth_gpio_check_index(size_t index, size_t count);

#endif /* BOOTH_GPIO_INTERNAL_H */
