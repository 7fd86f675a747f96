#!/usr/bin/env python3
"""Makes the decoder tests' fixtures (run it here, on purpose, to remake them).

Every image is small and drawn from one pattern. For each one that must
decode, Pillow's own reading of it is written next to it as NAME.expected.png
(straight RGBA, shown as a browser shows it: EXIF orientation applied, a
GIF's first frame), so the tests compare against a decoder they do not use.
Animated GIFs are checked against the tests' giflib reader instead. Broken
and oversized files are made by cutting or patching good ones.

The files come in groups, each made by one function below; name groups to
remake only those (`make-fixtures.py webp heif`), or none for all:

  classic  PNG, JPEG and GIF, good, broken and oversized   Pillow
  webp     WebP: lossy, lossless with alpha, animated      Pillow
  heif     HEIC and AVIF: turned and mirrored, with alpha  Pillow >= 11.3 (AVIF), pillow-heif (HEIC)
  camera   camera-size JPEG and PNG of flat colours, and   Pillow
           9000-pixel-wide headers of every format

(pip install pillow pillow-heif). The tests need none of these tools.
"""
import io
import struct
import sys
import zlib

from PIL import Image, ImageDraw, ImageOps


def pattern(width=20, height=16, alpha=False):
    image = Image.new("RGBA", (width, height))
    for y in range(height):
        for x in range(width):
            a = 255 if not alpha else (x * 255) // (width - 1)
            image.putpixel((x, y), ((x * 255) // (width - 1), (y * 255) // (height - 1), 128, a))
    draw = ImageDraw.Draw(image)
    draw.rectangle((3, 2, 8, 6), fill=(255, 255, 255, 255))
    draw.ellipse((10, 6, 17, 13), fill=(20, 40, 200, 255 if not alpha else 90))
    return image


def expected(name, image):
    image.convert("RGBA").save(name + ".expected.png")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def raw_png(width, height, rows, color_type, bit_depth, interlaced=False):
    """A PNG written by hand: 16-bit channels and Adam7, which Pillow does not write."""
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    size = channels * bit_depth // 8

    def scanlines(cells):  # cells: list of rows of pixel byte strings
        return b"".join(b"\x00" + b"".join(row) for row in cells)

    if not interlaced:
        data = scanlines(rows)
    else:
        data = b""
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            cells = [[rows[y][x] for x in range(x0, width, dx)] for y in range(y0, height, dy)]
            if cells and cells[0]:
                data += scanlines(cells)
    assert all(len(p) == size for row in rows for p in row)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(data)) + png_chunk(b"IEND", b"")


def write(name, data):
    with open(name, "wb") as file:
        file.write(data)


def classic():
    base = pattern()
    translucent = pattern(alpha=True)

    # PNG: every colour type that matters, 16-bit, Adam7, palette transparency.
    translucent.save("rgba.png")
    expected("rgba", translucent)
    base.convert("RGB").save("rgb.png")
    expected("rgb", base.convert("RGB"))
    base.convert("L").save("gray.png")
    expected("gray", base.convert("L"))
    base.convert("1").save("bilevel.png")
    expected("bilevel", base.convert("1"))
    palette = base.convert("RGB").quantize(16)
    palette.info["transparency"] = 3
    palette.save("palette-transparent.png", transparency=3)
    expected("palette-transparent", Image.open("palette-transparent.png"))
    rows16 = [[struct.pack(">HHHH", *(min(65535, c * 257 + (x % 3)) for c in translucent.getpixel((x, y)))) for x in range(20)] for y in range(16)]
    write("rgba16.png", raw_png(20, 16, rows16, 6, 16))
    expected("rgba16", Image.open("rgba16.png"))
    rows8 = [[bytes(translucent.getpixel((x, y))) for x in range(20)] for y in range(16)]
    write("interlaced.png", raw_png(20, 16, rows8, 6, 8, interlaced=True))
    expected("interlaced", translucent)

    # JPEG: baseline, progressive, grey, CMYK (Adobe's, inverted), EXIF orientations.
    rgb = pattern(32, 24).convert("RGB")
    for name, options in [("baseline", {}), ("progressive", {"progressive": True})]:
        rgb.save(name + ".jpg", quality=92, **options)
        expected(name, Image.open(name + ".jpg"))
    rgb.convert("L").save("gray.jpg", quality=92)
    expected("gray-jpeg", Image.open("gray.jpg"))
    rgb.convert("CMYK").save("cmyk.jpg", quality=92)
    expected("cmyk", Image.open("cmyk.jpg").convert("RGB"))
    for orientation in (3, 6, 8):
        exif = Image.Exif()
        exif[0x0112] = orientation
        # The stored pixels are the upright picture turned the other way, as a camera stores them.
        stored = ImageOps.exif_transpose(rgb, in_place=False)  # no EXIF on rgb: unchanged
        stored = {3: stored.rotate(180), 6: stored.rotate(90, expand=True), 8: stored.rotate(-90, expand=True)}[orientation]
        stored.save(f"orientation-{orientation}.jpg", quality=95, exif=exif.tobytes())
        expected(f"orientation-{orientation}", ImageOps.exif_transpose(Image.open(f"orientation-{orientation}.jpg")))

    # GIF: a still, and an animation with every disposal, transparency, local palettes and a loop count.
    base.convert("RGB").quantize(32).save("still.gif")
    expected("still", Image.open("still.gif").convert("RGBA"))
    frames = []
    for step in range(4):
        frame = Image.new("RGB", (24, 20), (250, 250, 250))
        draw = ImageDraw.Draw(frame)
        draw.rectangle((2 + step * 4, 3, 8 + step * 4, 12), fill=(200, 30 + step * 50, 40))
        draw.line((0, 19 - step, 23, 19 - step), fill=(10, 10, 10))
        frames.append(frame.quantize(8))
    frames[0].save(
        "animated.gif", save_all=True, append_images=frames[1:], duration=[120, 0, 250, 70], loop=2,
        disposal=[1, 2, 3, 1], transparency=0, optimize=False,
    )
    # An interlaced one, tall enough for Pillow to interlace it.
    pattern(20, 40).convert("RGB").quantize(64).save("interlaced.gif", interlace=True)
    expected("interlaced-gif", Image.open("interlaced.gif").convert("RGBA"))

    # Broken files, cut or patched from good ones.
    png = open("rgba.png", "rb").read()
    write("truncated.png", png[: len(png) * 2 // 3])
    bad = bytearray(png)
    bad[png.index(b"IDAT") + 10] ^= 0xFF
    write("bad-crc.png", bytes(bad))
    jpeg = open("baseline.jpg", "rb").read()
    write("truncated.jpg", jpeg[: len(jpeg) * 2 // 3])
    gif = open("animated.gif", "rb").read()
    # Cut inside the first frame's data (its descriptor is the first "," after the header and palette).
    write("truncated.gif", gif[: gif.index(b",", 13 + 3 * 8) + 16])
    write("signature-only.png", png[:8] + b"not really a PNG after all")
    write("not-an-image.txt", b"hello, this is text\n")

    # Oversized headers: a side of 5000, found before any pixel (the rest of each file is left as it was).
    oversized = bytearray(png)
    oversized[16:24] = struct.pack(">II", 5000, 16)
    oversized[29:33] = struct.pack(">I", zlib.crc32(bytes(oversized[12:29])))
    write("wide.png", bytes(oversized))
    sof = jpeg.index(b"\xff\xc0")
    oversized = bytearray(jpeg)
    oversized[sof + 5:sof + 9] = struct.pack(">HH", 5000, 5000)
    write("large.jpg", bytes(oversized))
    oversized = bytearray(open("still.gif", "rb").read())
    oversized[6:10] = struct.pack("<HH", 5000, 10)
    write("wide-screen.gif", bytes(oversized))


def riff_chunk(kind, data):
    return kind + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def animated_webp(canvas, frames):
    """An animated WebP of `canvas` size whose frames, each ((x, y), image) with even offsets, are lossless."""
    def lossless(image):
        buffer = io.BytesIO()
        image.save(buffer, "WEBP", lossless=True, exact=True)
        return buffer.getvalue()[12:]  # its VP8L chunk, after the RIFF header
    body = riff_chunk(b"VP8X", struct.pack("<I", 0x12)[:4] + (canvas[0] - 1).to_bytes(3, "little") + (canvas[1] - 1).to_bytes(3, "little"))
    body += riff_chunk(b"ANIM", struct.pack("<IH", 0, 0))
    for (x, y), image in frames:
        header = b"".join(value.to_bytes(3, "little") for value in (x // 2, y // 2, image.width - 1, image.height - 1, 100))
        body += riff_chunk(b"ANMF", header + b"\x02" + lossless(image))  # no blending, no disposal
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body


def webp():
    # A lossy still (VP8), a lossless one whose transparent pixels keep their colour (VP8L, exact),
    # a lossy one with alpha (VP8 + ALPH), and an animation whose first frame is partly transparent.
    rgb = pattern(32, 24).convert("RGB")
    rgb.save("lossy.webp", quality=90)
    expected("lossy-webp", Image.open("lossy.webp"))
    translucent = pattern(alpha=True)
    translucent.save("lossless-alpha.webp", lossless=True, exact=True)
    expected("lossless-alpha-webp", Image.open("lossless-alpha.webp"))
    translucent.save("lossy-alpha.webp", quality=90)
    expected("lossy-alpha-webp", Image.open("lossy-alpha.webp"))
    frames = []
    for step in range(3):
        frame = Image.new("RGBA", (24, 20), (250, 250, 250, 255 if step else 0))
        draw = ImageDraw.Draw(frame)
        draw.rectangle((2 + step * 5, 3, 9 + step * 5, 12), fill=(200, 30 + step * 60, 40, 255))
        frames.append(frame)
    frames[0].save("animated.webp", save_all=True, append_images=frames[1:], duration=[100, 200, 300], loop=0, lossless=True)
    first = Image.open("animated.webp")
    first.seek(0)
    expected("animated-webp", first)
    # An animation whose first frame covers only part of its canvas (encoders write a whole first
    # frame; the format allows less): written by hand around two lossless frames.
    write("offset-frame.webp", animated_webp((24, 20), [((6, 4), pattern(12, 10, alpha=True)), ((0, 0), frames[1])]))
    first = Image.open("offset-frame.webp")
    first.seek(0)
    expected("offset-frame-webp", first)

    data = open("lossy.webp", "rb").read()
    write("truncated.webp", data[: len(data) * 2 // 3])
    # The animation's canvas (VP8X, 24 bits a side, minus one) made 20,000 a side (libwebp itself
    # refuses a canvas of 2^32 pixels or more).
    animated = bytearray(open("animated.webp", "rb").read())
    assert animated[12:16] == b"VP8X"
    animated[24:30] = (19999).to_bytes(3, "little") * 2
    write("huge-canvas.webp", bytes(animated))


def patch_ispe(data, width, height):
    """A HEIF file with every image item's declared size (its `ispe` box) set to width × height."""
    patched = bytearray(data)
    start = patched.find(b"ispe")
    assert start > 0
    while start > 0:
        patched[start + 8:start + 16] = struct.pack(">II", width, height)  # after the box's version and flags
        start = patched.find(b"ispe", start + 4)
    return bytes(patched)


def heif():
    # HEIC (HEVC, through pillow-heif's libheif and x265; 4:2:0, as phones write it) and AVIF (AV1,
    # through Pillow's libavif). EXIF orientations 5 and 6 are written as irot and imir boxes: the
    # pixels are stored turned (and mirrored), and readers show them upright. Pillow-heif applies
    # them when it reads; Pillow's AVIF reader gives them back as an EXIF orientation.
    # The AVIF files that check orientation and alpha are 4:4:4: libheif 1.15 upsamples 4:2:0
    # chroma by repeating samples, libavif by interpolating, which differ at every sharp edge.
    # A smooth 4:2:0 gradient checks the usual AVIF.
    import pillow_heif

    pillow_heif.register_heif_opener()
    rgb = pattern(32, 24).convert("RGB")
    translucent = pattern(alpha=True)
    options = {"heic": {"quality": 90}, "avif": {"quality": 90, "subsampling": "4:4:4"}}
    for name, orientation in [("orientation-5.heic", 5), ("orientation-6.avif", 6)]:
        exif = Image.Exif()
        exif[0x0112] = orientation
        rgb.save(name, exif=exif.tobytes(), **options[name[-4:]])
        data = open(name, "rb").read()
        assert b"irot" in data and (orientation != 5 or b"imir" in data), name
        expected(name.replace(".", "-"), ImageOps.exif_transpose(Image.open(name)))
    for name in ["alpha.heic", "alpha.avif"]:
        translucent.save(name, **options[name[-4:]])
        expected(name.replace(".", "-"), Image.open(name))
    # A 10-bit HEIC (as HDR photos are), from 16-bit samples; pillow-heif brings it to 8 bits as it reads.
    samples = b"".join(struct.pack("<HHH", x * 2000, y * 2700, 30000) for y in range(24) for x in range(32))
    pillow_heif.from_bytes(mode="RGB;16", size=(32, 24), data=samples).save("10-bit.heic", quality=90)
    assert pillow_heif.open_heif("10-bit.heic").info["bit_depth"] == 10
    expected("10-bit-heic", Image.open("10-bit.heic"))
    gradient = Image.new("RGB", (64, 48))
    gradient.putdata([(x * 4, y * 5, 200 - x * 2) for y in range(48) for x in range(64)])
    gradient.save("gradient-420.avif", quality=90)
    expected("gradient-420-avif", Image.open("gradient-420.avif"))

    # An AVIF whose image's data is empty (its iloc extent 0 bytes long), as the fuzzer found:
    # libheif 1.15 refuses it (and leaks 40 bytes of dav1d's).
    avif = bytearray(open("alpha.avif", "rb").read())
    iloc = avif.index(b"iloc") + 8  # after the box's version and flags
    assert avif[iloc] == 0x44 and avif[iloc + 2:iloc + 6] == b"\0\x02\0\x01"  # 4-byte offsets and lengths; item 1 first
    avif[iloc + 14:iloc + 18] = bytes(4)  # item 1: id, data reference, extent count, offset, then its length
    write("empty-item.avif", bytes(avif))

    # Codec bombs: files whose boxes say 64 × 64 and whose HEVC or AV1 data holds 1500 × 1500
    # (the tests' limits make that too many pixels, though not too wide for libheif's own check).
    for extension in ["heic", "avif"]:
        Image.new("RGB", (1500, 1500), (30, 90, 160)).save("codec-bomb." + extension, **options[extension])
        write("codec-bomb." + extension, patch_ispe(open("codec-bomb." + extension, "rb").read(), 64, 64))

    for extension in ["heic", "avif"]:
        data = open("alpha." + extension, "rb").read()
        write("truncated." + extension, data[: len(data) * 2 // 3])
        # A header bomb: 100,000 × 100,000 pixels declared, for the tiny picture that follows.
        write("huge." + extension, patch_ispe(data, 100000, 100000))


def camera():
    # A 6000 × 4000 JPEG (24 megapixels, 4:2:0, as cameras write them) of flat rectangles on
    # 16-pixel boundaries: every block codes in two bits with optimised Huffman tables.
    photo = Image.new("RGB", (6000, 4000), (30, 90, 160))
    draw = ImageDraw.Draw(photo)
    draw.rectangle((0, 0, 2999, 1999), fill=(220, 60, 40))
    draw.rectangle((3008, 2000, 5999, 3999), fill=(240, 240, 240))
    photo.save("camera-6000x4000.jpg", quality=90, optimize=True, subsampling=2)

    # A 7000 × 7000 PNG with four palette colours (2 bits a pixel): opaque blue, opaque red,
    # green under alpha 0, white at alpha 128; its edges fall inside the cells of a reduction by 5.
    # The tests compute the expected cells from these rectangles.
    flat = Image.new("P", (7000, 7000), 0)
    flat.putpalette([30, 90, 160, 220, 60, 40, 0, 255, 0, 255, 255, 255])
    draw = ImageDraw.Draw(flat)
    draw.rectangle((0, 0, 3332, 2500), fill=1)
    draw.rectangle((4999, 4003, 6999, 6999), fill=2)
    draw.rectangle((0, 5001, 2222, 6999), fill=3)
    flat.save("flat-7000x7000.png", bits=2, transparency=bytes([255, 255, 0, 128]), optimize=True)

    # Headers of every format 9000 pixels wide, patched into the other groups' files.
    png = bytearray(open("rgba.png", "rb").read())
    png[16:20] = struct.pack(">I", 9000)
    png[29:33] = struct.pack(">I", zlib.crc32(bytes(png[12:29])))
    write("wide-9000.png", bytes(png))
    jpeg = bytearray(open("baseline.jpg", "rb").read())
    sof = jpeg.index(b"\xff\xc0")
    jpeg[sof + 7:sof + 9] = struct.pack(">H", 9000)
    write("wide-9000.jpg", bytes(jpeg))
    lossy = bytearray(open("lossy.webp", "rb").read())
    assert lossy[12:16] == b"VP8 " and lossy[23:26] == b"\x9d\x01\x2a"
    lossy[26:28] = struct.pack("<H", 9000)  # 14 bits of width, 2 of horizontal scale (none)
    write("wide-9000.webp", bytes(lossy))
    for extension in ["heic", "avif"]:
        write("wide-9000." + extension, patch_ispe(open("alpha." + extension, "rb").read(), 9000, 16))


GROUPS = {"classic": classic, "webp": webp, "heif": heif, "camera": camera}

for group in sys.argv[1:] or GROUPS:
    GROUPS[group]()
