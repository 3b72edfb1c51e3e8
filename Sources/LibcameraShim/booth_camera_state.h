/* booth_camera_state: what an open camera owns, and the helpers the shim's files share (internal header). */
#ifndef BOOTH_CAMERA_STATE_H
#define BOOTH_CAMERA_STATE_H

#include "booth_camera.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

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

/* Shared by booth_camera_state.cpp (errors, the manager, mappings), booth_camera_open.cpp (listing and
 * opening) and booth_camera.cpp (capture and results). */
namespace booth_shim {

/* The calling thread's detail of its latest failure (booth_camera_error_detail). */
extern thread_local std::string error_detail;

/* Record a failure for booth_camera_error_detail and errno: the step that failed; the caller names errno. */
void fail(int error, const std::string &detail);

/* Whether a camera device node this process has open was removed (see its definition). */
bool camera_nodes_removed();

/* One CameraManager per process, shared by refcount; manager_lock also guards manager_stale. */
extern std::mutex manager_lock;
/* Set once a camera was abandoned (see booth_camera_close): the manager can never be replaced. */
extern bool manager_stale;
CameraManager *manager_acquire();
void manager_release();

/* The shim's pixel format for a libcamera one (BOOTH_PIXEL_FORMAT_UNKNOWN when the encoder has none). */
int booth_format(const PixelFormat &format);

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

} /* namespace booth_shim */

using booth_shim::Armed;
using booth_shim::BufferLayout;
using booth_shim::Mapping;

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

#endif /* BOOTH_CAMERA_STATE_H */
