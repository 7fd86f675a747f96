/*
 * render.c -- the anchor for drawing: the least a C program has to do to
 * turn a row of dots into a PNG with Cairo, timed.
 *
 * The image is what pagedots draws for
 *   pages=N&scale=S&size=8&spacing=8&padding=0&height=16   (and &fill=outline&stroke=1 for "ring")
 * a row of N dots 8 pt across and 8 pt apart on a transparent canvas 16 pt
 * high, the first dot #007AFF, the others #007AFF at alpha 77 (or, for
 * "ring", 1 pt rings lying inside the dot's outline). Cairo draws it into an
 * ARGB32 image surface, and Cairo's own PNG writer
 * (cairo_surface_write_to_png_stream) writes it into memory.
 *
 * Usage:
 *   render bench [SPEC...]        median µs per image: draw, write, both
 *   render write DIR [SPEC...]    write DIR/dots-nN-sS.png (or ring-…) with Cairo's writer
 * SPEC is N,SCALE or N,SCALE,ring (5,2  20,2  5,2,ring); the default list is below.
 * Env: REPS (5) timed repeats, TARGET_MS (60) milliseconds each; the
 * repeat's count of images is calibrated to take about that long.
 *
 * Built and run by bench/anchors/render.
 */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DOT = 8, GAP = 8, CANVAS = 16, MAX_REPS = 99 };
static const double TURN = 6.283185307179586; /* 2π radians: a whole circle */

typedef struct {
    int pages, scale, ring;
} Spec;

typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
} Buffer;

static const char *default_specs[] = {
    "5,1", "5,2", "5,3", "20,1", "20,2", "20,3", "100,1", "100,2", "100,3", "5,2,ring", "20,2,ring",
};

static int pixel_width(Spec s) { return (s.pages * DOT + (s.pages - 1) * GAP) * s.scale; }
static int pixel_height(Spec s) { return CANVAS * s.scale; }

static void die(const char *what, const char *detail) {
    fprintf(stderr, "render: %s: %s\n", what, detail);
    exit(1);
}

static int parse_spec(const char *text, Spec *spec) {
    char rest[8] = "";
    int fields = sscanf(text, "%d,%d,%7s", &spec->pages, &spec->scale, rest);
    spec->ring = fields == 3 && strcmp(rest, "ring") == 0;
    return (fields == 2 || spec->ring) && spec->pages >= 1 && spec->pages <= 1000 && spec->scale >= 1 && spec->scale <= 4;
}

/* Surface, drawing and flush: all a server does before it writes the PNG. */
static cairo_surface_t *draw(Spec s) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixel_width(s), pixel_height(s));
    cairo_t *cr = cairo_create(surface); /* a new image surface is transparent */
    cairo_scale(cr, s.scale, s.scale);
    const double radius = DOT / 2.0, y = CANVAS / 2.0;
    /* The other dots as one path, filled or stroked once. */
    cairo_set_source_rgba(cr, 0, 122 / 255.0, 1, 77 / 255.0);
    for (int i = 1; i < s.pages; i++) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, radius + i * (DOT + GAP), y, s.ring ? radius - 0.5 : radius, 0, TURN);
    }
    if (s.ring) {
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    } else {
        cairo_fill(cr);
    }
    cairo_set_source_rgba(cr, 0, 122 / 255.0, 1, 1);
    cairo_arc(cr, radius, y, radius, 0, TURN);
    cairo_fill(cr);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) die("draw", cairo_status_to_string(cairo_status(cr)));
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    return surface;
}

static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length) {
    Buffer *buffer = closure;
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->count + length) capacity *= 2;
        unsigned char *bytes = realloc(buffer->bytes, capacity);
        if (!bytes) return CAIRO_STATUS_NO_MEMORY;
        buffer->bytes = bytes;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
    return CAIRO_STATUS_SUCCESS;
}

/* Cairo's PNG writer into memory; returns the PNG's size. */
static size_t write_png(cairo_surface_t *surface, Buffer *buffer) {
    buffer->count = 0;
    cairo_status_t status = cairo_surface_write_to_png_stream(surface, append, buffer);
    if (status != CAIRO_STATUS_SUCCESS) die("write", cairo_status_to_string(status));
    return buffer->count;
}

typedef enum { DRAW, WRITE, BOTH } Step;

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Seconds for `count` images of one step; `drawn` is the surface WRITE writes. */
static double time_step(Spec s, Step step, long count, cairo_surface_t *drawn, Buffer *buffer) {
    volatile size_t sink = 0; /* keeps the work from being optimised away */
    double start = seconds_now();
    for (long i = 0; i < count; i++) {
        if (step == WRITE) {
            sink += write_png(drawn, buffer);
            continue;
        }
        cairo_surface_t *surface = draw(s);
        sink += step == BOTH ? write_png(surface, buffer) : (size_t)cairo_image_surface_get_width(surface);
        cairo_surface_destroy(surface);
    }
    (void)sink;
    return seconds_now() - start;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median µs per image over `reps` repeats, each of a count calibrated to last `target` seconds. */
static double microseconds_per_image(Spec s, Step step, cairo_surface_t *drawn, Buffer *buffer, int reps, double target) {
    long count = 1;
    double elapsed;
    time_step(s, step, 3, drawn, buffer); /* warm-up */
    while ((elapsed = time_step(s, step, count, drawn, buffer)) < target / 10 && count < (1L << 30)) count *= 2;
    count = (long)fmax(1, count * target / fmax(elapsed, 1e-9));
    double each[MAX_REPS];
    for (int i = 0; i < reps; i++) each[i] = time_step(s, step, count, drawn, buffer) / count * 1e6;
    qsort(each, (size_t)reps, sizeof each[0], by_value);
    return each[reps / 2];
}

static int environment_number(const char *name, int fallback, int low, int high) {
    const char *text = getenv(name);
    int value = text ? atoi(text) : fallback;
    return value < low ? low : value > high ? high : value;
}

int main(int argc, char **argv) {
    int writing = argc >= 3 && strcmp(argv[1], "write") == 0;
    if (!writing && !(argc >= 2 && strcmp(argv[1], "bench") == 0)) {
        fprintf(stderr, "usage: render bench [N,SCALE[,ring]...] | render write DIR [N,SCALE[,ring]...]\n");
        return 2;
    }
    int first = writing ? 3 : 2;
    const char **specs = argc > first ? (const char **)argv + first : default_specs;
    int count = argc > first ? argc - first : (int)(sizeof default_specs / sizeof default_specs[0]);
    int reps = environment_number("REPS", 5, 1, MAX_REPS);
    double target = environment_number("TARGET_MS", 60, 1, 60000) / 1000.0;
    Buffer buffer = {0};

    if (!writing) {
        printf("# cairo %s; median of %d repeats of about %.0f ms, wall clock; draw = surface, drawing, flush, destroy\n",
               cairo_version_string(), reps, target * 1000);
        printf("%-7s %5s %5s %-10s %7s %10s %10s %10s\n", "variant", "N", "scale", "WxH", "bytes", "draw_us", "write_us", "both_us");
    }
    for (int i = 0; i < count; i++) {
        Spec s;
        if (!parse_spec(specs[i], &s)) die("not N,SCALE[,ring] with N 1-1000 and SCALE 1-4", specs[i]);
        cairo_surface_t *drawn = draw(s);
        size_t bytes = write_png(drawn, &buffer);
        const char *variant = s.ring ? "ring" : "dots";
        if (writing) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-n%d-s%d.png", argv[2], variant, s.pages, s.scale);
            FILE *file = fopen(path, "wb");
            if (!file || fwrite(buffer.bytes, 1, bytes, file) != bytes || fclose(file) != 0) die(path, strerror(errno));
            printf("%s\n", path);
        } else {
            double draw_us = microseconds_per_image(s, DRAW, drawn, &buffer, reps, target);
            double write_us = microseconds_per_image(s, WRITE, drawn, &buffer, reps, target);
            double both_us = microseconds_per_image(s, BOTH, drawn, &buffer, reps, target);
            char size[32];
            snprintf(size, sizeof size, "%dx%d", pixel_width(s), pixel_height(s));
            printf("%-7s %5d %5d %-10s %7zu %10.2f %10.2f %10.2f\n", variant, s.pages, s.scale, size, bytes, draw_us, write_us, both_us);
        }
        cairo_surface_destroy(drawn);
        fflush(stdout);
    }
    free(buffer.bytes);
    return 0;
}
