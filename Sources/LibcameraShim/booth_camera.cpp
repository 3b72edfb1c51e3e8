/* booth_camera: capture requests, results and frames of an open camera, and closing it (see booth_camera.h). */
#include "booth_camera_state.h"

#include <algorithm>
#include <cerrno>

using namespace booth_shim;

namespace {

/* Fill a result for a held frame from its request's metadata and mapping. */
void describe(const CameraState &state, Request *request, const FrameBuffer *buffer, uint64_t timestamp,
	      bool from_sensor, booth_camera_result *out)
{
	const ControlList &metadata = request->metadata();
	const BufferLayout &layout = state.layouts.at(buffer);

	out->status = BOOTH_CAMERA_RESULT_OK;
	out->sensor_timestamp_ns = timestamp;
	out->timestamp_is_sensor = from_sensor;
	out->sequence = buffer->metadata().sequence;
	out->exposure_us = metadata.get(controls::ExposureTime).value_or(-1);
	out->analogue_gain = metadata.get(controls::AnalogueGain).value_or(-1.0f);
	out->lux = metadata.get(controls::Lux).value_or(-1.0f);
	out->pixel_format = state.pixel_format;
	out->width = state.width;
	out->height = state.height;
	out->plane_count = layout.count;
	for (uint32_t i = 0; i < layout.count; i++)
		out->planes[i] = layout.planes[i];
	if (state.pixel_format == BOOTH_PIXEL_FORMAT_MJPEG && !buffer->metadata().planes().empty()) {
		/* The JPEG fills only the start of its buffer: the rest is the last frame's tail, or nothing. */
		size_t used = std::min<size_t>(out->planes[0].length, buffer->metadata().planes()[0].bytesused);
		out->planes[0].length = used;
		out->planes[0].stride = used;
	}
}

booth_camera_result status_result(int status, const Armed &armed)
{
	booth_camera_result result{};
	result.status = status;
	result.cookie = armed.cookie;
	result.trigger_ns = armed.trigger_ns;
	return result;
}

} /* namespace */

extern "C" {

const char *booth_camera_id(const struct booth_camera *camera)
{
	return camera->state->id.c_str();
}

const char *booth_camera_model(const struct booth_camera *camera)
{
	return camera->state->model.c_str();
}

int booth_camera_event_fd(const struct booth_camera *camera)
{
	return camera->state->event_fd;
}

int booth_camera_capture(struct booth_camera *camera, uint64_t trigger_ns, uint64_t cookie)
{
	CameraState &state = *camera->state;
	std::lock_guard<std::mutex> guard(state.lock);

	if (state.gone) {
		fail(ENODEV, "camera " + state.id + " is gone");
		return -1;
	}
	try {
		state.armed.push_back({trigger_ns, cookie});
	} catch (const std::bad_alloc &) {
		fail(ENOMEM, "out of memory");
		return -1;
	}
	return 0;
}

int booth_camera_expire(struct booth_camera *camera, uint64_t now_ns, uint64_t timeout_ns)
{
	CameraState &state = *camera->state;
	std::lock_guard<std::mutex> guard(state.lock);
	int expired = 0;

	for (auto it = state.armed.begin(); it != state.armed.end();) {
		if (now_ns > it->trigger_ns && now_ns - it->trigger_ns > timeout_ns) {
			state.ready.push_back(status_result(BOOTH_CAMERA_RESULT_TIMEOUT, *it));
			it = state.armed.erase(it);
			expired++;
		} else {
			++it;
		}
	}
	if (expired)
		state.signal();
	return expired;
}

int booth_camera_set_idle(struct booth_camera *camera, int idle)
{
	CameraState &state = *camera->state;
	{
		std::lock_guard<std::mutex> guard(state.lock);
		state.idle = idle != 0;
		if (state.idle)
			return 0;
	}
	return booth_camera_resume(camera, INT32_MAX);
}

int booth_camera_resume(struct booth_camera *camera, int count)
{
	CameraState &state = *camera->state;
	int resumed = 0;
	while (resumed < count) {
		Request *request;
		{
			std::lock_guard<std::mutex> guard(state.lock);
			if (state.parked.empty())
				break;
			request = state.parked.front();
			state.parked.pop_front();
		}
		state.requeue(request);
		resumed++;
	}
	return resumed;
}

float booth_camera_latest_lux(const struct booth_camera *camera)
{
	return camera->state->latest_lux;
}

int booth_camera_next_result(struct booth_camera *camera, struct booth_camera_result *out)
{
	CameraState &state = *camera->state;
	uint64_t counter;

	/* Reset the eventfd first: a completion after this point signals it again. */
	while (read(state.event_fd, &counter, sizeof(counter)) == sizeof(counter)) {
	}

	for (;;) {
		std::unique_lock<std::mutex> guard(state.lock);

		if (!state.ready.empty()) {
			*out = state.ready.front();
			state.ready.pop_front();
			return 1;
		}
		if (state.gone && !state.gone_reported) {
			state.gone_reported = true;
			if (state.armed.empty())
				state.ready.push_back(status_result(BOOTH_CAMERA_RESULT_CAMERA_GONE, {0, 0}));
			for (const Armed &armed : state.armed)
				state.ready.push_back(status_result(BOOTH_CAMERA_RESULT_CAMERA_GONE, armed));
			state.armed.clear();
			continue;
		}
		if (state.completed.empty())
			return 0;

		Request *request = state.completed.front();
		state.completed.pop_front();
		if (request->status() == Request::RequestCancelled || state.closing || state.gone)
			continue; /* the camera is stopping; the request is not requeued */

		const FrameBuffer *buffer = request->findBuffer(state.stream);
		bool success = request->status() == Request::RequestComplete && buffer &&
			       buffer->metadata().status == FrameMetadata::FrameSuccess;
		if (success)
			state.latest_lux = request->metadata().get(controls::Lux).value_or(-1.0f);
		if (success && !state.armed.empty() && state.held + 2 < state.buffer_count) {
			std::optional<int64_t> sensor = request->metadata().get(controls::SensorTimestamp);
			uint64_t timestamp = sensor ? (uint64_t)*sensor : buffer->metadata().timestamp;
			auto match = std::find_if(state.armed.begin(), state.armed.end(),
						  [&](const Armed &armed) { return armed.trigger_ns <= timestamp; });
			if (match != state.armed.end()) {
				Armed armed = *match;
				state.armed.erase(match);
				state.held++;
				guard.unlock();
				*out = status_result(BOOTH_CAMERA_RESULT_OK, armed);
				describe(state, request, buffer, timestamp, sensor.has_value(), out);
				out->frame = new (std::nothrow) booth_frame{camera->state, request};
				if (!out->frame) {
					guard.lock();
					state.held--;
					guard.unlock();
					state.requeue(request);
					*out = status_result(BOOTH_CAMERA_RESULT_FAILED, armed);
				}
				return 1;
			}
		}
		if (state.idle && state.armed.empty()) {
			state.parked.push_back(request); /* back with booth_camera_resume */
			continue;
		}
		guard.unlock();
		state.requeue(request);
	}
}

void booth_frame_release(struct booth_frame *frame)
{
	if (!frame)
		return;
	std::shared_ptr<CameraState> state = std::move(frame->state);
	Request *request = frame->request;
	delete frame;
	{
		std::lock_guard<std::mutex> guard(state->lock);
		state->held--;
	}
	state->requeue(request);
	/* If the camera was closed, dropping `state` here unmaps and releases it. */
}

void booth_camera_close(struct booth_camera *camera)
{
	if (!camera)
		return;
	std::shared_ptr<CameraState> state = std::move(camera->state);
	delete camera;
	{
		std::lock_guard<std::mutex> guard(state->lock);
		state->closing = true;
		state->armed.clear();
	}
	{
		std::lock_guard<std::mutex> guard(state->control);
		bool gone;
		{
			std::lock_guard<std::mutex> queues(state->lock);
			gone = state->gone;
		}
		if (state->started && !gone && camera_nodes_removed()) {
			/* Neither stoppable nor destroyable (see camera_nodes_removed; tearing its pipeline
			 * down also ends in std::terminate): abandon it, and its manager, for good. */
			static auto *abandoned = new std::vector<std::shared_ptr<CameraState>>();
			std::lock_guard<std::mutex> managers(manager_lock);
			abandoned->push_back(state);
			manager_stale = true;
		} else if (state->started) {
			state->camera->stop(); /* cancels queued requests through requestComplete */
			state->started = false;
		}
	}
	std::lock_guard<std::mutex> guard(state->lock);
	state->completed.clear();
	state->ready.clear();
}

} /* extern "C" */
