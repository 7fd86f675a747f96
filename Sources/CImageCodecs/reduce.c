#include "CImageCodecs.h"

#include <stdlib.h>
#include <string.h>

struct pd_box_reducer {
    uint32_t width, height, factor;
    uint32_t reduced_width, reduced_height;
    int every_row;
    /// Four a cell: red × alpha, green × alpha, blue × alpha, alpha. A cell
    /// holds at most 256 × 256 pixels, so each sum stays under 2^32.
    uint32_t sums[];
};

pd_box_reducer *pd_box_reducer_new(uint32_t width, uint32_t height, unsigned factor, int every_row) {
    if (factor < 1 || factor > 256) return NULL;
    uint32_t reduced_width = (width + factor - 1) / factor, reduced_height = (height + factor - 1) / factor;
    size_t cells = (size_t)reduced_width * (every_row ? reduced_height : 1);
    pd_box_reducer *reducer = calloc(1, sizeof(pd_box_reducer) + cells * 4 * sizeof(uint32_t));
    if (reducer == NULL) return NULL;
    *reducer = (pd_box_reducer){width, height, factor, reduced_width, reduced_height, every_row};
    return reducer;
}

void pd_box_reducer_free(pd_box_reducer *reducer) {
    free(reducer);
}

void pd_box_reducer_add(pd_box_reducer *reducer, const uint8_t *rgba, uint32_t count, uint32_t first_x, uint32_t x_step, uint32_t y) {
    uint32_t *row = reducer->sums + (reducer->every_row ? (size_t)(y / reducer->factor) * reducer->reduced_width * 4 : 0);
    for (uint32_t i = 0, x = first_x; i < count; i++, x += x_step) {
        const uint8_t *pixel = rgba + 4 * (size_t)i;
        uint32_t alpha = pixel[3];
        uint32_t *cell = row + 4 * (size_t)(x / reducer->factor);
        cell[0] += pixel[0] * alpha;
        cell[1] += pixel[1] * alpha;
        cell[2] += pixel[2] * alpha;
        cell[3] += alpha;
    }
}

/// Writes the cells of reduced row `reduced_y` from `sums`: each the
/// alpha-weighted mean of its pixels' colours (what averaging in
/// premultiplied alpha gives once unpremultiplied; black where all are
/// transparent) and the mean of their alphas, rounded to nearest.
static void write_cells(const pd_box_reducer *reducer, const uint32_t *sums, uint32_t reduced_y, uint8_t *reduced) {
    uint32_t factor = reducer->factor;
    uint32_t rows = reducer->height - reduced_y * factor < factor ? reducer->height - reduced_y * factor : factor;
    uint8_t *out = reduced + (size_t)reduced_y * reducer->reduced_width * 4;
    for (uint32_t x = 0; x < reducer->reduced_width; x++) {
        uint32_t columns = reducer->width - x * factor < factor ? reducer->width - x * factor : factor;
        uint64_t pixels = (uint64_t)rows * columns;
        const uint32_t *cell = sums + 4 * (size_t)x;
        uint64_t alpha = cell[3];
        for (int channel = 0; channel < 3; channel++) {
            out[4 * x + channel] = alpha == 0 ? 0 : (uint8_t)((cell[channel] + alpha / 2) / alpha);
        }
        out[4 * x + 3] = (uint8_t)((alpha + pixels / 2) / pixels);
    }
}

void pd_box_reducer_add_row(pd_box_reducer *reducer, const uint8_t *rgba, uint32_t y, uint8_t *reduced) {
    pd_box_reducer_add(reducer, rgba, reducer->width, 0, 1, y);
    if (y % reducer->factor != reducer->factor - 1 && y != reducer->height - 1) return;
    write_cells(reducer, reducer->sums, y / reducer->factor, reduced);
    memset(reducer->sums, 0, (size_t)reducer->reduced_width * 4 * sizeof(uint32_t));
}

void pd_box_reducer_finish(const pd_box_reducer *reducer, uint8_t *reduced) {
    for (uint32_t y = 0; y < reducer->reduced_height; y++) {
        write_cells(reducer, reducer->sums + (size_t)y * reducer->reduced_width * 4, y, reduced);
    }
}
