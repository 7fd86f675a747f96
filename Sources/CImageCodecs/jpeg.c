#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
// jpeglib.h needs FILE and size_t declared before it.
#include <jpeglib.h>
#include <jerror.h>
#include <string.h>

/// The most scans a progressive file may have: a few thousand tiny scans
/// take minutes to decode (libjpeg-turbo's own tools stop at 500 too).
enum { max_scans = 500 };

/// libjpeg's error manager, with where to jump back to and where the message goes.
typedef struct {
    struct jpeg_error_mgr manager;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    pd_image_info *info;
} jpeg_session;

static void jpeg_fail(j_common_ptr common) {
    jpeg_session *session = (jpeg_session *)common->err;
    if (common->err->msg_code == JERR_NO_BACKING_STORE) {
        // libjpeg asks for disk space when its memory limit is reached: say what happened.
        snprintf(session->info->message, sizeof session->info->message,
                 "decoding it needs more than %ld MiB", common->mem->max_memory_to_use >> 20);
    } else {
        char text[JMSG_LENGTH_MAX];
        common->err->format_message(common, text);
        snprintf(session->info->message, sizeof session->info->message, "%s", text);
    }
    longjmp(session->jump, 1);
}

/// Warnings are silent, but a file that ends early (libjpeg would pad it
/// with grey) is an error.
static void jpeg_warn(j_common_ptr common, int level) {
    if (level < 0 && common->err->msg_code == JWRN_JPEG_EOF) jpeg_fail(common);
}

static void jpeg_count_scans(j_common_ptr common) {
    j_decompress_ptr decoder = (j_decompress_ptr)common;
    if (decoder->is_decompressor && decoder->input_scan_number > max_scans) {
        jpeg_session *session = (jpeg_session *)common->err;
        snprintf(session->info->message, sizeof session->info->message, "more than %d progressive scans", max_scans);
        longjmp(session->jump, 1);
    }
}

static void jpeg_open(jpeg_session *session, struct jpeg_decompress_struct *decoder, const void *data, size_t size) {
    decoder->err = jpeg_std_error(&session->manager);
    session->manager.error_exit = jpeg_fail;
    session->manager.emit_message = jpeg_warn;
    jpeg_create_decompress(decoder);
    session->progress.progress_monitor = jpeg_count_scans;
    decoder->progress = &session->progress;
    jpeg_mem_src(decoder, data, (unsigned long)size);
}

/// Where pixel (x, y) of the stored image goes in the output, as an index,
/// for EXIF orientation 1–8 (TIFF 6.0, tag 274); `width` × `height` is the
/// stored size.
static size_t oriented_index(int orientation, size_t x, size_t y, size_t width, size_t height) {
    switch (orientation) {
    case 2: return y * width + (width - 1 - x);                      // mirrored
    case 3: return (height - 1 - y) * width + (width - 1 - x);       // turned 180°
    case 4: return (height - 1 - y) * width + x;                     // flipped
    case 5: return x * height + y;                                   // transposed
    case 6: return x * height + (height - 1 - y);                    // turned 90° clockwise
    case 7: return (width - 1 - x) * height + (height - 1 - y);      // transversed
    case 8: return (width - 1 - x) * height + y;                     // turned 90° anticlockwise
    default: return y * width + x;
    }
}

/// One row of CMYK as libjpeg gives it (Adobe's files store it inverted,
/// which libjpeg passes through) as RGB over white.
static void cmyk_row_to_rgba(const JSAMPLE *cmyk, unsigned char *rgba, size_t width, int inverted) {
    for (size_t x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgba[4 * x] = (unsigned char)((c * k + 127) / 255);
        rgba[4 * x + 1] = (unsigned char)((m * k + 127) / 255);
        rgba[4 * x + 2] = (unsigned char)((y * k + 127) / 255);
        rgba[4 * x + 3] = 255;
    }
}

int pd_jpeg_decode(const void *data, size_t size, unsigned scale_denominator, int orientation,
                   uint32_t expected_width, uint32_t expected_height, long max_memory,
                   void *rgba, pd_image_info *info) {
    jpeg_session session = {.info = info};
    // Zeroed: an error inside jpeg_create_decompress (a version mismatch) jumps back before it is set up.
    struct jpeg_decompress_struct decoder = {0};
    if (setjmp(session.jump)) {
        jpeg_destroy_decompress(&decoder);
        return PD_CORRUPT;
    }
    jpeg_open(&session, &decoder, data, size);
    decoder.mem->max_memory_to_use = max_memory;
    jpeg_read_header(&decoder, TRUE);
    info->width = decoder.image_width;
    info->height = decoder.image_height;
    if (rgba == NULL) {
        jpeg_destroy_decompress(&decoder);
        return PD_OK;
    }
    int cmyk = decoder.jpeg_color_space == JCS_CMYK || decoder.jpeg_color_space == JCS_YCCK;
    decoder.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    decoder.scale_num = 1;
    decoder.scale_denom = scale_denominator;
    jpeg_start_decompress(&decoder);
    size_t width = decoder.output_width, height = decoder.output_height;
    if (width != expected_width || height != expected_height || decoder.output_components != 4) {
        snprintf(info->message, sizeof info->message, "unexpected output of %zux%zu pixels", width, height);
        jpeg_destroy_decompress(&decoder);
        return PD_CORRUPT;
    }
    // One row at a time through the decoder's own buffer, then placed where the orientation puts it.
    JSAMPARRAY row = decoder.mem->alloc_sarray((j_common_ptr)&decoder, JPOOL_IMAGE, (JDIMENSION)(width * 4), 1);
    uint32_t *out = rgba;
    while (decoder.output_scanline < height) {
        size_t y = decoder.output_scanline;
        jpeg_read_scanlines(&decoder, row, 1);
        if (cmyk) cmyk_row_to_rgba(row[0], row[0], width, decoder.saw_Adobe_marker);
        if (orientation == 1) {
            memcpy(out + y * width, row[0], width * 4);
        } else {
            for (size_t x = 0; x < width; x++) {
                memcpy(out + oriented_index(orientation, x, y, width, height), row[0] + 4 * x, 4);
            }
        }
    }
    jpeg_finish_decompress(&decoder);
    jpeg_destroy_decompress(&decoder);
    return PD_OK;
}
