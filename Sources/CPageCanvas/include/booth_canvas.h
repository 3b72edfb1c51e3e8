/*
 * booth_canvas: the page the join card and the print layouts are drawn on, over
 * cairo. Cairo (and the fontconfig, freetype and X libraries it brings) is
 * loaded with dlopen the first time a canvas is made, so `booth gallery`, and
 * `booth run` unless it prints a layout, never map it.
 *
 * Coordinates and sizes are millimetres from the top left corner. A PNG canvas
 * or RGB canvas is drawn at `dpi` pixels per inch; a PDF canvas is vector
 * (points).
 *
 * Errors: functions that can fail return NULL or -1 with a human-readable
 * reason in `message` (BOOTH_CANVAS_MESSAGE_MAX bytes, always NUL-terminated).
 */
#ifndef BOOTH_CANVAS_H
#define BOOTH_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of every `message` buffer. */
#define BOOTH_CANVAS_MESSAGE_MAX 256

/** What a canvas's bytes are. */
enum booth_canvas_kind {
	/** A PNG image (8-bit RGB). */
	BOOTH_CANVAS_PNG = 0,
	/** A one-page PDF document. */
	BOOTH_CANVAS_PDF = 1,
	/** Packed 8-bit RGB pixels, row after row (for a JPEG encoder). */
	BOOTH_CANVAS_RGB = 2,
};

/** A page being drawn. */
struct booth_canvas;

/**
 * A white page of width x height millimetres of `kind`; `dpi` sets a PNG's
 * pixels (ignored for a PDF), `title` a PDF's title. NULL on failure (cairo
 * missing, a size out of range).
 */
struct booth_canvas *booth_canvas_create(int kind, double width_mm, double height_mm, double dpi, const char *title,
					 char *message);

/** Fills a rectangle with a grey level (0 black, 1 white). */
void booth_canvas_fill_rect(struct booth_canvas *canvas, double x, double y, double width, double height, double gray);

/** The width, in millimetres, `utf8` takes in the card's sans-serif font at `size_mm`. */
double booth_canvas_text_width(struct booth_canvas *canvas, const char *utf8, double size_mm, int bold);

/** Draws `utf8` with its left end at x and its baseline at `baseline`. */
void booth_canvas_text(struct booth_canvas *canvas, const char *utf8, double x, double baseline, double size_mm,
		       int bold, double gray);

/**
 * Draws a packed 8-bit RGB image of width x height pixels (rows `stride`
 * bytes apart) scaled to fill the rectangle at x, y of w x h millimetres.
 * 0 on success, -1 on failure (a size out of range, no memory).
 */
int booth_canvas_image(struct booth_canvas *canvas, const uint8_t *rgb, int width, int height, size_t stride, double x,
		       double y, double w, double h, char *message);

/**
 * Draws the PNG in `png` (`length` bytes; any of its colour types, its
 * transparency laid over what is drawn beneath) scaled to fill the rectangle
 * at x, y of w x h millimetres. The caller checks its size first: cairo
 * decodes it whole. 0 on success, -1 on failure (not a PNG cairo can read,
 * no memory).
 */
int booth_canvas_png(struct booth_canvas *canvas, const uint8_t *png, size_t length, double x, double y, double w,
		     double h, char *message);

/** The page's size in pixels (a PNG or RGB canvas; 0 x 0 for a PDF). */
void booth_canvas_pixel_size(const struct booth_canvas *canvas, int *width, int *height);

/**
 * Ends the page and hands its file's bytes in `*bytes` (malloc'd; the caller
 * frees them) and `*length`. 0 on success, -1 on failure (nothing allocated).
 */
int booth_canvas_finish(struct booth_canvas *canvas, uint8_t **bytes, size_t *length, char *message);

/** Frees a canvas, finished or not. NULL is ignored. */
void booth_canvas_destroy(struct booth_canvas *canvas);

#ifdef __cplusplus
}
#endif

#endif
