/* booth_jpeg_encode: a frame (RGB, BGR, or YUV fed raw, 4:2:0 or packed 4:2:2) cropped and encoded to JPEG in memory. */
#include "booth_jpeg_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/*
 * Growable memory destination. This is jpeg_mem_dest's job, but jpeg_mem_dest
 * keeps its current buffer in a private field after a reallocation, so it
 * would leak when an error longjmps out; here the buffer is always reachable.
 */
struct booth_dest {
	struct jpeg_destination_mgr pub;
	uint8_t *data;
	size_t capacity;
	size_t length;
};

static void dest_init(j_compress_ptr cinfo)
{
	struct booth_dest *dest = (struct booth_dest *)cinfo->dest;

	dest->pub.next_output_byte = dest->data;
	dest->pub.free_in_buffer = dest->capacity;
}

static boolean dest_empty(j_compress_ptr cinfo)
{
	struct booth_dest *dest = (struct booth_dest *)cinfo->dest;
	size_t used = dest->capacity;
	size_t grown = dest->capacity * 2;
	uint8_t *data = realloc(dest->data, grown);

	if (data == NULL)
		ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
	dest->data = data;
	dest->capacity = grown;
	dest->pub.next_output_byte = data + used;
	dest->pub.free_in_buffer = grown - used;
	return TRUE;
}

static void dest_term(j_compress_ptr cinfo)
{
	struct booth_dest *dest = (struct booth_dest *)cinfo->dest;

	dest->length = dest->capacity - dest->pub.free_in_buffer;
}

/* Bytes per row, row count and first byte offset that one plane contributes to the crop. */
struct plane_use {
	size_t row_bytes;
	uint32_t rows;
	size_t x_offset;
	uint32_t y_offset;
};

static int plane_uses(const struct booth_jpeg_source *src, struct plane_use use[3], int *count)
{
	uint32_t cw = src->crop_width, ch = src->crop_height;
	uint32_t cx = src->crop_x, cy = src->crop_y;

	switch (src->layout) {
	case BOOTH_JPEG_LAYOUT_RGB24:
	case BOOTH_JPEG_LAYOUT_BGR24:
		*count = 1;
		use[0] = (struct plane_use){(size_t)cw * 3, ch, (size_t)cx * 3, cy};
		return 0;
	case BOOTH_JPEG_LAYOUT_I420:
		*count = 3;
		use[0] = (struct plane_use){cw, ch, cx, cy};
		use[1] = (struct plane_use){(cw + 1) / 2, (ch + 1) / 2, cx / 2, cy / 2};
		use[2] = use[1];
		return 0;
	case BOOTH_JPEG_LAYOUT_NV12:
		*count = 2;
		use[0] = (struct plane_use){cw, ch, cx, cy};
		use[1] = (struct plane_use){((cw + 1) / 2) * 2, (ch + 1) / 2, cx, cy / 2};
		return 0;
	case BOOTH_JPEG_LAYOUT_YUYV:
		*count = 1;
		use[0] = (struct plane_use){((size_t)cw + 1) / 2 * 4, ch, (size_t)cx * 2, cy};
		return 0;
	default:
		return -1;
	}
}

/* Layouts fed to libjpeg as raw YCbCr: 4:2:0 planes, or packed 4:2:2 split into planes on the way. */
static int is_yuv(int layout)
{
	return layout == BOOTH_JPEG_LAYOUT_I420 || layout == BOOTH_JPEG_LAYOUT_NV12 || layout == BOOTH_JPEG_LAYOUT_YUYV;
}

static int validate(const struct booth_jpeg_source *src, char *message)
{
	struct plane_use use[3];
	int count = 0;

	if (src->quality < 1 || src->quality > 100) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "quality %d is outside 1...100", src->quality);
		return -1;
	}
	if (src->crop_width == 0 || src->crop_height == 0 || src->crop_width > 65500 ||
	    src->crop_height > 65500 || src->crop_x + (uint64_t)src->crop_width > src->width ||
	    src->crop_y + (uint64_t)src->crop_height > src->height) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "crop %ux%u+%u+%u does not fit the %ux%u frame", src->crop_width,
				       src->crop_height, src->crop_x, src->crop_y, src->width, src->height);
		return -1;
	}
	/* Chroma is shared by two columns (YUYV), or by two columns and two rows (4:2:0): no crop may split it. */
	uint32_t shared = src->layout == BOOTH_JPEG_LAYOUT_YUYV ? src->crop_x
			  : is_yuv(src->layout)                 ? src->crop_x | src->crop_y
								: 0;
	if (shared & 1) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "crop origin %u,%u must be even for YUV", src->crop_x, src->crop_y);
		return -1;
	}
	if (plane_uses(src, use, &count) < 0) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "unknown layout %d", src->layout);
		return -1;
	}
	for (int i = 0; i < count; i++) {
		const struct booth_jpeg_plane *p = &src->planes[i];
		uint64_t last_row = (uint64_t)use[i].y_offset + use[i].rows - 1;
		uint64_t end = last_row * p->stride + use[i].x_offset + use[i].row_bytes;

		if (p->data == NULL || p->stride < use[i].x_offset + use[i].row_bytes ||
		    end > p->length) {
			booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "plane %d (%zu bytes, stride %zu) is too small for the crop",
					       i, p->length, p->stride);
			return -1;
		}
	}
	if (src->app1_length > 65533) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "APP1 payload of %zu bytes exceeds 65533", src->app1_length);
		return -1;
	}
	return 0;
}

static const uint8_t *row_start(const struct booth_jpeg_plane *p, const struct plane_use *use,
				uint32_t row)
{
	if (row >= use->rows)
		row = use->rows - 1; /* replicate the last row below the image */
	return p->data + (size_t)(use->y_offset + row) * p->stride + use->x_offset;
}

/* A planar row padded to `padded` samples: borrowed when no padding is needed, else copied. */
static JSAMPROW planar_row(const uint8_t *start, size_t samples, size_t padded, uint8_t *scratch)
{
	if (samples == padded)
		return (JSAMPROW)(uintptr_t)start; /* libjpeg only reads raw input rows */
	memcpy(scratch, start, samples);
	memset(scratch + samples, start[samples - 1], padded - samples);
	return scratch;
}

/* One channel of a packed row (NV12's UV, YUYV's Y, U or V): every `step`-th byte from `first`, `samples` of them,
 * each looked up in `map` when there is one, padded into scratch. */
static JSAMPROW packed_row(const uint8_t *start, size_t samples, size_t padded, size_t first, size_t step,
			   const uint8_t *map, uint8_t *scratch)
{
	if (map)
		for (size_t i = 0; i < samples; i++)
			scratch[i] = map[start[first + step * i]];
	else
		for (size_t i = 0; i < samples; i++)
			scratch[i] = start[first + step * i];
	memset(scratch + samples, scratch[samples - 1], padded - samples);
	return scratch;
}

/* Limited range (luma 16-235, chroma 16-240 about 128, as V4L2 and UVC define a webcam's YUYV) stretched to the full
 * range a JPEG's YCbCr is read in: luma 16 becomes 0 and 235 255, chroma keeps 128. */
static void limited_to_full(uint8_t luma[256], uint8_t chroma[256])
{
	for (int v = 0; v < 256; v++) {
		/* Rounded to nearest: (2 * a * 255 + b) / (2 * b) for a / b * 255, on magnitudes. */
		int y = v < 16 ? 0 : ((v - 16) * 510 + 219) / 438;
		int d = v < 128 ? 128 - v : v - 128;
		int c = v < 128 ? 128 - (d * 510 + 224) / 448 : 128 + (d * 510 + 224) / 448;

		luma[v] = (uint8_t)(y > 255 ? 255 : y);
		chroma[v] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
	}
}


int booth_jpeg_encode(const struct booth_jpeg_source *src, struct booth_jpeg_buffer *out,
		      char *message)
{
	struct jpeg_compress_struct cinfo;
	struct booth_error_mgr err;
	struct booth_dest dest;
	struct plane_use use[3];
	int plane_count = 0;
	int yuv = is_yuv(src->layout);
	/* Padded widths cover libjpeg's width_in_blocks * DCTSIZE for 2x horizontal subsampling. */
	size_t luma_padded = ((size_t)src->crop_width + 15) / 16 * 16;
	size_t chroma_padded = luma_padded / 2;
	uint8_t *scratch = NULL;

	message[0] = '\0';
	if (validate(src, message) < 0)
		return -1;
	plane_uses(src, use, &plane_count);

	memset(&dest, 0, sizeof(dest));
	dest.capacity = 65536 + (size_t)src->crop_width * src->crop_height / 4;
	dest.data = malloc(dest.capacity);
	if (yuv)
		scratch = malloc(16 * luma_padded + 2 * 8 * chroma_padded);
	if (dest.data == NULL || (yuv && scratch == NULL)) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "out of memory");
		goto err_free;
	}
	dest.pub.init_destination = dest_init;
	dest.pub.empty_output_buffer = dest_empty;
	dest.pub.term_destination = dest_term;

	cinfo.err = NULL;
	booth_jpeg_error_init(&err, message);
	if (setjmp(err.jump)) {
		jpeg_destroy_compress(&cinfo);
		goto err_free;
	}
	cinfo.err = &err.pub;
	jpeg_create_compress(&cinfo);
	cinfo.dest = &dest.pub;
	cinfo.image_width = src->crop_width;
	cinfo.image_height = src->crop_height;
	cinfo.input_components = 3;
	cinfo.in_color_space = yuv ? JCS_YCbCr
			       : src->layout == BOOTH_JPEG_LAYOUT_BGR24 ? JCS_EXT_BGR
									: JCS_RGB;
	jpeg_set_defaults(&cinfo);
	jpeg_set_quality(&cinfo, src->quality, TRUE);
	if (yuv) {
		jpeg_set_colorspace(&cinfo, JCS_YCbCr);
		cinfo.raw_data_in = TRUE;
		cinfo.comp_info[0].h_samp_factor = 2;
		/* 4:2:0 (chroma halved across and down), or 4:2:2 for packed YUYV (halved across only). */
		cinfo.comp_info[0].v_samp_factor = src->layout == BOOTH_JPEG_LAYOUT_YUYV ? 1 : 2;
		for (int ci = 1; ci < 3; ci++) {
			cinfo.comp_info[ci].h_samp_factor = 1;
			cinfo.comp_info[ci].v_samp_factor = 1;
		}
	}
	/* Exif requires APP1 right after SOI, so no JFIF APP0 when EXIF is present. */
	if (src->app1_length > 0)
		cinfo.write_JFIF_header = FALSE;
	jpeg_start_compress(&cinfo, TRUE);
	if (src->app1_length > 0)
		jpeg_write_marker(&cinfo, JPEG_APP0 + 1, src->app1, (unsigned int)src->app1_length);

	if (yuv) {
		JSAMPROW y_rows[16], u_rows[8], v_rows[8];
		JSAMPARRAY planes[3] = {y_rows, u_rows, v_rows};
		uint8_t *u_scratch = scratch + 16 * luma_padded;
		uint8_t *v_scratch = u_scratch + 8 * chroma_padded;
		size_t chroma_samples = ((size_t)src->crop_width + 1) / 2;
		uint8_t luma_map[256], chroma_map[256];

		limited_to_full(luma_map, chroma_map);

		while (cinfo.next_scanline < cinfo.image_height) {
			uint32_t y = cinfo.next_scanline;

			if (src->layout == BOOTH_JPEG_LAYOUT_YUYV) {
				/* 8 rows a pass (4:2:2: one chroma row per luma row), each split into Y, U and V and
				 * stretched from limited range. */
				for (uint32_t i = 0; i < 8; i++) {
					const uint8_t *row = row_start(&src->planes[0], &use[0], y + i);

					y_rows[i] = packed_row(row, src->crop_width, luma_padded, 0, 2, luma_map,
							       scratch + i * luma_padded);
					u_rows[i] = packed_row(row, chroma_samples, chroma_padded, 1, 4, chroma_map,
							       u_scratch + i * chroma_padded);
					v_rows[i] = packed_row(row, chroma_samples, chroma_padded, 3, 4, chroma_map,
							       v_scratch + i * chroma_padded);
				}
				jpeg_write_raw_data(&cinfo, planes, 8);
				continue;
			}
			for (uint32_t i = 0; i < 16; i++)
				y_rows[i] = planar_row(row_start(&src->planes[0], &use[0], y + i),
						       src->crop_width, luma_padded,
						       scratch + i * luma_padded);
			for (uint32_t i = 0; i < 8; i++) {
				uint8_t *us = u_scratch + i * chroma_padded;
				uint8_t *vs = v_scratch + i * chroma_padded;

				if (src->layout == BOOTH_JPEG_LAYOUT_I420) {
					u_rows[i] = planar_row(
						row_start(&src->planes[1], &use[1], y / 2 + i),
						chroma_samples, chroma_padded, us);
					v_rows[i] = planar_row(
						row_start(&src->planes[2], &use[2], y / 2 + i),
						chroma_samples, chroma_padded, vs);
				} else {
					const uint8_t *uv =
						row_start(&src->planes[1], &use[1], y / 2 + i);

					u_rows[i] = packed_row(uv, chroma_samples, chroma_padded, 0,
							       2, NULL, us);
					v_rows[i] = packed_row(uv, chroma_samples, chroma_padded, 1,
							       2, NULL, vs);
				}
			}
			jpeg_write_raw_data(&cinfo, planes, 16);
		}
	} else {
		while (cinfo.next_scanline < cinfo.image_height) {
			JSAMPROW row = (JSAMPROW)(uintptr_t)row_start(&src->planes[0], &use[0],
								      cinfo.next_scanline);

			jpeg_write_scanlines(&cinfo, &row, 1);
		}
	}
	jpeg_finish_compress(&cinfo);
	jpeg_destroy_compress(&cinfo);
	free(scratch);
	out->data = dest.data;
	out->length = dest.length;
	return 0;

err_free:
	free(scratch);
	free(dest.data);
	return -1;
}
