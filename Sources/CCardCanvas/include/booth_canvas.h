/*
 * booth_canvas: the join card's drawing surface, over cairo. Cairo (and the
 * fontconfig, freetype and X libraries it brings) is loaded with dlopen the
 * first time a canvas is made, so `booth run` and `booth gallery`, the same
 * binary, never map it.
 *
 * Coordinates and sizes are millimetres from the top left corner. A PNG canvas
 * is drawn at `dpi` pixels per inch; a PDF canvas is vector (points).
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
