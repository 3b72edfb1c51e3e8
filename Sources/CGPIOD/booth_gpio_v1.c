/* booth_gpio_v1: the booth_gpio API on libgpiod 1.6.x (one kernel request, one fd per line). */
#include "booth_gpio_internal.h"

#if BOOTH_GPIO_LIBGPIOD_V1

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/** v1 requests: one gpiod_line per input (each with its event fd) and per output. */
struct booth_gpio_request {
	struct gpiod_line **inputs;
	int *fds;
	size_t num_inputs;
	struct gpiod_line **outputs;
	size_t num_outputs;
};

const char *booth_gpio_libgpiod_version(void)
{
	return gpiod_version_string();
}

bool booth_gpio_has_kernel_debounce(void)
{
	return false;
}

int booth_gpio_backend_chip_describe(struct booth_gpio_chip *chip)
{
	booth_gpio_copy_string(chip->name, sizeof(chip->name), gpiod_chip_name(chip->handle));
	booth_gpio_copy_string(chip->label, sizeof(chip->label), gpiod_chip_label(chip->handle));
	chip->num_lines = gpiod_chip_num_lines(chip->handle);
	return 0;
}

int booth_gpio_backend_find_line(struct booth_gpio_chip *chip, const char *name)
{
	struct gpiod_line *line;

	line = gpiod_chip_find_line(chip->handle, name);
	if (!line)
		return -1;
	return (int)gpiod_line_offset(line);
}

int booth_gpio_chip_get_line_info(struct booth_gpio_chip *chip, unsigned int offset,
				  struct booth_gpio_line_info *info)
{
	struct gpiod_line *line;

	line = gpiod_chip_get_line(chip->handle, offset);
	if (!line)
		return -1;
	if (!gpiod_line_is_requested(line) && gpiod_line_update(line) < 0)
		return -1;
	memset(info, 0, sizeof(*info));
	info->offset = offset;
	booth_gpio_copy_string(info->name, sizeof(info->name), gpiod_line_name(line));
	booth_gpio_copy_string(info->consumer, sizeof(info->consumer), gpiod_line_consumer(line));
	info->used = gpiod_line_is_used(line);
	info->direction = booth_gpio_direction(gpiod_line_direction(line));
	info->active_low = gpiod_line_active_state(line) == GPIOD_LINE_ACTIVE_STATE_LOW;
	return 0;
}

static int bias_flags(int bias)
{
	switch (bias) {
	case BOOTH_GPIO_BIAS_DISABLED:
		return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
	case BOOTH_GPIO_BIAS_PULL_UP:
		return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
	case BOOTH_GPIO_BIAS_PULL_DOWN:
		return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
	default:
		return 0;
	}
}

void booth_gpio_request_release(struct booth_gpio_request *request)
{
	size_t i;

	if (!request)
		return;
	for (i = 0; i < request->num_inputs; i++)
		if (request->inputs[i])
			gpiod_line_release(request->inputs[i]);
	for (i = 0; i < request->num_outputs; i++)
		if (request->outputs[i])
			gpiod_line_release(request->outputs[i]);
	free(request->inputs);
	free(request->fds);
	free(request->outputs);
	free(request);
}

struct booth_gpio_request *booth_gpio_request_lines(struct booth_gpio_chip *chip,
						   const struct booth_gpio_input_config *inputs,
						   size_t num_inputs,
						   const struct booth_gpio_output_config *outputs,
						   size_t num_outputs, const char *consumer)
{
	struct gpiod_line_request_config config;
	struct booth_gpio_request *request;
	struct gpiod_line *line;
	int saved_errno;
	size_t i;

	if (booth_gpio_check_request(inputs, num_inputs, outputs, num_outputs) < 0)
		return NULL;
	request = calloc(1, sizeof(*request));
	if (!request)
		return NULL;
	request->inputs = calloc(num_inputs ? num_inputs : 1, sizeof(*request->inputs));
	request->fds = calloc(num_inputs ? num_inputs : 1, sizeof(*request->fds));
	request->outputs = calloc(num_outputs ? num_outputs : 1, sizeof(*request->outputs));
	if (!request->inputs || !request->fds || !request->outputs)
		goto err_release;

	for (i = 0; i < num_inputs; i++) {
		line = gpiod_chip_get_line(chip->handle, inputs[i].offset);
		if (!line)
			goto err_release;
		memset(&config, 0, sizeof(config));
		config.consumer = consumer;
		config.request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
		config.flags = bias_flags(inputs[i].bias);
		if (inputs[i].active_low)
			config.flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
		if (gpiod_line_request(line, &config, 0) < 0)
			goto err_release;
		request->inputs[i] = line;
		request->num_inputs = i + 1;
		request->fds[i] = gpiod_line_event_get_fd(line);
		if (request->fds[i] < 0 || booth_gpio_set_nonblocking(request->fds[i]) < 0)
			goto err_release;
	}
	for (i = 0; i < num_outputs; i++) {
		line = gpiod_chip_get_line(chip->handle, outputs[i].offset);
		if (!line)
			goto err_release;
		memset(&config, 0, sizeof(config));
		config.consumer = consumer;
		config.request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
		if (outputs[i].active_low)
			config.flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
		if (gpiod_line_request(line, &config, outputs[i].initial_value ? 1 : 0) < 0)
			goto err_release;
		request->outputs[i] = line;
		request->num_outputs = i + 1;
	}
	return request;

err_release:
	saved_errno = errno;
	booth_gpio_request_release(request);
	errno = saved_errno;
	return NULL;
}

size_t booth_gpio_request_get_num_fds(const struct booth_gpio_request *request)
{
	return request->num_inputs;
}

int booth_gpio_request_get_fd(const struct booth_gpio_request *request, size_t index)
{
	if (booth_gpio_check_index(index, request->num_inputs) < 0)
		return -1;
	return request->fds[index];
}

int booth_gpio_request_read_edges(struct booth_gpio_request *request,
				  struct booth_gpio_edge *edges, size_t max_edges)
{
	struct gpiod_line_event events[16];
	struct booth_gpio_edge *edge;
	size_t count = 0;
	size_t wanted;
	size_t i;
	int got;
	int j;

	/* Each descriptor is non-blocking: a read takes what the kernel holds, and one that took fewer than it asked
	 * for emptied it (no poll before or after). */
	for (i = 0; i < request->num_inputs && count < max_edges; i++) {
		while (count < max_edges) {
			wanted = max_edges - count;
			if (wanted > 16)
				wanted = 16;
			got = gpiod_line_event_read_fd_multiple(request->fds[i], events,
								(unsigned int)wanted);
			if (got < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN || errno == EWOULDBLOCK)
					break;
				return -1;
			}
			for (j = 0; j < got; j++) {
				edge = &edges[count++];
				edge->input_index = i;
				edge->kind = events[j].event_type == GPIOD_LINE_EVENT_RISING_EDGE
						     ? BOOTH_GPIO_EDGE_RISING
						     : BOOTH_GPIO_EDGE_FALLING;
				edge->timestamp_ns = (uint64_t)events[j].ts.tv_sec * 1000000000ULL +
						     (uint64_t)events[j].ts.tv_nsec;
			}
			if ((size_t)got < wanted)
				break;
		}
	}
	return (int)count;
}

int booth_gpio_request_get_input_value(struct booth_gpio_request *request, size_t input_index)
{
	if (booth_gpio_check_index(input_index, request->num_inputs) < 0)
		return -1;
	return gpiod_line_get_value(request->inputs[input_index]);
}

int booth_gpio_request_set_output_value(struct booth_gpio_request *request, size_t output_index,
					int value)
{
	if (booth_gpio_check_index(output_index, request->num_outputs) < 0)
		return -1;
	return gpiod_line_set_value(request->outputs[output_index], value ? 1 : 0);
}

#endif /* BOOTH_GPIO_LIBGPIOD_V1 */
