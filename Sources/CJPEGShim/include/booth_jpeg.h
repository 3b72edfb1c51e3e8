/*
 * booth_jpeg: libjpeg-turbo compression and decompression behind an error
 * manager that never calls exit(). libjpeg reports fatal errors by calling
 * error_exit, which must not return; Swift cannot setjmp, so each whole
 * libjpeg call sequence lives here behind one setjmp.
 *
 * Errors: functions return 0 on success and -1 on failure, with a
 * human-readable reason in `message` (BOOTH_JPEG_MESSAGE_MAX bytes, always
 * NUL-terminated). On failure no output is allocated.
 */
#ifndef BOOTH_JPEG_H
#define BOOTH_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of every `message` buffer (libjpeg's JMSG_LENGTH_MAX). */
#define BOOTH_JPEG_MESSAGE_MAX 200

/** Memory layout of a source frame. */
enum booth_jpeg_layout {
	/** One plane, 3 bytes per pixel R, G, B. */
	BOOTH_JPEG_LAYOUT_RGB24 = 0,
	/** Three planes Y, U, V; chroma planes are ceil(w/2) x ceil(h/2). */
	BOOTH_JPEG_LAYOUT_I420 = 1,
	/** Two planes Y and interleaved UV; UV is ceil(w/2) pairs x ceil(h/2). */
	BOOTH_JPEG_LAYOUT_NV12 = 2,
	/** One plane, 3 bytes per pixel B, G, R (libcamera's RGB888). */
	BOOTH_JPEG_LAYOUT_BGR24 = 3,
	/** One plane of packed 4:2:2, Y0 U Y1 V per pair of pixels (a USB webcam's YUYV); ceil(w/2) pairs a row. */
	BOOTH_JPEG_LAYOUT_YUYV = 4,
};

/** One plane of a frame, borrowed for the duration of a call. */
struct booth_jpeg_plane {
	/** First byte of the plane's first row. */
	const uint8_t *data;
	/** Bytes readable from `data`. */
	size_t length;
	/** Bytes from one row to the next (>= the row's payload). */
	size_t stride;
};

/** A frame to encode and how to encode it. Nothing here is retained. */
struct booth_jpeg_source {
	/** A value of enum booth_jpeg_layout. */
	int layout;
	/** Full frame size in pixels. */
	uint32_t width, height;
	/** Planes in layout order; unused entries are ignored. */
	struct booth_jpeg_plane planes[3];
	/** Region to encode; crop_x and crop_y must be even for YUV layouts. */
	uint32_t crop_x, crop_y, crop_width, crop_height;
	/** libjpeg quality, 1...100. */
	int quality;
	/** Optional APP1 payload ("Exif\0\0" + TIFF), at most 65533 bytes. */
	const uint8_t *app1;
	/** Length of `app1`; 0 for none. */
	size_t app1_length;
};

/** A heap buffer owned by the caller; free it with booth_jpeg_buffer_free. */
struct booth_jpeg_buffer {
	uint8_t *data;
	size_t length;
};

/** What a JPEG's header says. `app1` is owned by the caller (may be empty). */
struct booth_jpeg_header {
	uint32_t width, height;
	int components;
	struct booth_jpeg_buffer app1;
};

/**
 * Encode `source` as a baseline JPEG into `out`. YUV layouts are fed to
 * libjpeg as raw downsampled data (no color conversion).
 * On success `out` must be freed by the caller with booth_jpeg_buffer_free.
 */
int booth_jpeg_encode(const struct booth_jpeg_source *source, struct booth_jpeg_buffer *out,
		      char *message);

/**
 * Read a JPEG's header (and its first APP1 segment) without decoding.
 * On success `out->app1` must be freed with booth_jpeg_buffer_free.
 */
int booth_jpeg_read_header(const uint8_t *jpeg, size_t length, struct booth_jpeg_header *out,
			   char *message);

/**
 * Decode a JPEG to packed RGB24 (stride = 3 * width).
 * On success `rgb` must be freed with booth_jpeg_buffer_free.
 */
int booth_jpeg_decode_rgb(const uint8_t *jpeg, size_t length, struct booth_jpeg_buffer *rgb,
			  uint32_t *width, uint32_t *height, char *message);

/**
 * Decode a JPEG to packed RGB24 at 1/`scale_denom` of its size (1, 2, 4 or 8), for thumbnails.
 * libjpeg scales in the DCT domain (scale_num = 1, scale_denom = N): at 1/8 each 8x8 block
 * becomes one pixel from its DC coefficient, so the full-size image is never built (entropy
 * decoding still reads every coefficient: that is most of the time). The output is
 * ceil(width / N) x ceil(height / N), reported in `width` and `height`.
 * Unlike booth_jpeg_decode_rgb, damaged data (any libjpeg corrupt-data warning, such as a
 * truncated file) is an error rather than a picture with grey blocks.
 * On success `rgb` must be freed with booth_jpeg_buffer_free.
 */
int booth_jpeg_decode_scaled(const uint8_t *jpeg, size_t length, unsigned scale_denom,
			     struct booth_jpeg_buffer *rgb, uint32_t *width, uint32_t *height,
			     char *message);

/** Free a buffer returned by this API and zero it; NULL data is fine. */
void booth_jpeg_buffer_free(struct booth_jpeg_buffer *buffer);

#ifdef __cplusplus
}
#endif

#endif /* BOOTH_JPEG_H */
