/* booth_canvas_internal: cairo's calls as loaded, the page being drawn, and the helpers the shim's files share
 * (internal header). */
#ifndef BOOTH_CANVAS_INTERNAL_H
#define BOOTH_CANVAS_INTERNAL_H

#include "booth_message.h"
#include "booth_canvas.h"

#include <cairo-pdf.h>
#include <cairo.h>

/* Shared by booth_canvas.c (loading cairo, the page made and finished) and booth_canvas_draw.c (what is drawn on
 * it). */

/* Cairo's calls, resolved once from libcairo.so.2 (typed by its own header). */
struct booth_cairo_calls {
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
};

/* booth_canvas.c: the calls, filled in when the first canvas is made. */
extern struct booth_cairo_calls booth_cairo;

struct booth_canvas {
	int kind;
	cairo_surface_t *surface;
	cairo_t *cr;
	/* The PDF's bytes as cairo streams them. */
	uint8_t *bytes;
	size_t length, capacity;
	int out_of_memory;
};

#endif
