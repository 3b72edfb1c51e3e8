/* booth_canvas_draw: what is drawn on a page: grey rectangles, text, RGB images and PNGs. */
#include "booth_canvas_internal.h"

#include <cairo.h>
#include <stdint.h>
#include <string.h>

/* The sans-serif family every card uses (Debian's fonts-dejavu-core, a dependency of the package). */
#define BOOTH_CANVAS_FONT "DejaVu Sans"

void booth_canvas_fill_rect(struct booth_canvas *canvas, double x, double y, double width, double height, double gray)
{
	booth_cairo.set_source_rgb(canvas->cr, gray, gray, gray);
	booth_cairo.rectangle(canvas->cr, x, y, width, height);
	booth_cairo.fill(canvas->cr);
}

static void select_font(struct booth_canvas *canvas, double size_mm, int bold)
{
	booth_cairo.select_font_face(canvas->cr, BOOTH_CANVAS_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	booth_cairo.set_font_size(canvas->cr, size_mm);
}

double booth_canvas_text_width(struct booth_canvas *canvas, const char *utf8, double size_mm, int bold)
{
	cairo_text_extents_t extents;
	select_font(canvas, size_mm, bold);
	booth_cairo.text_extents(canvas->cr, utf8, &extents);
	return extents.x_advance;
}

void booth_canvas_text(struct booth_canvas *canvas, const char *utf8, double x, double baseline, double size_mm,
		       int bold, double gray)
{
	select_font(canvas, size_mm, bold);
	booth_cairo.set_source_rgb(canvas->cr, gray, gray, gray);
	booth_cairo.move_to(canvas->cr, x, baseline);
	booth_cairo.show_text(canvas->cr, utf8);
}

/* Draws `image` (width x height pixels) scaled into the rectangle x, y, w, h (millimetres), filtered, over what is
 * drawn already, and releases it. */
static void draw_image(struct booth_canvas *canvas, cairo_surface_t *image, int width, int height, double x, double y,
		       double w, double h)
{
	booth_cairo.save(canvas->cr);
	booth_cairo.rectangle(canvas->cr, x, y, w, h);
	booth_cairo.translate(canvas->cr, x, y);
	booth_cairo.scale(canvas->cr, w / width, h / height);
	booth_cairo.set_source_surface(canvas->cr, image, 0, 0);
	booth_cairo.pattern_set_filter(booth_cairo.get_source(canvas->cr), CAIRO_FILTER_GOOD);
	booth_cairo.fill(canvas->cr);
	booth_cairo.restore(canvas->cr);
	booth_cairo.surface_destroy(image);
}

int booth_canvas_image(struct booth_canvas *canvas, const uint8_t *rgb, int width, int height, size_t stride, double x,
		       double y, double w, double h, char *message)
{
	if (width < 1 || height < 1 || width > 20000 || height > 20000 || stride < (size_t)width * 3 || !(w > 0) ||
	    !(h > 0)) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "an image of %d x %d pixels in %.1f x %.1f mm is out of range", width,
					 height, w, h);
		return -1;
	}
	cairo_surface_t *image = booth_cairo.image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	if (booth_cairo.surface_status(image) != CAIRO_STATUS_SUCCESS) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "cairo cannot hold a %d x %d image: %s", width, height,
					 booth_cairo.status_to_string(booth_cairo.surface_status(image)));
		booth_cairo.surface_destroy(image);
		return -1;
	}
	booth_cairo.surface_flush(image);
	unsigned char *pixels = booth_cairo.image_surface_get_data(image);
	int image_stride = booth_cairo.image_surface_get_stride(image);
	for (int row = 0; row < height; row++) {
		const uint8_t *from = rgb + (size_t)row * stride;
		uint32_t *to = (uint32_t *)(pixels + (size_t)row * (size_t)image_stride);
		for (int column = 0; column < width; column++, from += 3)
			to[column] = (uint32_t)from[0] << 16 | (uint32_t)from[1] << 8 | from[2];
	}
	booth_cairo.surface_mark_dirty(image);
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
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "a PNG of %zu bytes in %.1f x %.1f mm is out of range", length, w,
					 h);
		return -1;
	}
	struct png_reader reader = { .bytes = png, .length = length, .offset = 0 };
	cairo_surface_t *image = booth_cairo.image_surface_create_from_png_stream(read_png, &reader);
	cairo_status_t status = booth_cairo.surface_status(image);
	if (status != CAIRO_STATUS_SUCCESS) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "cairo cannot read the PNG: %s",
					 booth_cairo.status_to_string(status));
		booth_cairo.surface_destroy(image);
		return -1;
	}
	int width = booth_cairo.image_surface_get_width(image), height = booth_cairo.image_surface_get_height(image);
	if (width < 1 || height < 1) {
		booth_message_set(message, BOOTH_CANVAS_MESSAGE_MAX, "the PNG has no pixels (%d x %d)", width, height);
		booth_cairo.surface_destroy(image);
		return -1;
	}
	/* Its alpha (cairo's premultiplied ARGB) is laid over what is drawn already: the white page. */
	draw_image(canvas, image, width, height, x, y, w, h);
	return 0;
}
