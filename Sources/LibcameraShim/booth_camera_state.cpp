/* booth_camera_state: errors, the shared CameraManager, and mapping an open camera's buffers. */
#include "booth_camera_state.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <dirent.h>
#include <sys/mman.h>

namespace booth_shim {

thread_local std::string error_detail;

/* Record a failure for booth_camera_error_detail and errno. */
void fail(int error, const std::string &detail)
{
	error_detail = detail;
	errno = error;
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
			fail(-ret, "libcamera CameraManager::start");
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
	if (format == formats::YUYV)
		return BOOTH_PIXEL_FORMAT_YUYV;
	if (format == formats::MJPEG)
		return BOOTH_PIXEL_FORMAT_MJPEG;
	return BOOTH_PIXEL_FORMAT_UNKNOWN;
}

} /* namespace booth_shim */

using namespace booth_shim;

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
			fail(error, "mmap of a camera buffer");
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
