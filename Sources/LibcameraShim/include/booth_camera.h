/*
 * booth_camera: the booth's only door to libcamera, as a small C API.
 *
 * Threading (rpicam-apps style): libcamera completes requests on its own
 * thread; the shim's callbacks only queue the request and write an eventfd.
 * Everything else happens when the owner calls booth_camera_next_result from
 * its event loop. booth_frame_release may be called from any thread.
 *
 * Errors: functions return NULL or -1 and set errno; booth_camera_error_detail
 * then names the step that failed in words (thread-local), never errno's own text.
 *
 * Clocks: timestamps are nanoseconds of CLOCK_MONOTONIC as V4L2 reports them
 * (libcamera documents CLOCK_BOOTTIME; the two only differ after a suspend).
 */
#ifndef BOOTH_CAMERA_H
#define BOOTH_CAMERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An open, streaming camera. Opaque; close with booth_camera_close. */
struct booth_camera;
/** A captured frame held out of the camera's buffer rotation. Opaque. */
struct booth_frame;

/** Pixel layouts the shim configures and maps. */
enum booth_pixel_format {
	BOOTH_PIXEL_FORMAT_UNKNOWN = 0,
	/** I420: planes Y, U, V; chroma is half size, chroma stride = stride / 2. */
	BOOTH_PIXEL_FORMAT_YUV420 = 1,
	/** Planes Y and interleaved UV; both with the same stride. */
	BOOTH_PIXEL_FORMAT_NV12 = 2,
	/** Packed bytes R, G, B (libcamera BGR888). */
	BOOTH_PIXEL_FORMAT_RGB24 = 3,
	/** Packed bytes B, G, R (libcamera RGB888). */
	BOOTH_PIXEL_FORMAT_BGR24 = 4,
	/** Packed 4:2:2, bytes Y0, U, Y1, V per pair of pixels (a USB webcam's YUYV). */
	BOOTH_PIXEL_FORMAT_YUYV = 5,
	/** One compressed JPEG per frame (a USB webcam's MJPEG); its one plane is the frame's bytes, stride = length. */
	BOOTH_PIXEL_FORMAT_MJPEG = 6,
};

/** One size a camera offers for still capture in one pixel format. */
struct booth_camera_mode {
	/** libcamera's name for the pixel format, e.g. "YUV420". */
	char pixel_format[32];
	uint32_t width, height;
};

/** A camera as booth_camera_list reports it. */
struct booth_camera_info {
	/** libcamera's stable id, e.g. "/base/soc/i2c0mux/i2c@1/imx708@1a". */
	char id[256];
	/** Sensor model from the camera properties, e.g. "imx708"; "" if unknown. */
	char model[64];
	/** Still-capture modes; owned by the list. */
	struct booth_camera_mode *modes;
	size_t mode_count;
};

/** How to open a camera. Zero-initialize, then set what matters. */
struct booth_camera_config {
	/** Requested size; 0 x 0 = the largest still-capture size. May be adjusted. */
	uint32_t width, height;
	/** Buffers to allocate; values below 4 mean 4. */
	uint32_t buffer_count;
};

/** What a result reports. */
enum booth_camera_status {
	/** `frame` holds the captured frame. */
	BOOTH_CAMERA_RESULT_OK = 0,
	/** The capture could not be completed (e.g. its buffer could not be mapped). */
	BOOTH_CAMERA_RESULT_FAILED = 1,
	/** The camera was unplugged or its driver went away; no more frames will come. */
	BOOTH_CAMERA_RESULT_CAMERA_GONE = 2,
	/** booth_camera_expire gave up on the capture. */
	BOOTH_CAMERA_RESULT_TIMEOUT = 3,
};

/** One mapped plane of a held frame; valid until booth_frame_release. */
struct booth_frame_plane {
	const uint8_t *data;
	size_t length;
	size_t stride;
};

/** One plane of a camera buffer as libcamera describes it: its dmabuf's mapped address, where in it the
 * plane starts and how long it is. */
struct booth_buffer_plane {
	const uint8_t *base;
	size_t offset;
	size_t length;
};

/**
 * Where each color plane of a `format` frame (width x height, `stride` bytes a luma or RGB row) lies:
 * from one buffer plane per color plane, or from one holding them all back to back (as a Pi's camera
 * delivers YUV420: Y, then U and V at half the stride). Fills out[0 .. count) and returns the count, or
 * -1 with errno EINVAL and *problem set when the planes do not fit the format (too few bytes, a plane
 * count the format does not have). Pure arithmetic: booth_camera uses it for every buffer it maps, and
 * the tests feed it synthetic buffers of every format a Pi delivers.
 */
int booth_camera_layout(int format, uint32_t width, uint32_t height, uint32_t stride,
			const struct booth_buffer_plane *planes, size_t plane_count,
			struct booth_frame_plane out[3], const char **problem);

/**
 * Which of a camera's offered still `modes` (each format's largest size) to stream: the largest picture
 * among the formats the booth takes, and of equal sizes the one needing least work (YUV420, NV12, BGR888,
 * RGB888, YUYV, then MJPEG, which is decoded first). A webcam that streams YUYV only up to 1280x720 but MJPEG
 * at 1920x1080 gives its 1920x1080. Returns the chosen mode's index, or -1 when none is a format the booth
 * takes. Pure: booth_camera_open uses it, and the tests feed it what webcams offer.
 */
int booth_camera_pick_mode(const struct booth_camera_mode *modes, size_t count);

/** The outcome of one capture (or of the camera going away). */
struct booth_camera_result {
	/** A value of enum booth_camera_status. */
	int status;
	/** The cookie given to booth_camera_capture (0 for an unsolicited camera-gone). */
	uint64_t cookie;
	/** The frame when status is OK, else NULL. The caller owns it: release it exactly
	 *  once with booth_frame_release. */
	struct booth_frame *frame;
	/** The trigger the capture was armed with. */
	uint64_t trigger_ns;
	/** Exposure start of the frame's first row (libcamera SensorTimestamp). */
	uint64_t sensor_timestamp_ns;
	/** 1 if sensor_timestamp_ns is SensorTimestamp; 0 if it is the buffer timestamp
	 *  (usually start of readout, i.e. about one exposure time after exposure start). */
	int timestamp_is_sensor;
	/** Frame sequence number from the driver. */
	uint32_t sequence;
	/** Exposure time in microseconds, or -1 if not reported. */
	int32_t exposure_us;
	/** Analogue gain, or -1 if not reported. */
	float analogue_gain;
	/** Estimated scene illuminance in lux, or -1 if not reported. */
	float lux;
	/** A value of enum booth_pixel_format, and the frame's size. */
	int pixel_format;
	uint32_t width, height;
	/** Mapped planes (read-only), in layout order. */
	uint32_t plane_count;
	struct booth_frame_plane planes[3];
};

/**
 * List the cameras libcamera can see, with their still-capture modes.
 * On success *cameras (possibly NULL with *count 0) must be freed by the
 * caller with booth_camera_list_free. Returns 0, or -1 with errno.
 */
int booth_camera_list(struct booth_camera_info **cameras, size_t *count);

/** Free a list from booth_camera_list. NULL is fine. */
void booth_camera_list_free(struct booth_camera_info *cameras, size_t count);

/**
 * Open the camera named by `selector` (an index such as "0", or a libcamera
 * id), configure one still stream, allocate and map its buffers and start
 * streaming with every buffer queued. The camera stays exclusively ours until
 * booth_camera_close.
 *
 * Returns a handle the caller must close with booth_camera_close, or NULL with
 * errno: ENODEV (no such camera), EBUSY (another process holds it), EINVAL (no
 * usable format/size), ENOMEM, ESTALE (a camera was abandoned, see
 * booth_camera_close: restart the process), or what libcamera returned.
 */
struct booth_camera *booth_camera_open(const char *selector, const struct booth_camera_config *cfg);

/** The camera's libcamera id; owned by the camera, valid until close. */
const char *booth_camera_id(const struct booth_camera *camera);
/** The sensor model ("" if unknown); owned by the camera, valid until close. */
const char *booth_camera_model(const struct booth_camera *camera);

/**
 * The eventfd (EFD_NONBLOCK) that becomes readable when results may be ready.
 * Owned by the camera: poll it, never read or close it. When it is readable,
 * call booth_camera_next_result until it returns 0 (it also requeues buffers,
 * so a loop that stops calling it starves the camera).
 */
int booth_camera_event_fd(const struct booth_camera *camera);

/**
 * Arm a capture: the first completed frame whose sensor timestamp is >=
 * trigger_ns (CLOCK_MONOTONIC) is held for the caller and reported with
 * `cookie`. At least two buffers always stay with the camera, so while the
 * caller holds buffer_count - 2 frames, later frames are not held.
 * Returns 0, or -1 with errno ENODEV if the camera is gone.
 */
int booth_camera_capture(struct booth_camera *camera, uint64_t trigger_ns, uint64_t cookie);

/**
 * Turn every armed capture whose trigger is older than now_ns - timeout_ns
 * into a TIMEOUT result. Time is the caller's: nothing here reads a clock.
 * Returns the number of captures expired.
 */
int booth_camera_expire(struct booth_camera *camera, uint64_t now_ns, uint64_t timeout_ns);

/**
 * The scene illuminance (lux) libcamera's algorithms estimated for the latest
 * frame that completed, or -1 if none was reported (no IPA estimates it, or no
 * frame yet). Updated by booth_camera_next_result; call from the same thread.
 */
float booth_camera_latest_lux(const struct booth_camera *camera);

/**
 * Pace the stream. Idle (@p idle nonzero): a completed request nobody asked for
 * is parked instead of given back, and the event fd is signalled only once no
 * request is left with the camera (or it is gone), so an idle booth is woken
 * once per booth_camera_resume instead of once per frame, and the pipeline
 * (a Pi's ISP) processes only those frames. Not idle (the default): every
 * parked request goes back at once and each frame is given back as it is
 * drained (full rate). Returns how many parked requests went back.
 */
int booth_camera_set_idle(struct booth_camera *camera, int idle);

/**
 * While idle: give up to @p count parked requests back to the camera (the next
 * frames, e.g. one a half second). Returns how many went back.
 */
int booth_camera_resume(struct booth_camera *camera, int count);

/**
 * Pop the next result without blocking: returns 1 and fills *out, 0 when
 * nothing is pending, or -1 with errno. Also requeues completed buffers that
 * nobody asked for. Call from the thread that owns the camera.
 */
int booth_camera_next_result(struct booth_camera *camera, struct booth_camera_result *out);

/**
 * Give a held frame's buffer back to the camera (requeue it) and free the
 * handle. Callable from any thread, also after booth_camera_close (the
 * buffers stay mapped until the last frame is released). NULL is fine.
 */
void booth_frame_release(struct booth_frame *frame);

/**
 * Stop streaming, release the camera and free the handle (armed captures are
 * dropped; held frames stay valid until released). NULL is fine.
 * A camera whose device nodes were removed without libcamera seeing a udev
 * remove event (no udevd) can be neither stopped nor destroyed by libcamera
 * 0.0.3 (both abort the process): it is abandoned instead, and from then on
 * booth_camera_open fails with ESTALE.
 */
void booth_camera_close(struct booth_camera *camera);

/** Words about the last failure on this thread ("" if none); valid until the next call. */
const char *booth_camera_error_detail(void);

#ifdef __cplusplus
}
#endif

#endif /* BOOTH_CAMERA_H */
