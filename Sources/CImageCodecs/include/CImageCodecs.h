// Thin C wrappers over libpng and libjpeg-turbo for pagedots's image decoders.
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

#endif
