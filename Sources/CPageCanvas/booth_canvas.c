/* booth_canvas: the join card's and the print layouts' page over cairo, loaded with dlopen (see booth_canvas.h): cairo
 * loaded, the page made, finished and destroyed. What is drawn on it is in booth_canvas_draw.c. */
#include "booth_canvas_internal.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MM_PER_INCH 25.4
#define POINTS_PER_INCH 72.0

/* Cairo's calls, resolved once from libcairo.so.2 by load_cairo. */
struct booth_cairo_calls booth_cairo;

static pthread_once_t cairo_once = PTHREAD_ONCE_INIT;
static char cairo_problem[BOOTH_CANVAS_MESSAGE_MAX];

#define RESOLVE(field, symbol)                                                                                 \
	do {                                                                                                   \
		*(void **)(&booth_cairo.field) = dlsym(library, #symbol);                                      \
		if (booth_cairo.field == NULL) {                                                               \
			snprintf(cairo_problem, sizeof cairo_problem, "libcairo.so.2 has no %s", #symbol);      \
			return;                                                                                \
		}                                                                                              \
	} while (0)

static void load_cairo(void)
{
	void *library = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
	if (library == NULL) {
		snprintf(cairo_problem, sizeof cairo_problem,
			 "cannot load cairo (%s): install Debian's libcairo2 and fonts-dejavu-core", dlerror());
		return;
	}
	RESOLVE(image_surface_create, cairo_image_surface_create);
	RESOLVE(pdf_surface_create_for_stream, cairo_pdf_surface_create_for_stream);
	RESOLVE(pdf_surface_set_metadata, cairo_pdf_surface_set_metadata);
	RESOLVE(surface_write_to_png_stream, cairo_surface_write_to_png_stream);
	RESOLVE(surface_finish, cairo_surface_finish);
	RESOLVE(surface_flush, cairo_surface_flush);
	RESOLVE(surface_status, cairo_surface_status);
	RESOLVE(surface_destroy, cairo_surface_destroy);
	RESOLVE(create, cairo_create);
	RESOLVE(destroy, cairo_destroy);
	RESOLVE(status, cairo_status);
	RESOLVE(status_to_string, cairo_status_to_string);
	RESOLVE(scale, cairo_scale);
	RESOLVE(set_source_rgb, cairo_set_source_rgb);
	RESOLVE(paint, cairo_paint);
	RESOLVE(rectangle, cairo_rectangle);
	RESOLVE(fill, cairo_fill);
	RESOLVE(select_font_face, cairo_select_font_face);
	RESOLVE(set_font_size, cairo_set_font_size);
	RESOLVE(text_extents, cairo_text_extents);
	RESOLVE(move_to, cairo_move_to);
	RESOLVE(show_text, cairo_show_text);
	RESOLVE(image_surface_get_data, cairo_image_surface_get_data);
	RESOLVE(image_surface_get_stride, cairo_image_surface_get_stride);
	RESOLVE(image_surface_get_width, cairo_image_surface_get_width);
	RESOLVE(image_surface_get_height, cairo_image_surface_get_height);
	RESOLVE(surface_mark_dirty, cairo_surface_mark_dirty);
	RESOLVE(save, cairo_save);
	RESOLVE(restore, cairo_restore);
	RESOLVE(translate, cairo_translate);
	RESOLVE(set_source_surface, cairo_set_source_surface);
	RESOLVE(get_source, cairo_get_source);
	RESOLVE(pattern_set_filter, cairo_pattern_set_filter);
	RESOLVE(image_surface_create_from_png_stream, cairo_image_surface_create_from_png_stream);
}

/* Cairo's write callback: appends to the canvas's growing buffer. */
static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length)
{
	struct booth_canvas *canvas = closure;
	if (length > canvas->capacity - canvas->length) {
		size_t capacity = canvas->capacity ? canvas->capacity : 65536;
		while (length > capacity - canvas->length) {
			if (capacity > SIZE_MAX / 2) {
				canvas->out_of_memory = 1;
				return CAIRO_STATUS_WRITE_ERROR;
			}
			capacity *= 2;
		}
		uint8_t *grown = realloc(canvas->bytes, capacity);
		if (grown == NULL) {
			canvas->out_of_memory = 1;
			return CAIRO_STATUS_WRITE_ERROR;
		}
		canvas->bytes = grown;
		canvas->capacity = capacity;
	}
	memcpy(canvas->bytes + canvas->length, data, length);
	canvas->length += length;
	return CAIRO_STATUS_SUCCESS;
}

struct booth_canvas *booth_canvas_create(int kind, double width_mm, double height_mm, double dpi, const char *title,
					 char *message)
{
	pthread_once(&cairo_once, load_cairo);
	if (cairo_problem[0] != '\0') {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "%s", cairo_problem);
		return NULL;
	}
	if (!(width_mm >= 10 && width_mm <= 1000 && height_mm >= 10 && height_mm <= 1000)) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "a page of %.1f x %.1f mm is out of range (10...1000 mm)", width_mm,
					 height_mm);
		return NULL;
	}
	if ((kind == BOOTH_CANVAS_PNG || kind == BOOTH_CANVAS_RGB) && !(dpi >= 50 && dpi <= 1200)) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "%.0f dpi is out of range (50...1200)", dpi);
		return NULL;
	}
	struct booth_canvas *canvas = calloc(1, sizeof *canvas);
	if (canvas == NULL) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "out of memory");
		return NULL;
	}
	canvas->kind = kind;
	double unit; /* device units per millimetre */
	switch (kind) {
	case BOOTH_CANVAS_PNG:
	case BOOTH_CANVAS_RGB: {
		unit = dpi / MM_PER_INCH;
		int width = (int)(width_mm * unit + 0.5), height = (int)(height_mm * unit + 0.5);
		canvas->surface = booth_cairo.image_surface_create(CAIRO_FORMAT_RGB24, width, height);
		break;
	}
	case BOOTH_CANVAS_PDF:
		unit = POINTS_PER_INCH / MM_PER_INCH;
		canvas->surface = booth_cairo.pdf_surface_create_for_stream(append, canvas, width_mm * unit, height_mm * unit);
		if (title != NULL && booth_cairo.surface_status(canvas->surface) == CAIRO_STATUS_SUCCESS)
			booth_cairo.pdf_surface_set_metadata(canvas->surface, CAIRO_PDF_METADATA_TITLE, title);
		break;
	default:
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "unknown canvas kind %d", kind);
		free(canvas);
		return NULL;
	}
	cairo_status_t status = booth_cairo.surface_status(canvas->surface);
	if (status == CAIRO_STATUS_SUCCESS) {
		canvas->cr = booth_cairo.create(canvas->surface);
		status = booth_cairo.status(canvas->cr);
	}
	if (status != CAIRO_STATUS_SUCCESS) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "cairo cannot make the page: %s",
					 booth_cairo.status_to_string(status));
		booth_canvas_destroy(canvas);
		return NULL;
	}
	booth_cairo.scale(canvas->cr, unit, unit);
	booth_cairo.set_source_rgb(canvas->cr, 1, 1, 1);
	booth_cairo.paint(canvas->cr);
	return canvas;
}

void booth_canvas_pixel_size(const struct booth_canvas *canvas, int *width, int *height)
{
	if (canvas->kind == BOOTH_CANVAS_PDF) {
		*width = *height = 0;
		return;
	}
	*width = booth_cairo.image_surface_get_width(canvas->surface);
	*height = booth_cairo.image_surface_get_height(canvas->surface);
}

/* The RGB canvas's pixels, packed, into the canvas's buffer. */
static int pack_pixels(struct booth_canvas *canvas)
{
	booth_cairo.surface_flush(canvas->surface);
	int width = booth_cairo.image_surface_get_width(canvas->surface),
	    height = booth_cairo.image_surface_get_height(canvas->surface);
	int stride = booth_cairo.image_surface_get_stride(canvas->surface);
	const unsigned char *pixels = booth_cairo.image_surface_get_data(canvas->surface);
	size_t length = (size_t)width * (size_t)height * 3;
	canvas->bytes = malloc(length ? length : 1);
	if (canvas->bytes == NULL) {
		canvas->out_of_memory = 1;
		return -1;
	}
	uint8_t *to = canvas->bytes;
	for (int row = 0; row < height; row++) {
		const uint32_t *from = (const uint32_t *)(pixels + (size_t)row * (size_t)stride);
		for (int column = 0; column < width; column++) {
			uint32_t pixel = from[column];
			*to++ = (uint8_t)(pixel >> 16);
			*to++ = (uint8_t)(pixel >> 8);
			*to++ = (uint8_t)pixel;
		}
	}
	canvas->length = canvas->capacity = length;
	return 0;
}

int booth_canvas_finish(struct booth_canvas *canvas, uint8_t **bytes, size_t *length, char *message)
{
	cairo_status_t status = booth_cairo.status(canvas->cr);
	if (status == CAIRO_STATUS_SUCCESS) {
		booth_cairo.destroy(canvas->cr);
		canvas->cr = NULL;
		if (canvas->kind == BOOTH_CANVAS_PNG) {
			booth_cairo.surface_flush(canvas->surface);
			status = booth_cairo.surface_write_to_png_stream(canvas->surface, append, canvas);
		} else if (canvas->kind == BOOTH_CANVAS_RGB) {
			pack_pixels(canvas);
		} else {
			booth_cairo.surface_finish(canvas->surface);
			status = booth_cairo.surface_status(canvas->surface);
		}
	}
	if (status != CAIRO_STATUS_SUCCESS || canvas->out_of_memory) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "cairo cannot finish the page: %s",
					 canvas->out_of_memory ? "out of memory" : booth_cairo.status_to_string(status));
		return -1;
	}
	*bytes = canvas->bytes;
	*length = canvas->length;
	canvas->bytes = NULL;
	canvas->length = canvas->capacity = 0;
	return 0;
}

void booth_canvas_destroy(struct booth_canvas *canvas)
{
	if (canvas == NULL)
		return;
	if (canvas->cr != NULL)
		booth_cairo.destroy(canvas->cr);
	if (canvas->surface != NULL)
		booth_cairo.surface_destroy(canvas->surface);
	free(canvas->bytes);
	free(canvas);
}
