/* booth_gpio_chip: what both libgpiod backends share: opening and closing a chip, finding chips (listing, by
 * name, by label) and lines, and the checks of every call's arguments. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booth_gpio_internal.h"

void booth_gpio_copy_string(char *dst, size_t dst_size, const char *src)
{
	if (dst_size == 0)
		return;
	if (!src)
		src = "";
	snprintf(dst, dst_size, "%s", src);
}

/* Parses "gpiochipN"; returns N or -1 if name is not a chip device name. */
static long chip_number(const char *name)
{
	const char *prefix = "gpiochip";
	size_t prefix_len = strlen(prefix);
	char *end = NULL;
	long num;

	if (strncmp(name, prefix, prefix_len) != 0 || name[prefix_len] == '\0')
		return -1;
	errno = 0;
	num = strtol(name + prefix_len, &end, 10);
	if (errno != 0 || *end != '\0' || num < 0)
		return -1;
	return num;
}

static int compare_longs(const void *lhs, const void *rhs)
{
	long a = *(const long *)lhs;
	long b = *(const long *)rhs;

	return (a > b) - (a < b);
}

/* Collects the numbers N of /dev/gpiochipN, sorted. Caller frees *numbers. */
static int chip_numbers(long **numbers, size_t *count)
{
	struct dirent *entry;
	size_t capacity = 0;
	long *found = NULL;
	long *grown;
	DIR *dev;
	long num;

	*numbers = NULL;
	*count = 0;
	dev = opendir("/dev");
	if (!dev)
		return -1;
	while ((entry = readdir(dev)) != NULL) {
		num = chip_number(entry->d_name);
		if (num < 0)
			continue;
		if (*count == capacity) {
			capacity = capacity ? capacity * 2 : 8;
			grown = realloc(found, capacity * sizeof(*found));
			if (!grown)
				goto err_free;
			found = grown;
		}
		found[(*count)++] = num;
	}
	closedir(dev);
	if (*count > 1)
		qsort(found, *count, sizeof(*found), compare_longs);
	*numbers = found;
	return 0;

err_free:
	free(found);
	closedir(dev);
	*count = 0;
	errno = ENOMEM;
	return -1;
}

int booth_gpio_chip_list(struct booth_gpio_chip_summary *summaries, size_t max_summaries)
{
	struct booth_gpio_chip_summary *summary;
	struct booth_gpio_chip *chip;
	long *numbers;
	size_t count;
	size_t i;

	if (chip_numbers(&numbers, &count) < 0)
		return -1;
	for (i = 0; i < count && i < max_summaries; i++) {
		summary = &summaries[i];
		memset(summary, 0, sizeof(*summary));
		snprintf(summary->name, sizeof(summary->name), "gpiochip%ld", numbers[i]);
		snprintf(summary->path, sizeof(summary->path), "/dev/gpiochip%ld", numbers[i]);
		chip = booth_gpio_chip_open_by_path(summary->path);
		if (!chip) {
			summary->open_errno = errno;
			continue;
		}
		booth_gpio_copy_string(summary->label, sizeof(summary->label), chip->label);
		summary->num_lines = chip->num_lines;
		booth_gpio_chip_close(chip);
	}
	free(numbers);
	return count > (size_t)__INT_MAX__ ? __INT_MAX__ : (int)count;
}

struct booth_gpio_chip *booth_gpio_chip_open_by_path(const char *path)
{
	struct booth_gpio_chip *chip;
	int saved_errno;

	if (!path || path[0] == '\0') {
		errno = EINVAL;
		return NULL;
	}
	chip = calloc(1, sizeof(*chip));
	if (!chip)
		return NULL;
	chip->handle = gpiod_chip_open(path);
	if (!chip->handle)
		goto err_free;
	booth_gpio_copy_string(chip->path, sizeof(chip->path), path);
	if (booth_gpio_backend_chip_describe(chip) < 0)
		goto err_close;
	return chip;

err_close:
	saved_errno = errno;
	gpiod_chip_close(chip->handle);
	errno = saved_errno;
err_free:
	saved_errno = errno;
	free(chip);
	errno = saved_errno;
	return NULL;
}

void booth_gpio_chip_close(struct booth_gpio_chip *chip)
{
	if (!chip)
		return;
	gpiod_chip_close(chip->handle);
	free(chip);
}

int booth_gpio_chip_find_line(struct booth_gpio_chip *chip, const char *name)
{
	if (!name || name[0] == '\0') {
		errno = EINVAL;
		return -1;
	}
	return booth_gpio_backend_find_line(chip, name);
}

int booth_gpio_direction(int libgpiod_direction)
{
	switch (libgpiod_direction) {
	case GPIOD_LINE_DIRECTION_INPUT:
		return BOOTH_GPIO_DIRECTION_INPUT;
	case GPIOD_LINE_DIRECTION_OUTPUT:
		return BOOTH_GPIO_DIRECTION_OUTPUT;
	default:
		return BOOTH_GPIO_DIRECTION_UNKNOWN;
	}
}

int booth_gpio_check_request(const struct booth_gpio_input_config *inputs, size_t num_inputs,
			     const struct booth_gpio_output_config *outputs, size_t num_outputs)
{
	if (num_inputs + num_outputs == 0 || (num_inputs && !inputs) ||
	    (num_outputs && !outputs)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int booth_gpio_set_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return -1;
	return fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ? -1 : 0;
}

int booth_gpio_check_index(size_t index, size_t count)
{
	if (index >= count) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

struct booth_gpio_chip *booth_gpio_chip_open_by_name(const char *name)
{
	char path[BOOTH_GPIO_PATH_MAX];

	if (!name || name[0] == '\0' || strchr(name, '/')) {
		errno = EINVAL;
		return NULL;
	}
	snprintf(path, sizeof(path), "/dev/%s", name);
	return booth_gpio_chip_open_by_path(path);
}

struct booth_gpio_chip *booth_gpio_chip_open_by_label(const char *label)
{
	struct booth_gpio_chip *chip;
	char path[BOOTH_GPIO_PATH_MAX];
	int first_errno = 0;
	long *numbers;
	size_t count;
	size_t i;

	if (!label || label[0] == '\0') {
		errno = EINVAL;
		return NULL;
	}
	if (chip_numbers(&numbers, &count) < 0)
		return NULL;
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "/dev/gpiochip%ld", numbers[i]);
		chip = booth_gpio_chip_open_by_path(path);
		if (!chip) {
			if (first_errno == 0)
				first_errno = errno;
			continue;
		}
		if (strcmp(chip->label, label) == 0) {
			free(numbers);
			return chip;
		}
		booth_gpio_chip_close(chip);
	}
	free(numbers);
	/* A chip we could not open might have been the one: report why rather than ENOENT. */
	errno = first_errno ? first_errno : ENOENT;
	return NULL;
}

const char *booth_gpio_chip_get_name(const struct booth_gpio_chip *chip)
{
	return chip->name;
}

const char *booth_gpio_chip_get_label(const struct booth_gpio_chip *chip)
{
	return chip->label;
}

const char *booth_gpio_chip_get_path(const struct booth_gpio_chip *chip)
{
	return chip->path;
}

unsigned int booth_gpio_chip_get_num_lines(const struct booth_gpio_chip *chip)
{
	return chip->num_lines;
}
