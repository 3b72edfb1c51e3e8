/* booth_layout: which still mode to stream, and where each color plane of a frame lies in its mapped buffers (no libcamera here). */
#include "booth_camera.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

/* Row payload, row count and stride of each plane of a `format` frame. */
struct PlaneShape {
	size_t row_bytes, rows, stride;
};

std::vector<PlaneShape> plane_shapes(int format, uint32_t width, uint32_t height, uint32_t stride)
{
	size_t cw = (width + 1) / 2, ch = (height + 1) / 2;

	switch (format) {
	case BOOTH_PIXEL_FORMAT_YUV420:
		return {{width, height, stride}, {cw, ch, stride / 2}, {cw, ch, stride / 2}};
	case BOOTH_PIXEL_FORMAT_NV12:
		return {{width, height, stride}, {cw * 2, ch, stride}};
	case BOOTH_PIXEL_FORMAT_RGB24:
	case BOOTH_PIXEL_FORMAT_BGR24:
		return {{(size_t)width * 3, height, stride}};
	case BOOTH_PIXEL_FORMAT_YUYV:
		return {{cw * 4, height, stride}};
	default:
		return {};
	}
}

/* libcamera's names of the formats the booth takes, least work first. */
const char *const taken_formats[] = {"YUV420", "NV12", "BGR888", "RGB888", "YUYV", "MJPEG"};

/* The rank of a format name in taken_formats, or -1 when the booth does not take it. */
int rank_of(const char *name)
{
	for (size_t i = 0; i < std::size(taken_formats); i++)
		if (strcmp(name, taken_formats[i]) == 0)
			return (int)i;
	return -1;
}

} /* namespace */

extern "C" {

int booth_camera_pick_mode(const struct booth_camera_mode *modes, size_t count)
{
	int best = -1;
	uint64_t best_area = 0;
	int best_rank = 0;

	for (size_t i = 0; i < count; i++) {
		int rank = rank_of(modes[i].pixel_format);
		uint64_t area = (uint64_t)modes[i].width * modes[i].height;
		if (rank < 0)
			continue;
		if (best < 0 || area > best_area || (area == best_area && rank < best_rank)) {
			best = (int)i;
			best_area = area;
			best_rank = rank;
		}
	}
	return best;
}

int booth_camera_layout(int format, uint32_t width, uint32_t height, uint32_t stride,
			const struct booth_buffer_plane *planes, size_t plane_count,
			struct booth_frame_plane out[3], const char **problem)
{
	if (format == BOOTH_PIXEL_FORMAT_MJPEG) {
		/* Compressed: no rows to place. Its one plane is the JPEG, shortened by the caller to what the frame used. */
		if (plane_count != 1 || width == 0 || height == 0 || planes[0].length < 2) {
			*problem = "camera MJPEG buffer is not one plane holding a JPEG";
			errno = EINVAL;
			return -1;
		}
		out[0] = {planes[0].base + planes[0].offset, planes[0].length, planes[0].length};
		return 1;
	}
	std::vector<PlaneShape> shapes = plane_shapes(format, width, height, stride);

	if (shapes.empty() || width == 0 || height == 0) {
		*problem = "camera frame has an unknown pixel format or no pixels";
		errno = EINVAL;
		return -1;
	}
	if (plane_count == shapes.size()) {
		for (size_t i = 0; i < plane_count; i++)
			out[i] = {planes[i].base + planes[i].offset, planes[i].length, shapes[i].stride};
	} else if (plane_count == 1) {
		/* One V4L2 plane holding all color planes back to back. */
		size_t offset = planes[0].offset;
		size_t end = planes[0].offset + planes[0].length;
		for (size_t i = 0; i < shapes.size(); i++) {
			size_t size = shapes[i].stride * shapes[i].rows;
			size_t length = std::min(size, end > offset ? end - offset : 0);
			out[i] = {planes[0].base + std::min(offset, end), length, shapes[i].stride};
			offset += size;
		}
	} else {
		*problem = "camera buffer has a number of planes its pixel format does not have";
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < shapes.size(); i++) {
		const PlaneShape &shape = shapes[i];
		if (shape.stride < shape.row_bytes || out[i].length < shape.stride * (shape.rows - 1) + shape.row_bytes) {
			*problem = "camera buffer plane is smaller than its pixel format needs";
			errno = EINVAL;
			return -1;
		}
	}
	return (int)shapes.size();
}

} /* extern "C" */
