/* booth_camera_open: listing the cameras, and opening one (configure, allocate, map, queue, start). */
#include "booth_camera_state.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/eventfd.h>

using namespace booth_shim;

namespace {

bool is_index(const char *selector)
{
	if (*selector == '\0')
		return false;
	for (const char *c = selector; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

std::string model_of(const std::shared_ptr<Camera> &camera)
{
	/* std::string before 0.6-ish, std::string_view after: construct either way. */
	auto model = camera->properties().get(properties::Model);
	return model ? std::string(*model) : std::string();
}

std::string ids_of(const std::vector<std::shared_ptr<Camera>> &cameras)
{
	std::string text;
	for (size_t i = 0; i < cameras.size(); i++)
		text += (i ? ", " : "") + std::to_string(i) + ": " + cameras[i]->id();
	return text;
}

Size largest_size(const StreamFormats &formats, const PixelFormat &format)
{
	Size best;
	for (const Size &size : formats.sizes(format))
		if ((uint64_t)size.width * size.height > (uint64_t)best.width * best.height)
			best = size;
	if (best.isNull())
		best = formats.range(format).max;
	return best;
}

void copy_text(char *destination, size_t capacity, const std::string &text)
{
	size_t length = std::min(capacity - 1, text.size());
	memcpy(destination, text.data(), length);
	destination[length] = '\0';
}

/* Configure, allocate, map, queue and start; on failure the state's destructor unwinds. */
int open_state(CameraState &state, const char *selector, const booth_camera_config *cfg)
{
	std::vector<std::shared_ptr<Camera>> cameras = state.camera_manager->cameras();
	std::shared_ptr<Camera> camera;

	if (is_index(selector)) {
		unsigned long index = strtoul(selector, nullptr, 10);
		if (index < cameras.size())
			camera = cameras[index];
	} else {
		camera = state.camera_manager->get(selector);
	}
	if (!camera) {
		fail(ENODEV, cameras.empty() ? "libcamera sees no cameras"
					     : "no camera \"" + std::string(selector) + "\"; libcamera sees " +
						       ids_of(cameras));
		return -1;
	}
	state.camera = camera;
	state.id = camera->id();
	state.model = model_of(camera);

	int ret = camera->acquire();
	if (ret < 0) {
		fail(-ret, "Camera::acquire(" + state.id + ")");
		return -1;
	}
	state.acquired = true;

	std::vector<StreamRole> roles{StreamRole::StillCapture};
	state.config = camera->generateConfiguration(roles);
	if (!state.config || state.config->size() != 1) {
		fail(EINVAL, "camera " + state.id + " offers no still-capture stream");
		return -1;
	}
	StreamConfiguration &stream_config = state.config->at(0);
	const StreamFormats &offered = stream_config.formats();
	/* Each offered format at its largest size; booth_camera_pick_mode chooses among them. */
	std::vector<PixelFormat> available = offered.pixelformats();
	std::vector<booth_camera_mode> largest;
	for (const PixelFormat &format : available) {
		booth_camera_mode mode{};
		Size size = largest_size(offered, format);
		copy_text(mode.pixel_format, sizeof(mode.pixel_format), format.toString());
		mode.width = size.width;
		mode.height = size.height;
		largest.push_back(mode);
	}
	int picked = booth_camera_pick_mode(largest.data(), largest.size());
	if (picked >= 0)
		stream_config.pixelFormat = available[picked];
	if (cfg->width == 0 || cfg->height == 0)
		stream_config.size = largest_size(offered, stream_config.pixelFormat);
	else
		stream_config.size = Size(cfg->width, cfg->height);
	stream_config.bufferCount = std::max(4u, cfg->buffer_count);

	if (state.config->validate() == CameraConfiguration::Invalid) {
		fail(EINVAL, "camera " + state.id + " rejected " + stream_config.toString());
		return -1;
	}
	state.pixel_format = booth_format(stream_config.pixelFormat);
	if (state.pixel_format == BOOTH_PIXEL_FORMAT_UNKNOWN) {
		fail(EINVAL, "camera " + state.id + " only streams " + stream_config.pixelFormat.toString() +
				     ", which the booth cannot encode (needs YUV420, NV12, BGR888, RGB888, YUYV or MJPEG)");
		return -1;
	}
	ret = camera->configure(state.config.get());
	if (ret < 0) {
		fail(-ret, "Camera::configure(" + stream_config.toString() + ")");
		return -1;
	}
	state.stream = stream_config.stream();
	state.width = stream_config.size.width;
	state.height = stream_config.size.height;
	state.stride = stream_config.stride;

	state.allocator = std::make_unique<FrameBufferAllocator>(camera);
	ret = state.allocator->allocate(state.stream);
	if (ret < 0) {
		fail(-ret, "FrameBufferAllocator::allocate");
		return -1;
	}
	for (const std::unique_ptr<FrameBuffer> &buffer : state.allocator->buffers(state.stream)) {
		if (state.map_buffer(buffer.get()) < 0)
			return -1;
		std::unique_ptr<Request> request = camera->createRequest();
		if (!request || request->addBuffer(state.stream, buffer.get()) < 0) {
			fail(ENOMEM, "could not create a capture request");
			return -1;
		}
		state.requests.push_back(std::move(request));
	}
	state.buffer_count = state.requests.size();
	if (state.buffer_count < 3) {
		fail(EINVAL, "camera " + state.id + " gave only " + std::to_string(state.buffer_count) +
				     " buffers; the booth needs at least 3");
		return -1;
	}

	state.event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (state.event_fd < 0) {
		fail(errno, "eventfd");
		return -1;
	}
	camera->requestCompleted.connect(&state, &CameraState::requestComplete);
	camera->disconnected.connect(&state, &CameraState::disconnect);
	state.connected = true;

	std::lock_guard<std::mutex> guard(state.control);
	ret = camera->start();
	if (ret < 0) {
		fail(-ret, "Camera::start(" + state.id + ")");
		return -1;
	}
	state.started = true;
	for (const std::unique_ptr<Request> &request : state.requests) {
		{
			std::lock_guard<std::mutex> queues(state.lock);
			state.in_flight++;
		}
		ret = camera->queueRequest(request.get());
		if (ret < 0) {
			fail(-ret, "Camera::queueRequest");
			return -1;
		}
	}
	return 0;
}

} /* namespace */

extern "C" {

int booth_camera_list(struct booth_camera_info **cameras, size_t *count)
{
	*cameras = nullptr;
	*count = 0;
	CameraManager *camera_manager = manager_acquire();
	if (!camera_manager)
		return -1;
	booth_camera_info *list = nullptr;
	size_t listed = 0;
	try {
		std::vector<std::shared_ptr<Camera>> found = camera_manager->cameras();
		if (!found.empty()) {
			list = static_cast<booth_camera_info *>(calloc(found.size(), sizeof(*list)));
			if (!list)
				throw std::bad_alloc();
		}
		for (; listed < found.size(); listed++) {
			booth_camera_info &info = list[listed];
			copy_text(info.id, sizeof(info.id), found[listed]->id());
			copy_text(info.model, sizeof(info.model), model_of(found[listed]));
			std::vector<StreamRole> roles{StreamRole::StillCapture};
			std::unique_ptr<CameraConfiguration> config = found[listed]->generateConfiguration(roles);
			if (!config || config->size() == 0)
				continue;
			std::vector<booth_camera_mode> modes;
			const StreamFormats &formats = config->at(0).formats();
			for (const PixelFormat &format : formats.pixelformats()) {
				std::vector<Size> sizes = formats.sizes(format);
				if (sizes.empty())
					sizes.push_back(formats.range(format).max);
				for (const Size &size : sizes) {
					booth_camera_mode mode{};
					copy_text(mode.pixel_format, sizeof(mode.pixel_format), format.toString());
					mode.width = size.width;
					mode.height = size.height;
					modes.push_back(mode);
				}
			}
			info.modes = static_cast<booth_camera_mode *>(calloc(modes.size() + 1, sizeof(booth_camera_mode)));
			if (!info.modes)
				throw std::bad_alloc();
			std::copy(modes.begin(), modes.end(), info.modes);
			info.mode_count = modes.size();
		}
	} catch (const std::bad_alloc &) {
		booth_camera_list_free(list, listed + (list ? 1 : 0));
		manager_release();
		fail(ENOMEM, "out of memory while listing cameras");
		return -1;
	}
	manager_release();
	*cameras = list;
	*count = listed;
	return 0;
}

void booth_camera_list_free(struct booth_camera_info *cameras, size_t count)
{
	if (!cameras)
		return;
	for (size_t i = 0; i < count; i++)
		free(cameras[i].modes);
	free(cameras);
}

struct booth_camera *booth_camera_open(const char *selector, const struct booth_camera_config *cfg)
{
	try {
		booth_camera_config defaults{};
		{
			std::lock_guard<std::mutex> guard(manager_lock);
			if (manager_stale) {
				fail(ESTALE, "a camera's device vanished while it streamed and libcamera was not told "
					     "(no udev remove event); libcamera cannot let go of it, so no camera can be "
					     "opened again in this process: restart the booth");
				return nullptr;
			}
		}
		auto state = std::make_shared<CameraState>();
		state->camera_manager = manager_acquire();
		if (!state->camera_manager)
			return nullptr;
		if (open_state(*state, selector ? selector : "0", cfg ? cfg : &defaults) < 0) {
			int error = errno;
			state.reset(); /* unwinds whatever was set up */
			errno = error;
			return nullptr;
		}
		error_detail.clear();
		return new booth_camera{std::move(state)};
	} catch (const std::bad_alloc &) {
		fail(ENOMEM, "out of memory while opening the camera");
		return nullptr;
	}
}

const char *booth_camera_error_detail(void)
{
	return error_detail.c_str();
}

} /* extern "C" */
