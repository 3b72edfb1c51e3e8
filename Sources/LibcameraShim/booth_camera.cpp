/* booth_camera: libcamera behind a C ABI; the only code that includes libcamera (see booth_camera.h). */
#include "booth_camera.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libcamera/libcamera.h>

/*
 * API differences across libcamera releases, and how this file stays on the
 * common subset so it needs no version #ifs (checked by hand against the
 * 0.0.3 ... 0.7.1 headers; CI builds it against Debian 12's 0.0.3):
 * - StreamRoles alias gone in 0.1: generateConfiguration gets a std::vector,
 *   which converts to both the old alias and the newer Span.
 * - CameraConfiguration::transform became orientation in 0.2: not used (the
 *   booth rotates through EXIF orientation).
 * - CameraManager::get(dev_t) gone in 0.5: only get(std::string) is used.
 * - FrameMetadata::FrameStartup added in 0.5.2: any frame that is not
 *   FrameSuccess is requeued, never held.
 * - FrameBuffer::planes() is a Span since 0.6: only size() and [] are used.
 * - Request::metadata() is const since 0.7: metadata is only read.
 * - properties::Model became a string_view: converted explicitly.
 */
using namespace libcamera;

namespace {

thread_local std::string error_detail;

/* Record a failure for booth_camera_error_detail and errno. */
void fail(int error, const std::string &detail)
{
	error_detail = detail;
	errno = error;
}

std::string errno_text(int error)
{
	return std::string(strerror(error));
}

/*
 * Whether a camera device node this process has open was removed (its /proc/self/fd link reads
 * "/dev/video2 (deleted)"): the driver went away. libcamera only learns that through a udev remove
 * event; without one (no udevd) Camera::stop() cannot return the buffers the dead device holds and
 * aborts the process (0.0.3: assertion "data->queuedRequests_.empty()" failed in stop()).
 */
bool camera_nodes_removed()
{
	DIR *fds = opendir("/proc/self/fd");
	if (!fds)
		return false;
	bool removed = false;
	while (struct dirent *entry = readdir(fds)) {
		char link[64], target[256];
		snprintf(link, sizeof(link), "/proc/self/fd/%s", entry->d_name);
		ssize_t length = readlink(link, target, sizeof(target) - 1);
		if (length <= 0)
			continue;
		std::string path(target, (size_t)length);
		bool camera_node = path.rfind("/dev/video", 0) == 0 || path.rfind("/dev/media", 0) == 0 ||
				   path.rfind("/dev/v4l-subdev", 0) == 0;
		const std::string deleted = " (deleted)";
		if (camera_node && path.size() > deleted.size() &&
		    path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0)
			removed = true;
	}
	closedir(fds);
	return removed;
}

/* ---- One CameraManager per process, shared by refcount. ---- */

std::mutex manager_lock;
/* Raw, so that a manager left with an abandoned camera is never destroyed, not even at exit. */
CameraManager *manager = nullptr;
int manager_users = 0;
/* Set once a camera was abandoned (see booth_camera_close): the manager can never be replaced. */
bool manager_stale = false;

CameraManager *manager_acquire()
{
	std::lock_guard<std::mutex> guard(manager_lock);

	if (manager_users == 0) {
		/* libcamera logs INFO to stderr by default; keep the booth's log readable
		 * unless the operator asked for more. */
		setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0);
		auto created = std::make_unique<CameraManager>();
		int ret = created->start();
		if (ret < 0) {
			fail(-ret, "libcamera CameraManager::start failed: " + errno_text(-ret));
			return nullptr;
		}
		manager = created.release();
	}
	manager_users++;
	return manager;
}

void manager_release()
{
	std::lock_guard<std::mutex> guard(manager_lock);

	if (--manager_users == 0) {
		manager->stop();
		delete manager;
		manager = nullptr;
	}
}

/* ---- Pixel formats ---- */

int booth_format(const PixelFormat &format)
{
	if (format == formats::YUV420)
		return BOOTH_PIXEL_FORMAT_YUV420;
	if (format == formats::NV12)
		return BOOTH_PIXEL_FORMAT_NV12;
	if (format == formats::BGR888) /* bytes R, G, B */
		return BOOTH_PIXEL_FORMAT_RGB24;
	if (format == formats::RGB888) /* bytes B, G, R */
		return BOOTH_PIXEL_FORMAT_BGR24;
	return BOOTH_PIXEL_FORMAT_UNKNOWN;
}

/* Formats the encoder takes, best first: YUV420 needs no conversion at all. */
const std::array<PixelFormat, 4> preferred_formats = {formats::YUV420, formats::NV12,
						      formats::BGR888, formats::RGB888};

struct Armed {
	uint64_t trigger_ns;
	uint64_t cookie;
};

/* Where a buffer's planes are mapped. */
struct BufferLayout {
	uint32_t count = 0;
	std::array<booth_frame_plane, 3> planes{};
};

struct Mapping {
	void *address;
	size_t length;
};

} /* namespace */

/*
 * Everything an open camera owns. booth_camera and every held booth_frame
 * share it, so buffers stay mapped until the last frame is released.
 */
struct CameraState {
	CameraManager *camera_manager = nullptr;
	std::shared_ptr<Camera> camera;
	bool acquired = false;
	bool connected = false;
	std::unique_ptr<CameraConfiguration> config;
	std::unique_ptr<FrameBufferAllocator> allocator;
	Stream *stream = nullptr;
	std::vector<std::unique_ptr<Request>> requests;
	std::map<const FrameBuffer *, BufferLayout> layouts;
	std::vector<Mapping> mappings;
	std::string id, model;
	int pixel_format = BOOTH_PIXEL_FORMAT_UNKNOWN;
	uint32_t width = 0, height = 0, stride = 0;
	unsigned buffer_count = 0;
	int event_fd = -1;
	/* The owner thread's: the latest completed frame's Lux metadata, -1 if none. */
	float latest_lux = -1.0f;

	/* Serializes start/stop/queueRequest between the owner and frame releasers.
	 * Never taken by libcamera-thread callbacks, so stop() cannot deadlock. */
	std::mutex control;
	bool started = false;

	/* Guards the queues below; the only lock callbacks take. */
	std::mutex lock;
	std::deque<Request *> completed;
	std::deque<Armed> armed;
	std::deque<booth_camera_result> ready;
	/* Idle pacing (booth_camera_set_idle): requests drained while idle wait here, and how many
	 * requests the camera has (queued, not yet completed). */
	std::deque<Request *> parked;
	bool idle = false;
	unsigned in_flight = 0;
	bool gone = false;
	bool gone_reported = false;
	bool closing = false;
	unsigned held = 0;

	~CameraState();

	/* libcamera thread: queue and signal, nothing else. */
	void requestComplete(Request *request)
	{
		std::lock_guard<std::mutex> guard(lock);
		completed.push_back(request);
		if (in_flight > 0)
			in_flight--;
		/* Idle: one wake-up per burst, when the camera has nothing left. */
		if (!idle || in_flight == 0 || request->status() == Request::RequestCancelled)
			signal();
	}

	/* libcamera thread: the camera was unplugged. */
	void disconnect()
	{
		std::lock_guard<std::mutex> guard(lock);
		gone = true;
		signal();
	}

	void signal()
	{
		uint64_t one = 1;
		ssize_t written = write(event_fd, &one, sizeof(one));
		(void)written; /* EAGAIN only when the counter is saturated: still readable */
	}

	/* Give a request back to the camera unless it is stopping or gone. */
	void requeue(Request *request)
	{
		std::lock_guard<std::mutex> guard(control);
		{
			std::lock_guard<std::mutex> queues(lock);
			if (!started || closing || gone)
				return;
		}
		request->reuse(Request::ReuseBuffers);
		{
			std::lock_guard<std::mutex> queues(lock);
			in_flight++;
		}
		int ret = camera->queueRequest(request);
		if (ret < 0) {
			{
				std::lock_guard<std::mutex> queues(lock);
				in_flight--;
			}
			/* A buffer that cannot go back starves the stream: report the camera as
			 * gone so the owner reopens it. */
			std::lock_guard<std::mutex> queues(lock);
			gone = true;
			signal();
		}
	}

	int map_buffer(const FrameBuffer *buffer);
};

struct booth_camera {
	std::shared_ptr<CameraState> state;
};

struct booth_frame {
	std::shared_ptr<CameraState> state;
	Request *request;
};

CameraState::~CameraState()
{
	if (started)
		camera->stop();
	if (connected) {
		camera->requestCompleted.disconnect(this);
		camera->disconnected.disconnect(this);
	}
	requests.clear();
	for (const Mapping &mapping : mappings)
		munmap(mapping.address, mapping.length);
	if (allocator && stream)
		allocator->free(stream);
	allocator.reset();
	config.reset();
	if (acquired)
		camera->release();
	camera.reset();
	if (event_fd >= 0)
		close(event_fd);
	if (camera_manager)
		manager_release();
}

/* mmap a buffer read-only (each dmabuf once) and work out its plane pointers. */
int CameraState::map_buffer(const FrameBuffer *buffer)
{
	const auto &planes = buffer->planes();
	std::map<int, size_t> extent;
	std::map<int, const uint8_t *> base;

	for (size_t i = 0; i < planes.size(); i++) {
		size_t offset = planes[i].offset == FrameBuffer::Plane::kInvalidOffset ? 0 : planes[i].offset;
		size_t &end = extent[planes[i].fd.get()];
		end = std::max(end, offset + planes[i].length);
	}
	for (const auto &[fd, length] : extent) {
		void *address = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
		if (address == MAP_FAILED) {
			int error = errno;
			fail(error, "mmap of a camera buffer failed: " + errno_text(error));
			return -1;
		}
		mappings.push_back({address, length});
		base[fd] = static_cast<const uint8_t *>(address);
	}

	std::vector<booth_buffer_plane> described;
	for (size_t i = 0; i < planes.size(); i++) {
		size_t offset = planes[i].offset == FrameBuffer::Plane::kInvalidOffset ? 0 : planes[i].offset;
		described.push_back({base[planes[i].fd.get()], offset, planes[i].length});
	}
	BufferLayout layout;
	const char *problem = "";
	int count = booth_camera_layout(pixel_format, width, height, stride, described.data(), described.size(),
					layout.planes.data(), &problem);
	if (count < 0) {
		fail(EINVAL, problem);
		return -1;
	}
	layout.count = (uint32_t)count;
	layouts[buffer] = layout;
	return 0;
}

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
		fail(-ret, "Camera::acquire(" + state.id + "): " + errno_text(-ret));
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
	auto available = offered.pixelformats();
	auto chosen = std::find_first_of(preferred_formats.begin(), preferred_formats.end(),
					 available.begin(), available.end());
	if (chosen != preferred_formats.end())
		stream_config.pixelFormat = *chosen;
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
				     ", which the booth cannot encode (needs YUV420, NV12, BGR888 or RGB888)");
		return -1;
	}
	ret = camera->configure(state.config.get());
	if (ret < 0) {
		fail(-ret, "Camera::configure(" + stream_config.toString() + "): " + errno_text(-ret));
		return -1;
	}
	state.stream = stream_config.stream();
	state.width = stream_config.size.width;
	state.height = stream_config.size.height;
	state.stride = stream_config.stride;

	state.allocator = std::make_unique<FrameBufferAllocator>(camera);
	ret = state.allocator->allocate(state.stream);
	if (ret < 0) {
		fail(-ret, "FrameBufferAllocator::allocate: " + errno_text(-ret));
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
		fail(errno, "eventfd: " + errno_text(errno));
		return -1;
	}
	camera->requestCompleted.connect(&state, &CameraState::requestComplete);
	camera->disconnected.connect(&state, &CameraState::disconnect);
	state.connected = true;

	std::lock_guard<std::mutex> guard(state.control);
	ret = camera->start();
	if (ret < 0) {
		fail(-ret, "Camera::start(" + state.id + "): " + errno_text(-ret));
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
			fail(-ret, "Camera::queueRequest: " + errno_text(-ret));
			return -1;
		}
	}
	return 0;
}

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

const char *booth_camera_error_detail(void)
{
	return error_detail.c_str();
}

} /* extern "C" */
