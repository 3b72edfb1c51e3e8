/* booth_jpeg_internal: the error manager every libjpeg call sequence runs under, and the helpers the shim's files
 * share (internal header). */
#ifndef BOOTH_JPEG_INTERNAL_H
#define BOOTH_JPEG_INTERNAL_H

#include "booth_message.h"
#include "booth_jpeg.h"

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

/* Shared by booth_jpeg.c (the error manager, messages, buffers), booth_jpeg_encode.c (encoding) and
 * booth_jpeg_decode.c (the header and decoding). */

/* libjpeg error manager whose error_exit longjmps back instead of exiting. */
struct booth_error_mgr {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
	char *message;
};

/* booth_jpeg.c: sets up `err` to longjmp to its `jump` with the reason in `message` (emptied here). */
void booth_jpeg_error_init(struct booth_error_mgr *err, char *message);

#endif
