// Thin C wrappers over libpng and libjpeg-turbo for pagedots's image decoders, the box
// reduction that a PNG streams through (and that the decoders which cannot scale share), and
// libheif decoders (libde265, dav1d) that bound the frames they allocate.
//
// Both libraries report fatal errors by calling a function that must not
// return: a longjmp back into the caller. A longjmp must not cross Swift
// frames, so every call into them happens here, in C, under a setjmp, and
// each function returns a status with the library's message instead.
#ifndef PAGEDOTS_IMAGE_CODECS_H
#define PAGEDOTS_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

enum {
    /// Done.
    PD_OK = 0,
    /// The library refused the data; `message` says why.
    PD_CORRUPT = 1,
    /// The header gives a size over the limits (PNG: libpng's user limits).
    PD_TOO_LARGE = 2,
};

/// What a probe or a decode learnt, and why it failed.
typedef struct {
    /// The image's size as stored (for a JPEG, before its EXIF orientation).
    uint32_t width;
    uint32_t height;
    /// The library's message when the status is not PD_OK.
    char message[160];
} pd_image_info;

/// Decodes a PNG (its default image; an APNG's first frame) into straight
/// RGBA, 8 bits a channel, into `rgba`, which holds `width` × `height` × 4
/// bytes: every colour type and bit depth is expanded, 16-bit channels are
/// scaled to 8, transparency (tRNS) becomes alpha, interlacing is undone.
/// Gamma and colour profiles are not applied. A header that gives another
/// size is refused: a larger one (libpng's user limits) with PD_TOO_LARGE.
/// With `rgba` NULL, only the header (through the first IDAT) is read: its
/// size goes into `info`, and `width` × `height` are the largest allowed.
int pd_png_decode(const void *data, size_t size, uint32_t width, uint32_t height, void *rgba, pd_image_info *info);

/// Decodes a PNG as pd_png_decode does, reduced by `factor` (1…256) while
/// it streams, into `rgba`, which holds ceil(`width` / `factor`) ×
/// ceil(`height` / `factor`) × 4 bytes: every pixel (x, y) adds to the cell
/// (x / `factor`, y / `factor`), whatever the order the file gives it in
/// (an interlaced file's passes), and each cell is the average of its
/// pixels in premultiplied alpha (so that a transparent pixel's colour does
/// not bleed), unpremultiplied and rounded: colour Σ(c × a) / Σa (black
/// when Σa is 0), alpha Σa / n, for the n pixels of the cell (fewer at the
/// right and bottom edges). Rows are read one at a time: the memory is one
/// row at full size and the cells' sums, 16 bytes a cell, for one row of
/// cells (for all of them when the file is interlaced). Errors as
/// pd_png_decode's.
int pd_png_decode_reduced(const void *data, size_t size, uint32_t width, uint32_t height, unsigned factor, void *rgba,
                          pd_image_info *info);

/// Sums for reducing a `width` × `height` image by a whole factor as
/// pd_png_decode_reduced does, to which pixels are added as they come:
/// for decoders that give rows (or planes) rather than take a callback.
typedef struct pd_box_reducer pd_box_reducer;

/// A reducer by `factor` (1…256) with sums for one row of cells, or with
/// `every_row` for all of them (for pixels that come in any order). NULL
/// when out of memory.
pd_box_reducer *pd_box_reducer_new(uint32_t width, uint32_t height, unsigned factor, int every_row);

void pd_box_reducer_free(pd_box_reducer *reducer);

/// Adds `count` straight RGBA pixels from `rgba` to the cells of row `y`,
/// at columns `first_x`, `first_x + x_step`, … (an interlaced pass's row
/// has a step over 1).
void pd_box_reducer_add(pd_box_reducer *reducer, const uint8_t *rgba, uint32_t count, uint32_t first_x, uint32_t x_step,
                        uint32_t y);

/// For a reducer of one row of cells, with rows added in order: adds row
/// `y` (every column) and, when it is the last row of its cells, writes
/// them into `reduced` (the whole reduced image) and clears them.
void pd_box_reducer_add_row(pd_box_reducer *reducer, const uint8_t *rgba, uint32_t y, uint8_t *reduced);

/// Writes every cell into `reduced`, the whole reduced image (after every
/// pixel was added to a reducer made with `every_row`).
void pd_box_reducer_finish(const pd_box_reducer *reducer, uint8_t *reduced);

/// Decodes a JPEG into straight RGBA (alpha 255) in `rgba`, scaled down by
/// `scale_denominator` (1, 2, 4 or 8) and turned by its EXIF `orientation`
/// (1–8: rows and columns placed where a browser shows them). `rgba` holds
/// the oriented output size × 4 bytes; `expected_width` × `expected_height`
/// is the scaled size before orientation, checked against the library's.
/// Grey, YCbCr, RGB, CMYK and YCCK (Adobe's inverted CMYK) are read; the
/// decoder's memory is bounded by `max_memory` bytes (0: unbounded) and a
/// progressive file by 500 scans. A file cut short is refused, as are the
/// errors libjpeg treats as fatal; other corrupt data is decoded as browsers
/// show it. With `rgba` NULL, only the header is read: the stored size goes
/// into `info`.
int pd_jpeg_decode(const void *data, size_t size, unsigned scale_denominator, int orientation,
                   uint32_t expected_width, uint32_t expected_height, long max_memory,
                   void *rgba, pd_image_info *info);

/// Registers, once for the process and before any decoding, decoders that
/// libheif prefers to its own: HEVC through libde265 and AV1 through dav1d,
/// each refusing a frame larger than the calling thread's frame limits
/// (pd_heif_set_frame_limits) before it allocates it, and decoding on the
/// calling thread. libheif 1.15's own decoders take the size the codec's
/// header declares on trust (dav1d up to 2^30 pixels), whatever the file's
/// boxes say. A refusal is libheif's security error, worded as libheif words
/// its own: "Image size WxH exceeds the maximum image size …". libde265's
/// refusal is read from each sequence parameter set before libde265 sees it
/// (the side and the pixels); dav1d's is its own frame_size_limit (the
/// pixels), which these decoders set, and whose message they recognise.
/// Their other messages become the errors' reasons instead of going to stderr.
void pd_heif_register_bounded_decoders(void);

/// The largest frame the bounded decoders decode on the calling thread:
/// `max_side` pixels a side, `max_pixels` in all. Until it is called, a
/// thread's frames are all refused.
void pd_heif_set_frame_limits(uint32_t max_side, uint64_t max_pixels);

#endif
