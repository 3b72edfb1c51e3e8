/* booth_jpeg: the error manager every libjpeg-turbo call sequence runs under (setjmp error recovery), messages and
 * buffers (see booth_jpeg.h). Encoding is in booth_jpeg_encode.c, decoding in booth_jpeg_decode.c. */
#include "booth_jpeg_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

static void booth_error_exit(j_common_ptr cinfo)
{
	struct booth_error_mgr *err = (struct booth_error_mgr *)cinfo->err;

	(*cinfo->err->format_message)(cinfo, err->message);
	longjmp(err->jump, 1);
}

/* Warnings and traces are not printed; corrupt-data warnings stay counted in num_warnings. */
static void booth_output_message(j_common_ptr cinfo)
{
	(void)cinfo;
}

void booth_jpeg_error_init(struct booth_error_mgr *err, char *message)
{
	jpeg_std_error(&err->pub);
	err->pub.error_exit = booth_error_exit;
	err->pub.output_message = booth_output_message;
	err->message = message;
	message[0] = '\0';
}

void booth_jpeg_buffer_free(struct booth_jpeg_buffer *buffer)
{
	if (buffer == NULL)
		return;
	free(buffer->data);
	buffer->data = NULL;
	buffer->length = 0;
}
