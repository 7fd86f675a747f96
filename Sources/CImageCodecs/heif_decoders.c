#include "CImageCodecs.h"

#include <dav1d/dav1d.h>
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Above libheif's own plugins (libde265 100, dav1d 150), so that libheif chooses these.
enum { plugin_priority = 200 };

/// The calling thread's frame limits (pd_heif_set_frame_limits); 0 until set, which refuses every frame.
static _Thread_local struct {
    uint64_t side, pixels;
} frame_limits;

void pd_heif_set_frame_limits(uint32_t max_side, uint64_t max_pixels) {
    frame_limits.side = max_side;
    frame_limits.pixels = max_pixels;
}

static const struct heif_error no_error = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

/// The message of the calling thread's last decoder error. Not the decoder's: libheif frees a
/// decoder that fails before it copies the message.
static _Thread_local char error_message[160];

/// An error whose message is `error_message`, written as `format` says.
__attribute__((format(printf, 3, 4))) static struct heif_error plugin_error(enum heif_error_code code, enum heif_suberror_code subcode, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error_message, sizeof error_message, format, arguments);
    va_end(arguments);
    return (struct heif_error){code, subcode, error_message};
}

/// The security error libheif gives for a size over its limits, in its words, so that callers read one kind of message.
static struct heif_error frame_too_large(uint64_t width, uint64_t height) {
    return plugin_error(heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded,
                        "Image size %llux%llu exceeds the maximum image size %llux%llu", (unsigned long long)width,
                        (unsigned long long)height, (unsigned long long)frame_limits.side, (unsigned long long)frame_limits.side);
}

/// Copies `height` rows of `width` samples (`bits` each, in 1 or 2 bytes) into a new plane of `image`.
static struct heif_error add_plane(struct heif_image *image, enum heif_channel channel, int width, int height, int bits,
                                   const uint8_t *rows, ptrdiff_t stride) {
    struct heif_error error = heif_image_add_plane(image, channel, width, height, bits);
    if (error.code != heif_error_Ok) return error;
    int plane_stride;
    uint8_t *plane = heif_image_get_plane(image, channel, &plane_stride);
    size_t row_bytes = (size_t)width * (bits > 8 ? 2 : 1);
    for (int y = 0; y < height; y++) memcpy(plane + (size_t)y * plane_stride, rows + y * stride, row_bytes);
    return no_error;
}

/// The colour description the codec's header gives (ISO/IEC 23091-2 code points), for libheif's conversion to RGB;
/// a value libheif does not know keeps its default, as libheif's own plugins do.
static void set_colour_description(struct heif_image *image, int primaries, int transfer, int matrix, int full_range) {
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx == NULL) return;
    heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)primaries);
    heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)transfer);
    heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)matrix);
    nclx->full_range_flag = (uint8_t)(full_range != 0);
    heif_image_set_nclx_color_profile(image, nclx);
    heif_nclx_color_profile_free(nclx);
}

// MARK: HEVC through libde265

typedef struct {
    de265_decoder_context *context;
} hevc_decoder;

/// Reads bits from a NAL unit's payload, skipping its emulation prevention bytes (0x03 after two zeros).
typedef struct {
    const uint8_t *bytes;
    size_t size, byte;
    int bit, zeros, failed;
} nal_bits;

static unsigned read_bit(nal_bits *reader) {
    if (reader->bit == 0 && reader->zeros >= 2 && reader->byte < reader->size && reader->bytes[reader->byte] == 3) {
        reader->byte++;
        reader->zeros = 0;
    }
    if (reader->byte >= reader->size) {
        reader->failed = 1;
        return 0;
    }
    unsigned value = (reader->bytes[reader->byte] >> (7 - reader->bit)) & 1;
    if (++reader->bit == 8) {
        reader->zeros = reader->bytes[reader->byte] == 0 ? reader->zeros + 1 : 0;
        reader->bit = 0;
        reader->byte++;
    }
    return value;
}

static uint64_t read_bits(nal_bits *reader, int count) {
    uint64_t value = 0;
    for (int i = 0; i < count; i++) value = value << 1 | read_bit(reader);
    return value;
}

/// ue(v) (H.265 §9.2); more than 31 leading zeros fails.
static uint64_t read_exp_golomb(nal_bits *reader) {
    int zeros = 0;
    while (!reader->failed && read_bit(reader) == 0) {
        if (++zeros > 31) {
            reader->failed = 1;
            return 0;
        }
    }
    return ((uint64_t)1 << zeros) - 1 + read_bits(reader, zeros);
}

/// The picture size a sequence parameter set (NAL unit type 33) declares (H.265 §7.3.2.2, with
/// profile_tier_level §7.3.3); 0 when `nal` is no SPS or is cut before its size.
static int sps_picture_size(const uint8_t *nal, size_t size, uint64_t *width, uint64_t *height) {
    if (size < 2 || ((nal[0] >> 1) & 0x3F) != 33) return 0;
    nal_bits reader = {nal + 2, size - 2, 0, 0, 0, 0};
    read_bits(&reader, 4); // sps_video_parameter_set_id
    int sub_layers = (int)read_bits(&reader, 3);
    read_bits(&reader, 1 + 88 + 8); // temporal id nesting, the general profile and level
    int profile_present[8], level_present[8];
    for (int i = 0; i < sub_layers; i++) {
        profile_present[i] = (int)read_bits(&reader, 1);
        level_present[i] = (int)read_bits(&reader, 1);
    }
    if (sub_layers > 0) read_bits(&reader, 2 * (8 - sub_layers));
    for (int i = 0; i < sub_layers; i++) {
        if (profile_present[i]) read_bits(&reader, 88);
        if (level_present[i]) read_bits(&reader, 8);
    }
    read_exp_golomb(&reader); // sps_seq_parameter_set_id
    if (read_exp_golomb(&reader) == 3) read_bits(&reader, 1); // chroma_format_idc, separate_colour_plane_flag
    *width = read_exp_golomb(&reader);
    *height = read_exp_golomb(&reader);
    return !reader.failed;
}

static const char *hevc_name(void) {
    return "pagedots: libde265, frame size bounded";
}

static void hevc_init(void) {
    de265_init();
}

static int hevc_supports(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? plugin_priority : 0;
}

static struct heif_error hevc_new(void **raw) {
    hevc_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder != NULL) decoder->context = de265_new_decoder();
    if (decoder == NULL || decoder->context == NULL) {
        free(decoder);
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    }
    // No worker threads: de265_decode decodes on the calling thread.
    *raw = decoder;
    return no_error;
}

static void hevc_free(void *raw) {
    hevc_decoder *decoder = raw;
    de265_free_decoder(decoder->context);
    free(decoder);
}

/// NAL units, each after a 4-byte length (as libheif passes them), each SPS's size checked before libde265 sees it.
static struct heif_error hevc_push(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    for (size_t offset = 0; offset < size;) {
        uint32_t length = 0;
        if (size - offset >= 4) length = (uint32_t)bytes[offset] << 24 | bytes[offset + 1] << 16 | bytes[offset + 2] << 8 | bytes[offset + 3];
        if (size - offset < 4 || length > size - offset - 4 || length > INT32_MAX) {
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "a NAL unit is cut short");
        }
        offset += 4;
        uint64_t width, height;
        if (sps_picture_size(bytes + offset, length, &width, &height) &&
            (width > frame_limits.side || height > frame_limits.side || width * height > frame_limits.pixels)) {
            return frame_too_large(width, height);
        }
        de265_push_NAL(decoder->context, bytes + offset, (int)length, 0, NULL);
        offset += length;
    }
    return no_error;
}

/// The first picture libde265 decodes, as a YCbCr (or monochrome) heif_image.
static struct heif_error hevc_decode(void *raw, struct heif_image **out) {
    hevc_decoder *decoder = raw;
    *out = NULL;
    de265_flush_data(decoder->context);
    int more = 1;
    de265_error status = DE265_OK;
    const struct de265_image *picture = NULL;
    while (more && picture == NULL) {
        status = de265_decode(decoder->context, &more);
        if (status != DE265_OK) break;
        picture = de265_peek_next_picture(decoder->context);
    }
    if (picture == NULL) {
        return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "libde265 decoded no picture (%s)",
                            de265_get_error_text(status));
    }
    enum de265_chroma chroma = de265_get_chroma_format(picture);
    int planes = chroma == de265_chroma_mono ? 1 : 3;
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                chroma == de265_chroma_mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)chroma, out);
    const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int plane = 0; plane < planes && error.code == heif_error_Ok; plane++) {
        int stride;
        const uint8_t *rows = de265_get_image_plane(picture, plane, &stride);
        error = add_plane(*out, channels[plane], de265_get_image_width(picture, plane), de265_get_image_height(picture, plane),
                          de265_get_bits_per_pixel(picture, plane), rows, stride);
    }
    if (error.code == heif_error_Ok) {
        set_colour_description(*out, de265_get_image_colour_primaries(picture), de265_get_image_transfer_characteristics(picture),
                               de265_get_image_matrix_coefficients(picture), de265_get_image_full_range_flag(picture));
    } else if (*out != NULL) {
        heif_image_release(*out);
        *out = NULL;
    }
    de265_release_next_picture(decoder->context);
    return error;
}

static const struct heif_decoder_plugin hevc_plugin = {
    3, hevc_name, hevc_init, NULL, hevc_supports, hevc_new, hevc_free, hevc_push, hevc_decode, NULL, "pagedots-libde265",
};

// MARK: AV1 through dav1d

typedef struct {
    Dav1dContext *context;
    Dav1dData data;
    /// The size of the frame dav1d refused as over its frame_size_limit, if any.
    int refused_width, refused_height;
    /// dav1d's last message: the reason when it fails.
    char message[160];
} av1_decoder;

/// dav1d's messages go to the decoder rather than to stderr; its refusal of a frame over
/// frame_size_limit is recognised by its words.
static void av1_log(void *cookie, const char *format, va_list arguments) {
    av1_decoder *decoder = cookie;
    va_list copy;
    va_copy(copy, arguments);
    vsnprintf(decoder->message, sizeof decoder->message, format, copy);
    va_end(copy);
    if (strcmp(format, "Frame size %dx%d exceeds limit %u\n") == 0) {
        decoder->refused_width = va_arg(arguments, int);
        decoder->refused_height = va_arg(arguments, int);
    }
}

static const char *av1_name(void) {
    return "pagedots: dav1d, frame size bounded";
}

static int av1_supports(enum heif_compression_format format) {
    return format == heif_compression_AV1 ? plugin_priority : 0;
}

static struct heif_error av1_new(void **raw) {
    av1_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    // One thread, the caller's; the frame size bounded before dav1d allocates the frame.
    settings.n_threads = 1;
    settings.max_frame_delay = 1;
    settings.all_layers = 0;
    settings.frame_size_limit = frame_limits.pixels > UINT32_MAX ? UINT32_MAX : (unsigned)(frame_limits.pixels ? frame_limits.pixels : 1);
    settings.logger = (Dav1dLogger){decoder, av1_log};
    if (dav1d_open(&decoder->context, &settings) != 0) {
        free(decoder);
        return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d cannot start"};
    }
    *raw = decoder;
    return no_error;
}

static void av1_free(void *raw) {
    av1_decoder *decoder = raw;
    dav1d_data_unref(&decoder->data);
    dav1d_close(&decoder->context);
    free(decoder);
}

/// Keeps the OBUs for av1_decode (libheif passes an image's all at once; more are appended).
static struct heif_error av1_push(void *raw, const void *data, size_t size) {
    av1_decoder *decoder = raw;
    if (size == 0) return no_error;
    Dav1dData joined;
    uint8_t *bytes = dav1d_data_create(&joined, decoder->data.sz + size);
    if (bytes == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    if (decoder->data.sz > 0) memcpy(bytes, decoder->data.data, decoder->data.sz);
    memcpy(bytes + decoder->data.sz, data, size);
    dav1d_data_unref(&decoder->data);
    decoder->data = joined;
    return no_error;
}

/// The first picture dav1d decodes, as a YCbCr (or monochrome) heif_image.
static struct heif_error av1_decode(void *raw, struct heif_image **out) {
    av1_decoder *decoder = raw;
    *out = NULL;
    Dav1dPicture picture = {0};
    int status, flushed = 0;
    // As libheif's own plugin: send what is left, take a picture; when all is sent and none came, once more.
    while (1) {
        status = dav1d_send_data(decoder->context, &decoder->data);
        if (status < 0 && status != DAV1D_ERR(EAGAIN)) break;
        status = dav1d_get_picture(decoder->context, &picture);
        if (flushed || status != DAV1D_ERR(EAGAIN)) break;
        flushed = decoder->data.sz == 0;
    }
    if (decoder->refused_width > 0) return frame_too_large((uint64_t)decoder->refused_width, (uint64_t)decoder->refused_height);
    if (status < 0) {
        if (decoder->message[0] != 0) {
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "%s", decoder->message);
        }
        if (status == DAV1D_ERR(EAGAIN)) return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d decoded no picture");
        return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d error %d", status);
    }
    int planes = picture.p.layout == DAV1D_PIXEL_LAYOUT_I400 ? 1 : 3;
    const enum heif_chroma chromas[] = {heif_chroma_monochrome, heif_chroma_420, heif_chroma_422, heif_chroma_444};
    int chroma_width = picture.p.layout == DAV1D_PIXEL_LAYOUT_I444 ? picture.p.w : (picture.p.w + 1) / 2;
    int chroma_height = picture.p.layout == DAV1D_PIXEL_LAYOUT_I420 ? (picture.p.h + 1) / 2 : picture.p.h;
    struct heif_error error = heif_image_create(picture.p.w, picture.p.h, planes == 1 ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                chromas[picture.p.layout], out);
    const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int plane = 0; plane < planes && error.code == heif_error_Ok; plane++) {
        error = add_plane(*out, channels[plane], plane ? chroma_width : picture.p.w, plane ? chroma_height : picture.p.h, picture.p.bpc,
                          picture.data[plane], picture.stride[plane ? 1 : 0]);
    }
    if (error.code == heif_error_Ok) {
        const Dav1dSequenceHeader *sequence = picture.seq_hdr;
        set_colour_description(*out, sequence->pri, sequence->trc, sequence->mtrx, sequence->color_range);
    } else if (*out != NULL) {
        heif_image_release(*out);
        *out = NULL;
    }
    dav1d_picture_unref(&picture);
    return error;
}

static const struct heif_decoder_plugin av1_plugin = {
    3, av1_name, NULL, NULL, av1_supports, av1_new, av1_free, av1_push, av1_decode, NULL, "pagedots-dav1d",
};

void pd_heif_register_bounded_decoders(void) {
    heif_register_decoder_plugin(&hevc_plugin);
    heif_register_decoder_plugin(&av1_plugin);
}
