/* booth_gpio_v2: the booth_gpio API on libgpiod 2.x (one kernel request, one fd for all lines). */
#include "booth_gpio_internal.h"

#if BOOTH_GPIO_LIBGPIOD_V2

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/** Capacity of the edge event buffer read in one go. */
#define BOOTH_GPIO_EVENT_BUFFER_SIZE 64
/** Edges the kernel keeps for a request until they are read (its default is 16 a line): a bouncing
 * contact read late by a busy loop must not overflow it. */
#define BOOTH_GPIO_KERNEL_EVENT_BUFFER 256

/** v2 requests: one gpiod_line_request; offsets map indexes to lines. */
struct booth_gpio_request {
	struct gpiod_line_request *handle;
	struct gpiod_edge_event_buffer *buffer;
	unsigned int *input_offsets;
	size_t num_inputs;
	unsigned int *output_offsets;
	size_t num_outputs;
};

const char *booth_gpio_libgpiod_version(void)
{
	return gpiod_api_version();
}

bool booth_gpio_has_kernel_debounce(void)
{
	return true;
}

int booth_gpio_backend_chip_describe(struct booth_gpio_chip *chip)
{
	struct gpiod_chip_info *info;

	info = gpiod_chip_get_info(chip->handle);
	if (!info)
		return -1;
	booth_gpio_copy_string(chip->name, sizeof(chip->name), gpiod_chip_info_get_name(info));
	booth_gpio_copy_string(chip->label, sizeof(chip->label), gpiod_chip_info_get_label(info));
	chip->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
	gpiod_chip_info_free(info);
	return 0;
}

int booth_gpio_backend_find_line(struct booth_gpio_chip *chip, const char *name)
{
	return gpiod_chip_get_line_offset_from_name(chip->handle, name);
}

int booth_gpio_chip_get_line_info(struct booth_gpio_chip *chip, unsigned int offset,
				  struct booth_gpio_line_info *info)
{
	struct gpiod_line_info *line;

	line = gpiod_chip_get_line_info(chip->handle, offset);
	if (!line)
		return -1;
	memset(info, 0, sizeof(*info));
	info->offset = offset;
	booth_gpio_copy_string(info->name, sizeof(info->name), gpiod_line_info_get_name(line));
	booth_gpio_copy_string(info->consumer, sizeof(info->consumer),
			       gpiod_line_info_get_consumer(line));
	info->used = gpiod_line_info_is_used(line);
	info->direction = booth_gpio_direction(gpiod_line_info_get_direction(line));
	info->active_low = gpiod_line_info_is_active_low(line);
	gpiod_line_info_free(line);
	return 0;
}

static enum gpiod_line_bias line_bias(int bias)
{
	switch (bias) {
	case BOOTH_GPIO_BIAS_DISABLED:
		return GPIOD_LINE_BIAS_DISABLED;
	case BOOTH_GPIO_BIAS_PULL_UP:
		return GPIOD_LINE_BIAS_PULL_UP;
	case BOOTH_GPIO_BIAS_PULL_DOWN:
		return GPIOD_LINE_BIAS_PULL_DOWN;
	default:
		return GPIOD_LINE_BIAS_AS_IS;
	}
}

/* Fills settings for one input line; returns -1 with errno set on failure. */
static int input_settings(struct gpiod_line_settings *settings,
			  const struct booth_gpio_input_config *input)
{
	gpiod_line_settings_reset(settings);
	if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0 ||
	    gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) < 0 ||
	    gpiod_line_settings_set_bias(settings, line_bias(input->bias)) < 0 ||
	    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0)
		return -1;
	gpiod_line_settings_set_active_low(settings, input->active_low);
	gpiod_line_settings_set_debounce_period_us(settings, input->debounce_us);
	return 0;
}

/* Fills settings for one output line; returns -1 with errno set on failure. */
static int output_settings(struct gpiod_line_settings *settings,
			   const struct booth_gpio_output_config *output)
{
	gpiod_line_settings_reset(settings);
	if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) < 0 ||
	    gpiod_line_settings_set_output_value(settings, output->initial_value
								   ? GPIOD_LINE_VALUE_ACTIVE
								   : GPIOD_LINE_VALUE_INACTIVE) < 0)
		return -1;
	gpiod_line_settings_set_active_low(settings, output->active_low);
	return 0;
}

void booth_gpio_request_release(struct booth_gpio_request *request)
{
	if (!request)
		return;
	if (request->handle)
		gpiod_line_request_release(request->handle);
	gpiod_edge_event_buffer_free(request->buffer);
	free(request->input_offsets);
	free(request->output_offsets);
	free(request);
}

struct booth_gpio_request *booth_gpio_request_lines(struct booth_gpio_chip *chip,
						   const struct booth_gpio_input_config *inputs,
						   size_t num_inputs,
						   const struct booth_gpio_output_config *outputs,
						   size_t num_outputs, const char *consumer)
{
	struct gpiod_request_config *request_config = NULL;
	struct gpiod_line_settings *settings = NULL;
	struct gpiod_line_config *line_config = NULL;
	struct booth_gpio_request *request;
	int saved_errno;
	size_t i;

	if (booth_gpio_check_request(inputs, num_inputs, outputs, num_outputs) < 0)
		return NULL;
	request = calloc(1, sizeof(*request));
	if (!request)
		return NULL;
	request->input_offsets = calloc(num_inputs ? num_inputs : 1, sizeof(unsigned int));
	request->output_offsets = calloc(num_outputs ? num_outputs : 1, sizeof(unsigned int));
	request->buffer = gpiod_edge_event_buffer_new(BOOTH_GPIO_EVENT_BUFFER_SIZE);
	settings = gpiod_line_settings_new();
	line_config = gpiod_line_config_new();
	request_config = gpiod_request_config_new();
	if (!request->input_offsets || !request->output_offsets || !request->buffer ||
	    !settings || !line_config || !request_config)
		goto err_release;

	for (i = 0; i < num_inputs; i++) {
		request->input_offsets[i] = inputs[i].offset;
		if (input_settings(settings, &inputs[i]) < 0 ||
		    gpiod_line_config_add_line_settings(line_config, &inputs[i].offset, 1,
							settings) < 0)
			goto err_release;
	}
	request->num_inputs = num_inputs;
	for (i = 0; i < num_outputs; i++) {
		request->output_offsets[i] = outputs[i].offset;
		if (output_settings(settings, &outputs[i]) < 0 ||
		    gpiod_line_config_add_line_settings(line_config, &outputs[i].offset, 1,
							settings) < 0)
			goto err_release;
	}
	request->num_outputs = num_outputs;
	gpiod_request_config_set_consumer(request_config, consumer);
	gpiod_request_config_set_event_buffer_size(request_config, BOOTH_GPIO_KERNEL_EVENT_BUFFER);

	request->handle = gpiod_chip_request_lines(chip->handle, request_config, line_config);
	if (!request->handle)
		goto err_release;
	if (num_inputs > 0 && booth_gpio_set_nonblocking(gpiod_line_request_get_fd(request->handle)) < 0)
		goto err_release;

	gpiod_request_config_free(request_config);
	gpiod_line_config_free(line_config);
	gpiod_line_settings_free(settings);
	return request;

err_release:
	saved_errno = errno ? errno : ENOMEM;
	gpiod_request_config_free(request_config);
	gpiod_line_config_free(line_config);
	gpiod_line_settings_free(settings);
	booth_gpio_request_release(request);
	errno = saved_errno;
	return NULL;
}

size_t booth_gpio_request_get_num_fds(const struct booth_gpio_request *request)
{
	return request->num_inputs ? 1 : 0;
}

int booth_gpio_request_get_fd(const struct booth_gpio_request *request, size_t index)
{
	if (booth_gpio_check_index(index, booth_gpio_request_get_num_fds(request)) < 0)
		return -1;
	return gpiod_line_request_get_fd(request->handle);
}

/* Maps a line offset back to its index in the inputs array; -1 if it is not an input. */
static long input_index(const struct booth_gpio_request *request, unsigned int offset)
{
	size_t i;

	for (i = 0; i < request->num_inputs; i++)
		if (request->input_offsets[i] == offset)
			return (long)i;
	return -1;
}

int booth_gpio_request_read_edges(struct booth_gpio_request *request,
				  struct booth_gpio_edge *edges, size_t max_edges)
{
	struct gpiod_edge_event *event;
	size_t count = 0;
	size_t wanted;
	long index;
	int got;
	int j;

	if (request->num_inputs == 0)
		return 0;
	/* The descriptor is non-blocking: a read takes what the kernel holds, and one that took fewer than it asked for
	 * emptied it (no poll before or after: an edge's reaction waits for no extra system call). */
	while (count < max_edges) {
		wanted = max_edges - count;
		if (wanted > BOOTH_GPIO_EVENT_BUFFER_SIZE)
			wanted = BOOTH_GPIO_EVENT_BUFFER_SIZE;
		got = gpiod_line_request_read_edge_events(request->handle, request->buffer, wanted);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -1;
		}
		for (j = 0; j < got; j++) {
			event = gpiod_edge_event_buffer_get_event(request->buffer, (unsigned long)j);
			index = input_index(request, gpiod_edge_event_get_line_offset(event));
			if (index < 0)
				continue;
			edges[count].input_index = (size_t)index;
			edges[count].kind = gpiod_edge_event_get_event_type(event) ==
							    GPIOD_EDGE_EVENT_RISING_EDGE
						    ? BOOTH_GPIO_EDGE_RISING
						    : BOOTH_GPIO_EDGE_FALLING;
			edges[count].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
			count++;
		}
		if ((size_t)got < wanted)
			break;
	}
	return (int)count;
}

int booth_gpio_request_get_input_value(struct booth_gpio_request *request, size_t input_index)
{
	enum gpiod_line_value value;

	if (booth_gpio_check_index(input_index, request->num_inputs) < 0)
		return -1;
	value = gpiod_line_request_get_value(request->handle,
					     request->input_offsets[input_index]);
	if (value == GPIOD_LINE_VALUE_ERROR)
		return -1;
	return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int booth_gpio_request_set_output_value(struct booth_gpio_request *request, size_t output_index,
					int value)
{
	if (booth_gpio_check_index(output_index, request->num_outputs) < 0)
		return -1;
	return gpiod_line_request_set_value(request->handle,
					    request->output_offsets[output_index],
					    value ? GPIOD_LINE_VALUE_ACTIVE
						  : GPIOD_LINE_VALUE_INACTIVE);
}

#endif /* BOOTH_GPIO_LIBGPIOD_V2 */
