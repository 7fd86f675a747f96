#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Where libpng reads from, and where its error goes.
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    pd_image_info *info;
    int status;
} png_source;

static void png_read_memory(png_structp png, png_bytep out, size_t count) {
    png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "the file ends early (truncated?)");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static void png_fail(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    snprintf(source->info->message, sizeof source->info->message, "%s", message);
    png_longjmp(png, 1);
}

/// Warnings are silent, but the one libpng gives before refusing a header
/// over the user limits ("Image width exceeds user limit in IHDR", then the
/// error "Invalid IHDR data") makes the refusal PD_TOO_LARGE.
static void png_warn(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    if (strstr(message, "exceeds user limit") != NULL) source->status = PD_TOO_LARGE;
}

/// A read struct over `source`, with the limits set; 0 when out of memory
/// (said in `source`'s message).
static int png_open(png_source *source, png_structp *png, png_infop *info_ptr, uint32_t max_width, uint32_t max_height) {
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, png_fail, png_warn);
    *info_ptr = *png == NULL ? NULL : png_create_info_struct(*png);
    if (*info_ptr == NULL) {
        if (*png != NULL) png_destroy_read_struct(png, NULL, NULL);
        snprintf(source->info->message, sizeof source->info->message, "out of memory");
        return 0;
    }
    png_set_read_fn(*png, source, png_read_memory);
    png_set_user_limits(*png, max_width, max_height);
    // Ancillary chunks (text, profiles) may not make libpng hold more than this.
    png_set_chunk_malloc_max(*png, 4u << 20);
    return 1;
}

/// Sets libpng's transforms to straight RGBA, 8 bits a channel (every
/// colour type and depth expanded, 16-bit channels scaled, tRNS as alpha),
/// and checks the row size they give. With `deinterlace`, libpng puts an
/// interlaced image's passes together (into rows the caller keeps whole);
/// without, png_read_row gives each pass's rows as they are stored.
static void png_expand_to_rgba(png_structp png, png_infop header, uint32_t width, int deinterlace) {
    int color_type = png_get_color_type(png, header);
    if (png_get_bit_depth(png, header) == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, header) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, header, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, header, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    if (deinterlace) png_set_interlace_handling(png);
    png_read_update_info(png, header);
    if (png_get_rowbytes(png, header) != (size_t)width * 4) png_error(png, "unexpected row size after expansion");
}

/// Reads the header (through the first IDAT) and puts its size into `info`.
static void png_read_header(png_structp png, png_infop header, pd_image_info *info) {
    png_read_info(png, header);
    info->width = png_get_image_width(png, header);
    info->height = png_get_image_height(png, header);
}

/// Reads the header and checks that it gives `width` × `height`.
static void png_read_expected_header(png_structp png, png_infop header, uint32_t width, uint32_t height, pd_image_info *info) {
    png_read_header(png, header, info);
    if (info->width != width || info->height != height) png_error(png, "the size changed since the probe");
}

int pd_png_decode(const void *data, size_t size, uint32_t width, uint32_t height, void *rgba, pd_image_info *info) {
    png_source source = {data, size, 0, info, PD_CORRUPT};
    png_structp png;
    png_infop header;
    // Volatile: changed between setjmp and a longjmp back to it.
    png_bytep *volatile rows = NULL;
    if (!png_open(&source, &png, &header, width, height)) return PD_CORRUPT;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &header, NULL);
        return source.status;
    }
    if (rgba == NULL) {
        png_read_header(png, header, info);
        png_destroy_read_struct(&png, &header, NULL);
        return PD_OK;
    }
    png_read_expected_header(png, header, width, height, info);
    png_expand_to_rgba(png, header, width, 1);
    rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)rgba + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    rows = NULL;
    png_destroy_read_struct(&png, &header, NULL);
    return PD_OK;
}

int pd_png_decode_reduced(const void *data, size_t size, uint32_t width, uint32_t height, unsigned factor, void *rgba,
                          pd_image_info *info) {
    png_source source = {data, size, 0, info, PD_CORRUPT};
    png_structp png;
    png_infop header;
    // Volatile: changed between setjmp and a longjmp back to it.
    png_bytep volatile row = NULL;
    pd_box_reducer *volatile reducer = NULL;
    if (!png_open(&source, &png, &header, width, height)) return PD_CORRUPT;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        pd_box_reducer_free(reducer);
        png_destroy_read_struct(&png, &header, NULL);
        return source.status;
    }
    png_read_expected_header(png, header, width, height, info);
    int interlaced = png_get_interlace_type(png, header) == PNG_INTERLACE_ADAM7;
    png_expand_to_rgba(png, header, width, 0);
    row = malloc((size_t)width * 4);
    reducer = pd_box_reducer_new(width, height, factor, interlaced);
    if (row == NULL || reducer == NULL) png_error(png, "out of memory");
    if (interlaced) {
        // Each pass's rows hold every (1 << PNG_PASS_COL_SHIFT)th pixel from its first column.
        for (int pass = 0; pass < PNG_INTERLACE_ADAM7_PASSES; pass++) {
            uint32_t columns = PNG_PASS_COLS(width, pass), rows = PNG_PASS_ROWS(height, pass);
            if (columns == 0) continue; // libpng skips an empty pass
            for (uint32_t pass_y = 0; pass_y < rows; pass_y++) {
                png_read_row(png, row, NULL);
                pd_box_reducer_add(reducer, row, columns, PNG_PASS_START_COL(pass), 1u << PNG_PASS_COL_SHIFT(pass),
                                PNG_ROW_FROM_PASS_ROW(pass_y, pass));
            }
        }
        pd_box_reducer_finish(reducer, rgba);
    } else {
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, row, NULL);
            pd_box_reducer_add_row(reducer, row, y, rgba);
        }
    }
    png_read_end(png, NULL);
    free(row);
    row = NULL;
    pd_box_reducer_free(reducer);
    reducer = NULL;
    png_destroy_read_struct(&png, &header, NULL);
    return PD_OK;
}
