/* booth_jpeg_decode: a JPEG's header (and APP1) read, and decoded to RGB24 at full size or scaled. */
#include "booth_jpeg_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/* What one decompression does once the header is read; it runs under decompress()'s setjmp. */
typedef void (*decompress_body)(struct jpeg_decompress_struct *cinfo, void *context);

/*
 * The one decompression setup every decode path uses: error manager, setjmp, memory source,
 * APP1 capture when asked, the header, then `body`. Returns 0, or -1 with `message` set; on -1
 * the caller frees whatever `body` left in `context`.
 */
static int decompress(const uint8_t *jpeg, size_t length, int save_app1, decompress_body body,
		      void *context, char *message)
{
	struct jpeg_decompress_struct cinfo;
	struct booth_error_mgr err;

	booth_jpeg_error_init(&err, message);
	if (jpeg == NULL || length == 0) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "empty JPEG data");
		return -1;
	}
	memset(&cinfo, 0, sizeof(cinfo)); /* jpeg_destroy is safe whatever fails first */
	cinfo.err = &err.pub;
	if (setjmp(err.jump)) {
		jpeg_destroy_decompress(&cinfo);
		return -1;
	}
	jpeg_create_decompress(&cinfo);
	jpeg_mem_src(&cinfo, jpeg, (unsigned long)length);
	if (save_app1)
		jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
	jpeg_read_header(&cinfo, TRUE);
	body(&cinfo, context);
	jpeg_destroy_decompress(&cinfo);
	return 0;
}

static void header_body(struct jpeg_decompress_struct *cinfo, void *context)
{
	struct booth_jpeg_header *header = context;

	for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
		if (m->marker != JPEG_APP0 + 1 || m->data_length == 0)
			continue;
		header->app1.data = malloc(m->data_length);
		if (header->app1.data == NULL)
			ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
		memcpy(header->app1.data, m->data, m->data_length);
		header->app1.length = m->data_length;
		break;
	}
	header->width = cinfo->image_width;
	header->height = cinfo->image_height;
	header->components = cinfo->num_components;
}

int booth_jpeg_read_header(const uint8_t *jpeg, size_t length, struct booth_jpeg_header *out,
			   char *message)
{
	struct booth_jpeg_header header;

	memset(&header, 0, sizeof(header));
	if (decompress(jpeg, length, 1, header_body, &header, message) < 0) {
		booth_jpeg_buffer_free(&header.app1);
		return -1;
	}
	*out = header;
	return 0;
}

/*
 * One decode to packed RGB24: its scale, whether damaged data fails it, and what came out.
 * libjpeg's default IDCT (JDCT_ISLOW) and fancy upsampling stay on at every scale: at 1/8 and 1/4
 * neither applies (the reduced IDCTs ignore dct_method, and chroma is scaled by its IDCT, so
 * nothing is upsampled: the output is byte-identical with JDCT_IFAST or plain upsampling), and at
 * 1/2 and 1/1 the faster choices saved no measurable CPU time on a 12 MP photo.
 */
struct decode_job {
	unsigned scale_denom;
	int strict;
	uint8_t *pixels;
	size_t length;
	uint32_t width, height;
};

/*
 * Fails with the last corrupt-data warning: libjpeg decodes a truncated or damaged file
 * "successfully", with grey or smeared blocks, and a thumbnail made from that is kept for good.
 */
static void fail_if_damaged(struct jpeg_decompress_struct *cinfo)
{
	struct booth_error_mgr *err = (struct booth_error_mgr *)cinfo->err;
	char warning[JMSG_LENGTH_MAX];

	if (cinfo->err->num_warnings == 0)
		return;
	(*cinfo->err->format_message)((j_common_ptr)cinfo, warning);
	booth_message_set(err->message, BOOTH_JPEG_MESSAGE_MAX, "damaged JPEG data (%ld warning(s), last: %s)",
			       cinfo->err->num_warnings, warning);
	longjmp(err->jump, 1);
}

static void decode_body(struct jpeg_decompress_struct *cinfo, void *context)
{
	struct decode_job *job = context;

	cinfo->out_color_space = JCS_RGB;
	cinfo->scale_num = 1;
	cinfo->scale_denom = job->scale_denom;
	jpeg_start_decompress(cinfo);
	size_t stride = (size_t)cinfo->output_width * 3;
	job->pixels = malloc(stride * cinfo->output_height);
	if (job->pixels == NULL)
		ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 12);
	while (cinfo->output_scanline < cinfo->output_height) {
		JSAMPROW rows[16];
		JDIMENSION count = cinfo->output_height - cinfo->output_scanline;

		if (count > 16)
			count = 16;
		for (JDIMENSION i = 0; i < count; i++)
			rows[i] = job->pixels + stride * (cinfo->output_scanline + i);
		jpeg_read_scanlines(cinfo, rows, count);
	}
	jpeg_finish_decompress(cinfo);
	if (job->strict)
		fail_if_damaged(cinfo);
	job->width = cinfo->output_width;
	job->height = cinfo->output_height;
	job->length = stride * cinfo->output_height;
}

static int decode(const uint8_t *jpeg, size_t length, struct decode_job *job,
		  struct booth_jpeg_buffer *rgb, uint32_t *width, uint32_t *height, char *message)
{
	if (decompress(jpeg, length, 0, decode_body, job, message) < 0) {
		free(job->pixels);
		return -1;
	}
	rgb->data = job->pixels;
	rgb->length = job->length;
	*width = job->width;
	*height = job->height;
	return 0;
}

int booth_jpeg_decode_rgb(const uint8_t *jpeg, size_t length, struct booth_jpeg_buffer *rgb,
			  uint32_t *width, uint32_t *height, char *message)
{
	struct decode_job job = {.scale_denom = 1};

	return decode(jpeg, length, &job, rgb, width, height, message);
}

int booth_jpeg_decode_scaled(const uint8_t *jpeg, size_t length, unsigned scale_denom,
			     struct booth_jpeg_buffer *rgb, uint32_t *width, uint32_t *height,
			     char *message)
{
	struct decode_job job = {.scale_denom = scale_denom, .strict = 1};

	message[0] = '\0';
	if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
		booth_message_set(message, BOOTH_JPEG_MESSAGE_MAX, "scale 1/%u is not one of 1/1, 1/2, 1/4, 1/8", scale_denom);
		return -1;
	}
	return decode(jpeg, length, &job, rgb, width, height, message);
}
