/* deflate.c -- zlib with pagedots' settings against libdeflate's levels,
 * on the same inputs (bench/deflate gives it PNG scanlines).
 *
 * Usage: deflate FILE...
 * For each file prints one line: its name and size, then for each
 * compressor the bytes of the zlib stream and the median microseconds of
 * thread CPU time per compression. The compressors take turns: ROUNDS
 * rounds (default 5) in each of which every compressor compresses the file
 * for about BLOCK_US microseconds (default 3000), so that a change in the
 * machine's load falls on all of them alike; the median is over rounds.
 *
 * zlib: one z_stream, deflateReset before each compression, level 9,
 * windowBits 15, memLevel 9, the default strategy, and deflateTune as
 * pagedots' Deflater sets it: "thorough" (32, 258, 258, 256), "exhaustive"
 * (32, 258, 258, 4096) and "quick" (4, 16, 32, 8). libdeflate: one
 * compressor per level 1..12, libdeflate_zlib_compress.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include <libdeflate.h>

enum { ZLIB_KINDS = 3, LEVELS = 12, COMPRESSORS = ZLIB_KINDS + LEVELS, MAX_ROUNDS = 64 };
static const char *zlib_names[ZLIB_KINDS] = {"zlib-thorough", "zlib-exhaustive", "zlib-quick"};
static const int tunings[ZLIB_KINDS][4] = {{32, 258, 258, 256}, {32, 258, 258, 4096}, {4, 16, 32, 8}};

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static z_stream stream;
static struct libdeflate_compressor *compressors[LEVELS + 1];

/* Compresses with compressor `which` into out (room for `room` bytes); returns the stream's size. */
static size_t compress_with(int which, const unsigned char *in, size_t n, unsigned char *out, size_t room) {
    if (which < ZLIB_KINDS) {
        const int *t = tunings[which];
        deflateReset(&stream);
        deflateParams(&stream, 9, Z_DEFAULT_STRATEGY);
        deflateTune(&stream, t[0], t[1], t[2], t[3]);
        stream.next_in = (unsigned char *)in;
        stream.avail_in = (unsigned)n;
        stream.next_out = out;
        stream.avail_out = (unsigned)room;
        if (deflate(&stream, Z_FINISH) != Z_STREAM_END) {
            fprintf(stderr, "deflate: zlib failed\n");
            exit(1);
        }
        return stream.total_out;
    }
    size_t size = libdeflate_zlib_compress(compressors[which - ZLIB_KINDS + 1], in, n, out, room);
    if (size == 0) {
        fprintf(stderr, "deflate: libdeflate failed\n");
        exit(1);
    }
    return size;
}

int main(int argc, char **argv) {
    int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 5;
    double block = getenv("BLOCK_US") ? atof(getenv("BLOCK_US")) : 3000;
    if (rounds < 1 || rounds > MAX_ROUNDS || block <= 0) {
        fprintf(stderr, "deflate: ROUNDS must be 1..%d and BLOCK_US positive\n", MAX_ROUNDS);
        return 2;
    }
    if (deflateInit2(&stream, 9, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY) != Z_OK) return 1;
    for (int level = 1; level <= LEVELS; level++) {
        compressors[level] = libdeflate_alloc_compressor(level);
        if (!compressors[level]) return 1;
    }
    printf("file bytes");
    for (int which = 0; which < COMPRESSORS; which++) {
        if (which < ZLIB_KINDS) printf(" %s %s_us", zlib_names[which], zlib_names[which]);
        else printf(" libdeflate-%d libdeflate-%d_us", which - ZLIB_KINDS + 1, which - ZLIB_KINDS + 1);
    }
    printf("\n");
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        if (!f) {
            fprintf(stderr, "deflate: cannot read %s\n", argv[a]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        size_t n = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        unsigned char *in = malloc(n + 1);
        size_t room = n + n / 8 + 1024;
        unsigned char *out = malloc(room);
        if (!in || !out || fread(in, 1, n, f) != n) return 1;
        fclose(f);
        size_t sizes[COMPRESSORS];
        double times[COMPRESSORS][MAX_ROUNDS];
        for (int round = 0; round < rounds; round++) {
            for (int which = 0; which < COMPRESSORS; which++) {
                int reps = 0;
                double start = now_us(), end;
                do {
                    sizes[which] = compress_with(which, in, n, out, room);
                    reps++;
                    end = now_us();
                } while (end - start < block);
                times[which][round] = (end - start) / reps;
            }
        }
        printf("%s %zu", argv[a], n);
        for (int which = 0; which < COMPRESSORS; which++) {
            qsort(times[which], (size_t)rounds, sizeof(double), compare_doubles);
            printf(" %zu %.1f", sizes[which], times[which][rounds / 2]);
        }
        printf("\n");
        fflush(stdout);
        free(in);
        free(out);
    }
    return 0;
}
