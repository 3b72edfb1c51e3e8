/* booth_gpio: one flat C API over libgpiod v1 (1.6.x) and v2 (2.x) for HeyLook Booth. */
#ifndef BOOTH_GPIO_H
#define BOOTH_GPIO_H

/*
 * Grammar follows libgpiod: booth_gpio_<object>_<verb>, opaque handles, ownership stated on
 * each function, errors reported as NULL or -1 with errno set. This header does not include
 * gpiod.h; the libgpiod major version is picked in booth_gpio_internal.h (v1's gpiod.h defines
 * GPIOD_LINE_BULK_MAX_LINES, v2's does not) and only one backend file compiles.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of name, label and consumer buffers (the kernel limit is 32 including the NUL). */
#define BOOTH_GPIO_NAME_MAX 64
/** Size of chip path buffers. */
#define BOOTH_GPIO_PATH_MAX 256

/** Bias applied to an input line. */
enum booth_gpio_bias {
	/** Leave the bias as the kernel or firmware set it. */
	BOOTH_GPIO_BIAS_AS_IS = 0,
	/** No internal pull resistor (an external one is fitted). */
	BOOTH_GPIO_BIAS_DISABLED = 1,
	/** Internal pull-up: a button to ground reads low when pressed. */
	BOOTH_GPIO_BIAS_PULL_UP = 2,
	/** Internal pull-down: a button to 3.3 V reads high when pressed. */
	BOOTH_GPIO_BIAS_PULL_DOWN = 3,
};

/** Direction of a line as reported by the kernel. */
enum booth_gpio_direction {
	/** The backend could not tell. */
	BOOTH_GPIO_DIRECTION_UNKNOWN = 0,
	/** The line is an input. */
	BOOTH_GPIO_DIRECTION_INPUT = 1,
	/** The line is an output. */
	BOOTH_GPIO_DIRECTION_OUTPUT = 2,
};

/** Kind of an edge event, in logical terms (after active-low inversion). */
enum booth_gpio_edge_kind {
	/** The logical value went from 0 to 1. */
	BOOTH_GPIO_EDGE_RISING = 1,
	/** The logical value went from 1 to 0. */
	BOOTH_GPIO_EDGE_FALLING = 2,
};

/** An open GPIO chip. Opaque; close with booth_gpio_chip_close. */
struct booth_gpio_chip;

/** A set of requested input and output lines on one chip. Opaque; release with
 *  booth_gpio_request_release before closing its chip. */
struct booth_gpio_request;

/** One chip found under /dev, as listed by booth_gpio_chip_list. */
struct booth_gpio_chip_summary {
	/** Device name, e.g. "gpiochip0". */
	char name[BOOTH_GPIO_NAME_MAX];
	/** Driver label, e.g. "pinctrl-rp1"; empty if the chip could not be opened. */
	char label[BOOTH_GPIO_NAME_MAX];
	/** Device path, e.g. "/dev/gpiochip0". */
	char path[BOOTH_GPIO_PATH_MAX];
	/** Number of lines; 0 if the chip could not be opened. */
	unsigned int num_lines;
	/** 0 if the chip opened, otherwise the errno of the failed open (e.g. EACCES). */
	int open_errno;
};

/** What the kernel reports about one line (for `booth doctor` and error messages). */
struct booth_gpio_line_info {
	/** Offset of the line on its chip. */
	unsigned int offset;
	/** Line name from the device tree, e.g. "GPIO17"; empty if unnamed. */
	char name[BOOTH_GPIO_NAME_MAX];
	/** Consumer that holds the line; empty if none or unnamed. */
	char consumer[BOOTH_GPIO_NAME_MAX];
	/** True if any consumer (a program or a kernel driver) holds the line. */
	bool used;
	/** One of enum booth_gpio_direction. */
	int direction;
	/** True if the line is configured active-low. */
	bool active_low;
};

/** Configuration of one input line. */
struct booth_gpio_input_config {
	/** Offset of the line on the chip. */
	unsigned int offset;
	/** One of enum booth_gpio_bias. */
	int bias;
	/** Invert the line so that "pressed" reads 1 for a button to ground. */
	bool active_low;
	/** Kernel debounce period in microseconds; 0 for none. Honoured by libgpiod v2 only. */
	unsigned int debounce_us;
};

/** Configuration of one output line. */
struct booth_gpio_output_config {
	/** Offset of the line on the chip. */
	unsigned int offset;
	/** Invert the line. */
	bool active_low;
	/** Initial logical value, 0 or 1. */
	int initial_value;
};

/** One edge event read from a request. */
struct booth_gpio_edge {
	/** Index of the input line in the array passed to booth_gpio_request_lines. */
	size_t input_index;
	/** One of enum booth_gpio_edge_kind. */
	int kind;
	/** Kernel timestamp in nanoseconds, CLOCK_MONOTONIC (Linux >= 5.7 for libgpiod v1). */
	uint64_t timestamp_ns;
};

/** Returns the libgpiod version this shim was built against, e.g. "1.6.3". Static storage. */
const char *booth_gpio_libgpiod_version(void);

/** Returns true if the backend honours booth_gpio_input_config.debounce_us (libgpiod v2). */
bool booth_gpio_has_kernel_debounce(void);

/**
 * Lists the GPIO chips under /dev in numeric order.
 * @param summaries Array to fill; may be NULL if max_summaries is 0.
 * @param max_summaries Capacity of summaries.
 * @return The number of chips found (which may exceed max_summaries; call again with a larger
 *         array), 0 if there are none, -1 with errno set if /dev cannot be read.
 * Chips that exist but cannot be opened are listed with open_errno set.
 */
int booth_gpio_chip_list(struct booth_gpio_chip_summary *summaries, size_t max_summaries);

/**
 * Opens a chip by device path, e.g. "/dev/gpiochip0".
 * @return A chip to close with booth_gpio_chip_close, or NULL with errno set
 *         (ENOENT: no such file; ENODEV: not a GPIO chip; EACCES: no permission).
 */
struct booth_gpio_chip *booth_gpio_chip_open_by_path(const char *path);

/**
 * Opens a chip by device name, e.g. "gpiochip0" for "/dev/gpiochip0".
 * @return As booth_gpio_chip_open_by_path; EINVAL if name contains '/'.
 */
struct booth_gpio_chip *booth_gpio_chip_open_by_name(const char *name);

/**
 * Opens the first chip (in numeric order) whose label equals label, e.g. "pinctrl-rp1".
 * @return As booth_gpio_chip_open_by_path; ENOENT if no chip has that label.
 */
struct booth_gpio_chip *booth_gpio_chip_open_by_label(const char *label);

/** Closes a chip. Release every request on it first. NULL is ignored. */
void booth_gpio_chip_close(struct booth_gpio_chip *chip);

/** Returns the chip's device name ("gpiochip0"). Valid while the chip is open. */
const char *booth_gpio_chip_get_name(const struct booth_gpio_chip *chip);

/** Returns the chip's label ("pinctrl-rp1"). Valid while the chip is open. */
const char *booth_gpio_chip_get_label(const struct booth_gpio_chip *chip);

/** Returns the chip's device path ("/dev/gpiochip0"). Valid while the chip is open. */
const char *booth_gpio_chip_get_path(const struct booth_gpio_chip *chip);

/** Returns the number of lines on the chip. */
unsigned int booth_gpio_chip_get_num_lines(const struct booth_gpio_chip *chip);

/**
 * Finds a line by name on this chip, e.g. "GPIO17".
 * @return The line offset, or -1 with errno set (ENOENT if no line has that name).
 */
int booth_gpio_chip_find_line(struct booth_gpio_chip *chip, const char *name);

/**
 * Reads what the kernel reports about one line.
 * @return 0 and fills info, or -1 with errno set (EINVAL if offset is out of range).
 */
int booth_gpio_chip_get_line_info(struct booth_gpio_chip *chip, unsigned int offset,
				  struct booth_gpio_line_info *info);

/**
 * Requests input lines with both-edge detection and output lines, all under one consumer.
 * libgpiod v2 makes one kernel request (one fd); v1 makes one request per line (one fd per
 * input). Nothing stays requested if this fails.
 * @param chip Chip to request from; must stay open until the request is released.
 * @param inputs Input lines; may be NULL if num_inputs is 0.
 * @param outputs Output lines; may be NULL if num_outputs is 0.
 * @param consumer Consumer name shown by gpioinfo, e.g. "heylook-booth".
 * @return A request to release with booth_gpio_request_release, or NULL with errno set
 *         (EBUSY: a line is held by another consumer; EACCES/EPERM: no permission;
 *         EINVAL: bad offset or no lines).
 */
struct booth_gpio_request *booth_gpio_request_lines(struct booth_gpio_chip *chip,
						   const struct booth_gpio_input_config *inputs,
						   size_t num_inputs,
						   const struct booth_gpio_output_config *outputs,
						   size_t num_outputs, const char *consumer);

/** Releases the lines of a request and frees it. NULL is ignored. */
void booth_gpio_request_release(struct booth_gpio_request *request);

/** Returns how many pollable fds the request has (v2: 1 if it has inputs; v1: one per input). */
size_t booth_gpio_request_get_num_fds(const struct booth_gpio_request *request);

/**
 * Returns a pollable fd (POLLIN when edge events are pending). Owned by the request: do not
 * close it. Returns -1 with errno EINVAL if index is out of range.
 */
int booth_gpio_request_get_fd(const struct booth_gpio_request *request, size_t index);

/**
 * Reads pending edge events without blocking.
 * @return The number of events stored in edges (0 if none are pending; at most max_edges),
 *         or -1 with errno set. Events of one input are in kernel order; with v1, events of
 *         different inputs are grouped by input.
 */
int booth_gpio_request_read_edges(struct booth_gpio_request *request,
				  struct booth_gpio_edge *edges, size_t max_edges);

/**
 * Reads the logical value of an input line now.
 * @return 0 or 1, or -1 with errno set (EINVAL if input_index is out of range).
 */
int booth_gpio_request_get_input_value(struct booth_gpio_request *request, size_t input_index);

/**
 * Sets the logical value of an output line.
 * @return 0, or -1 with errno set (EINVAL if output_index is out of range).
 */
int booth_gpio_request_set_output_value(struct booth_gpio_request *request, size_t output_index,
					int value);

#ifdef __cplusplus
}
#endif

#endif /* BOOTH_GPIO_H */
