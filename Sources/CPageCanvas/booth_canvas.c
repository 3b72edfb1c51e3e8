/* booth_canvas: the join card's and the print layouts' page over cairo, loaded with dlopen (see booth_canvas.h). */
#include "booth_canvas.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sans-serif family every card uses (Debian's fonts-dejavu-core, a dependency of the package). */
#define BOOTH_CANVAS_FONT "DejaVu Sans"
#define MM_PER_INCH 25.4
#define POINTS_PER_INCH 72.0

/* Cairo's calls, resolved once from libcairo.so.2 (typed by its own header). */
static struct {
	__typeof__(cairo_image_surface_create) *image_surface_create;
	__typeof__(cairo_pdf_surface_create_for_stream) *pdf_surface_create_for_stream;
	__typeof__(cairo_pdf_surface_set_metadata) *pdf_surface_set_metadata;
	__typeof__(cairo_surface_write_to_png_stream) *surface_write_to_png_stream;
	__typeof__(cairo_surface_finish) *surface_finish;
	__typeof__(cairo_surface_flush) *surface_flush;
	__typeof__(cairo_surface_status) *surface_status;
	__typeof__(cairo_surface_destroy) *surface_destroy;
	__typeof__(cairo_create) *create;
	__typeof__(cairo_destroy) *destroy;
	__typeof__(cairo_status) *status;
	__typeof__(cairo_status_to_string) *status_to_string;
	__typeof__(cairo_scale) *scale;
	__typeof__(cairo_set_source_rgb) *set_source_rgb;
	__typeof__(cairo_paint) *paint;
	__typeof__(cairo_rectangle) *rectangle;
	__typeof__(cairo_fill) *fill;
	__typeof__(cairo_select_font_face) *select_font_face;
	__typeof__(cairo_set_font_size) *set_font_size;
	__typeof__(cairo_text_extents) *text_extents;
	__typeof__(cairo_move_to) *move_to;
	__typeof__(cairo_show_text) *show_text;
	__typeof__(cairo_image_surface_get_data) *image_surface_get_data;
	__typeof__(cairo_image_surface_get_stride) *image_surface_get_stride;
	__typeof__(cairo_image_surface_get_width) *image_surface_get_width;
	__typeof__(cairo_image_surface_get_height) *image_surface_get_height;
	__typeof__(cairo_surface_mark_dirty) *surface_mark_dirty;
	__typeof__(cairo_save) *save;
	__typeof__(cairo_restore) *restore;
	__typeof__(cairo_translate) *translate;
	__typeof__(cairo_set_source_surface) *set_source_surface;
	__typeof__(cairo_get_source) *get_source;
	__typeof__(cairo_pattern_set_filter) *pattern_set_filter;
	__typeof__(cairo_image_surface_create_from_png_stream) *image_surface_create_from_png_stream;
} cairo;

static pthread_once_t cairo_once = PTHREAD_ONCE_INIT;
static char cairo_problem[BOOTH_CANVAS_MESSAGE_MAX];

struct booth_canvas {
	int kind;
	cairo_surface_t *surface;
	cairo_t *cr;
	/* The PDF's bytes as cairo streams them. */
	uint8_t *bytes;
	size_t length, capacity;
	int out_of_memory;
};

static void set_message(char *message, const char *format, ...)
{
	if (message == NULL)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(message, BOOTH_CANVAS_MESSAGE_MAX, format, args);
	va_end(args);
}

#define RESOLVE(field, symbol)                                                                                 \
	do {                                                                                                   \
		*(void **)(&cairo.field) = dlsym(library, #symbol);                                            \
		if (cairo.field == NULL) {                                                                     \
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
		set_message(message, "%s", cairo_problem);
		return NULL;
	}
	if (!(width_mm >= 10 && width_mm <= 1000 && height_mm >= 10 && height_mm <= 1000)) {
		set_message(message, "a page of %.1f x %.1f mm is out of range (10...1000 mm)", width_mm, height_mm);
		return NULL;
	}
	if ((kind == BOOTH_CANVAS_PNG || kind == BOOTH_CANVAS_RGB) && !(dpi >= 50 && dpi <= 1200)) {
		set_message(message, "%.0f dpi is out of range (50...1200)", dpi);
		return NULL;
	}
	struct booth_canvas *canvas = calloc(1, sizeof *canvas);
	if (canvas == NULL) {
		set_message(message, "out of memory");
		return NULL;
	}
	canvas->kind = kind;
	double unit; /* device units per millimetre */
	switch (kind) {
	case BOOTH_CANVAS_PNG:
	case BOOTH_CANVAS_RGB: {
		unit = dpi / MM_PER_INCH;
		int width = (int)(width_mm * unit + 0.5), height = (int)(height_mm * unit + 0.5);
		canvas->surface = cairo.image_surface_create(CAIRO_FORMAT_RGB24, width, height);
		break;
	}
	case BOOTH_CANVAS_PDF:
		unit = POINTS_PER_INCH / MM_PER_INCH;
		canvas->surface = cairo.pdf_surface_create_for_stream(append, canvas, width_mm * unit, height_mm * unit);
		if (title != NULL && cairo.surface_status(canvas->surface) == CAIRO_STATUS_SUCCESS)
			cairo.pdf_surface_set_metadata(canvas->surface, CAIRO_PDF_METADATA_TITLE, title);
		break;
	default:
		set_message(message, "unknown canvas kind %d", kind);
		free(canvas);
		return NULL;
	}
	cairo_status_t status = cairo.surface_status(canvas->surface);
	if (status == CAIRO_STATUS_SUCCESS) {
		canvas->cr = cairo.create(canvas->surface);
		status = cairo.status(canvas->cr);
	}
	if (status != CAIRO_STATUS_SUCCESS) {
		set_message(message, "cairo cannot make the page: %s", cairo.status_to_string(status));
		booth_canvas_destroy(canvas);
		return NULL;
	}
	cairo.scale(canvas->cr, unit, unit);
	cairo.set_source_rgb(canvas->cr, 1, 1, 1);
	cairo.paint(canvas->cr);
	return canvas;
}

void booth_canvas_fill_rect(struct booth_canvas *canvas, double x, double y, double width, double height, double gray)
{
	cairo.set_source_rgb(canvas->cr, gray, gray, gray);
	cairo.rectangle(canvas->cr, x, y, width, height);
	cairo.fill(canvas->cr);
}

static void select_font(struct booth_canvas *canvas, double size_mm, int bold)
{
	cairo.select_font_face(canvas->cr, BOOTH_CANVAS_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo.set_font_size(canvas->cr, size_mm);
}

double booth_canvas_text_width(struct booth_canvas *canvas, const char *utf8, double size_mm, int bold)
{
	cairo_text_extents_t extents;
	select_font(canvas, size_mm, bold);
	cairo.text_extents(canvas->cr, utf8, &extents);
	return extents.x_advance;
}

void booth_canvas_text(struct booth_canvas *canvas, const char *utf8, double x, double baseline, double size_mm,
		       int bold, double gray)
{
	select_font(canvas, size_mm, bold);
	cairo.set_source_rgb(canvas->cr, gray, gray, gray);
	cairo.move_to(canvas->cr, x, baseline);
	cairo.show_text(canvas->cr, utf8);
}

/* Draws `image` (width x height pixels) scaled into the rectangle x, y, w, h (millimetres), filtered, over what is
 * drawn already, and releases it. */
static void draw_image(struct booth_canvas *canvas, cairo_surface_t *image, int width, int height, double x, double y,
		       double w, double h)
{
	cairo.save(canvas->cr);
	cairo.rectangle(canvas->cr, x, y, w, h);
	cairo.translate(canvas->cr, x, y);
	cairo.scale(canvas->cr, w / width, h / height);
	cairo.set_source_surface(canvas->cr, image, 0, 0);
	cairo.pattern_set_filter(cairo.get_source(canvas->cr), CAIRO_FILTER_GOOD);
	cairo.fill(canvas->cr);
	cairo.restore(canvas->cr);
	cairo.surface_destroy(image);
}

int booth_canvas_image(struct booth_canvas *canvas, const uint8_t *rgb, int width, int height, size_t stride, double x,
		       double y, double w, double h, char *message)
{
	if (width < 1 || height < 1 || width > 20000 || height > 20000 || stride < (size_t)width * 3 || !(w > 0) ||
	    !(h > 0)) {
		set_message(message, "an image of %d x %d pixels in %.1f x %.1f mm is out of range", width, height, w, h);
		return -1;
	}
	cairo_surface_t *image = cairo.image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	if (cairo.surface_status(image) != CAIRO_STATUS_SUCCESS) {
		set_message(message, "cairo cannot hold a %d x %d image: %s", width, height,
			    cairo.status_to_string(cairo.surface_status(image)));
		cairo.surface_destroy(image);
		return -1;
	}
	cairo.surface_flush(image);
	unsigned char *pixels = cairo.image_surface_get_data(image);
	int image_stride = cairo.image_surface_get_stride(image);
	for (int row = 0; row < height; row++) {
		const uint8_t *from = rgb + (size_t)row * stride;
		uint32_t *to = (uint32_t *)(pixels + (size_t)row * (size_t)image_stride);
		for (int column = 0; column < width; column++, from += 3)
			to[column] = (uint32_t)from[0] << 16 | (uint32_t)from[1] << 8 | from[2];
	}
	cairo.surface_mark_dirty(image);
	draw_image(canvas, image, width, height, x, y, w, h);
	return 0;
}

/* A PNG's bytes being read by cairo. */
struct png_reader {
	const uint8_t *bytes;
	size_t length, offset;
};

/* Cairo's read callback: the next `length` bytes of the PNG, or a read error past its end. */
static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int length)
{
	struct png_reader *reader = closure;
	if (length > reader->length - reader->offset)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, reader->bytes + reader->offset, length);
	reader->offset += length;
	return CAIRO_STATUS_SUCCESS;
}

int booth_canvas_png(struct booth_canvas *canvas, const uint8_t *png, size_t length, double x, double y, double w,
		     double h, char *message)
{
	if (png == NULL || length == 0 || !(w > 0) || !(h > 0)) {
		set_message(message, "a PNG of %zu bytes in %.1f x %.1f mm is out of range", length, w, h);
		return -1;
	}
	struct png_reader reader = { .bytes = png, .length = length, .offset = 0 };
	cairo_surface_t *image = cairo.image_surface_create_from_png_stream(read_png, &reader);
	cairo_status_t status = cairo.surface_status(image);
	if (status != CAIRO_STATUS_SUCCESS) {
		set_message(message, "cairo cannot read the PNG: %s", cairo.status_to_string(status));
		cairo.surface_destroy(image);
		return -1;
	}
	int width = cairo.image_surface_get_width(image), height = cairo.image_surface_get_height(image);
	if (width < 1 || height < 1) {
		set_message(message, "the PNG has no pixels (%d x %d)", width, height);
		cairo.surface_destroy(image);
		return -1;
	}
	/* Its alpha (cairo's premultiplied ARGB) is laid over what is drawn already: the white page. */
	draw_image(canvas, image, width, height, x, y, w, h);
	return 0;
}

void booth_canvas_pixel_size(const struct booth_canvas *canvas, int *width, int *height)
{
	if (canvas->kind == BOOTH_CANVAS_PDF) {
		*width = *height = 0;
		return;
	}
	*width = cairo.image_surface_get_width(canvas->surface);
	*height = cairo.image_surface_get_height(canvas->surface);
}

/* The RGB canvas's pixels, packed, into the canvas's buffer. */
static int pack_pixels(struct booth_canvas *canvas)
{
	cairo.surface_flush(canvas->surface);
	int width = cairo.image_surface_get_width(canvas->surface), height = cairo.image_surface_get_height(canvas->surface);
	int stride = cairo.image_surface_get_stride(canvas->surface);
	const unsigned char *pixels = cairo.image_surface_get_data(canvas->surface);
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
	cairo_status_t status = cairo.status(canvas->cr);
	if (status == CAIRO_STATUS_SUCCESS) {
		cairo.destroy(canvas->cr);
		canvas->cr = NULL;
		if (canvas->kind == BOOTH_CANVAS_PNG) {
			cairo.surface_flush(canvas->surface);
			status = cairo.surface_write_to_png_stream(canvas->surface, append, canvas);
		} else if (canvas->kind == BOOTH_CANVAS_RGB) {
			pack_pixels(canvas);
		} else {
			cairo.surface_finish(canvas->surface);
			status = cairo.surface_status(canvas->surface);
		}
	}
	if (status != CAIRO_STATUS_SUCCESS || canvas->out_of_memory) {
		set_message(message, "cairo cannot finish the page: %s",
			    canvas->out_of_memory ? "out of memory" : cairo.status_to_string(status));
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
		cairo.destroy(canvas->cr);
	if (canvas->surface != NULL)
		cairo.surface_destroy(canvas->surface);
	free(canvas->bytes);
	free(canvas);
}
