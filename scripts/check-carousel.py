#!/usr/bin/env python3
"""Carousels decoded and checked against their slides (Pillow, numpy).

Usage: check-carousel.py BASE_URL OUT_DIR [--shrink N]

Posts the example slides (docs/examples/carousel, 1200 x 600; with
--shrink N, copies N times smaller, for a debug build) to a running pagedots
at BASE_URL, decodes what comes back and checks, frame by frame at given
moments of the cycle:

- the answer: 200, image/gif or image/png, no-store, a strong ETag, the same
  bytes for the same body and query;
- the size: the slides' (place=over), plus the indicator's band (below,
  above), the band filled with matte and the slides beside it;
- the timing: a cycle's delays add up to pages x dwell;
- the first frame is the composed still: slide `current` with the still PNG
  of the same indicator drawn over it, `inset` points above the bottom edge,
  centred (exact in the APNG, within the GIF's dithering in the GIF);
- the order: mid-dwell, slide current, current+1, ... shows, with the
  indicator's still of that page;
- change=cut: every frame is one slide (no blend), the change at once,
  within the transition's window (where the indicator moves);
  change=fade: mid-transition, a blend of the two slides; change=push:
  mid-transition, the current slide moved left and the next one entering
  from the right;
- a carousel GIF made elsewhere keeps its timing and its loop count;
- refusals: one slide (400), a part that is no image (415), each with its line.

Prints one line per check and `N passed, N failed`; exits 1 if anything
failed. The files it fetched are in OUT_DIR.
"""
import io
import os
import sys
import urllib.error
import urllib.request
import uuid

import numpy
from PIL import Image

BASE, OUT = sys.argv[1].rstrip("/"), sys.argv[2]
SHRINK = int(sys.argv[sys.argv.index("--shrink") + 1]) if "--shrink" in sys.argv else 1
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples", "carousel")
SCALE, INSET = 2, 12
# The mean difference per channel a GIF's photograph may have from the exact
# frame (64 colours, half-dithered): different slides differ by 30 and more.
GIF_TOLERANCE = 6.0
results = []
os.makedirs(OUT, exist_ok=True)


def check(what, condition):
    results.append(bool(condition))
    print(("ok: " if condition else "FAILED: ") + what, flush=True)


def slide_files(names):
    """The example slides `names`, as files (shrunk copies in OUT with --shrink)."""
    paths = []
    for name in names:
        path = os.path.join(EXAMPLES, name)
        if SHRINK > 1:
            with Image.open(path) as image:
                small = image.convert("RGB").resize((image.width // SHRINK, image.height // SHRINK), Image.LANCZOS)
            path = os.path.join(OUT, "small-" + os.path.splitext(name)[0] + ".png")
            small.save(path)
        paths.append(path)
    return paths


def pixels(path):
    with Image.open(path) as image:
        return numpy.asarray(image.convert("RGB"), numpy.float64)


def post(path, files, part="slide"):
    """(status, headers, body) of a POST of `files` as parts named `part` to BASE + path."""
    boundary = uuid.uuid4().hex
    body = b""
    for name in files:
        with open(name, "rb") as file:
            body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{part}"; filename="{os.path.basename(name)}"\r\n'
                     "Content-Type: application/octet-stream\r\n\r\n").encode() + file.read() + b"\r\n"
    request = urllib.request.Request(BASE + path, data=body + f"--{boundary}--\r\n".encode(), method="POST",
                                     headers={"Content-Type": "multipart/form-data; boundary=" + boundary})
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def still(query):
    """The still indicator PNG of `query` (RGBA array)."""
    with urllib.request.urlopen(f"{BASE}/indicator.png?{query}", timeout=60) as response:
        with Image.open(io.BytesIO(response.read())) as image:
            return numpy.asarray(image.convert("RGBA"), numpy.float64)


def decoded(data):
    """The frames an animation shows: [(RGB array, start ms, ms)], and its loop count (None: none given)."""
    frames, start = [], 0
    with Image.open(io.BytesIO(data)) as image:
        loop = image.info.get("loop")
        for n in range(getattr(image, "n_frames", 1)):
            image.seek(n)
            ms = image.info.get("duration", 0)
            frames.append((numpy.asarray(image.convert("RGB"), numpy.float64), start, ms))
            start += ms
    return frames, loop


def at(frames, ms):
    """The frame shown `ms` into the cycle."""
    return next(frame for frame, start, length in frames if start <= ms < start + length)


def composed(slide, indicator, top):
    """`slide` with `indicator` (RGBA) drawn over it, centred across, its top edge at `top`."""
    out = slide.copy()
    h, w = indicator.shape[:2]
    left = (slide.shape[1] - w) // 2
    alpha = indicator[..., 3:4] / 255
    out[top:top + h, left:left + w] = indicator[..., :3] * alpha + out[top:top + h, left:left + w] * (1 - alpha)
    return out


def difference(a, b, mask=None):
    """Mean absolute difference per channel, over `mask` (a boolean array of rows x columns) if given."""
    delta = numpy.abs(a - b).mean(axis=2)
    return float(delta[mask].mean() if mask is not None else delta.mean())


def save(name, data):
    with open(os.path.join(OUT, name), "wb") as file:
        file.write(data)


def carousel(name, path, files, part="slide"):
    """POSTs and saves a carousel; checks the answer's headers; returns its bytes (None if refused)."""
    status, headers, data = post(path, files, part)
    save(name, data)
    kind = "image/png" if ".apng" in path else "image/gif"
    good = status == 200 and headers.get("Content-Type") == kind and headers.get("Cache-Control") == "no-store" \
        and (headers.get("ETag") or "").startswith('"')
    check(f"{name}: 200, {kind}, no-store, a strong ETag ({len(data):,} bytes)"
          + ("" if status == 200 else f": got {status} {data[:200]!r}"), good)
    return data if status == 200 else None


PHOTOS = slide_files(["astronaut.jpg", "coffee.jpg", "chelsea.jpg"])
FLAT = slide_files(["flat-spring.png", "flat-summer.png", "flat-autumn.png"])
photos = [pixels(path) for path in PHOTOS]
flats = [pixels(path) for path in FLAT]
H, W = photos[0].shape[:2]
PAGES, DWELL, TRANSITION = 3, 1000, 400
INDICATOR = "style=pill&scale=2"
indicators = [still(f"pages={PAGES}&current={page}&{INDICATOR}") for page in range(PAGES)]
IH, IW = indicators[0].shape[:2]
TOP = H - INSET * SCALE - IH
# Everything but the indicator's box (with a margin): where a frame shows the slide alone.
slide_area = numpy.ones((H, W), bool)
slide_area[TOP - 4:TOP + IH + 4, (W - IW) // 2 - 4:(W + IW) // 2 + 4] = False
indicator_box = (slice(TOP, TOP + IH), slice((W - IW) // 2, (W + IW) // 2))


def expected(slides, page):
    return composed(slides[page], indicators[page], TOP)


def closest(frame, slides):
    """The slide `frame` shows (outside the indicator), and how far it is from it."""
    distances = [difference(frame, slide, slide_area) for slide in slides]
    return int(numpy.argmin(distances)), min(distances)


def timing_order_and_first_frame(name, data, slides, current, tolerance):
    frames, _ = decoded(data)
    check(f"{name}: {W} x {H}, {len(frames)} frames", frames[0][0].shape[:2] == (H, W) and len(frames) >= PAGES)
    total = sum(ms for _, _, ms in frames)
    check(f"{name}: the delays add up to pages x dwell = {PAGES * DWELL} ms (got {total})", total == PAGES * DWELL)
    first = difference(frames[0][0], expected(slides, current))
    check(f"{name}: the first frame is the composed still of slide {current} (mean difference {first:.2f} <= {tolerance})",
          first <= tolerance)
    for k in range(PAGES):
        page = (current + k) % PAGES
        frame = at(frames, k * DWELL + (DWELL - TRANSITION) // 2)
        shown, distance = closest(frame, slides)
        box = difference(frame[indicator_box], expected(slides, page)[indicator_box])
        check(f"{name}: mid-dwell {k}: slide {page} (shows {shown}, {distance:.2f}) with the indicator on page {page} "
              f"(difference {box:.2f})", shown == page and distance <= tolerance and box <= 2 * tolerance)
    return frames


def main():
    query = f"current=1&dwell={DWELL}&transition={TRANSITION}&{INDICATOR}"

    # change=cut (the default), photos, GIF: every frame is one slide, the change at the dwell's end.
    path = f"/carousel.gif?{query}"
    data = carousel("cut.gif", path, PHOTOS)
    if data:
        frames = timing_order_and_first_frame("cut.gif", data, photos, 1, GIF_TOLERANCE)
        blends = max(closest(frame, photos)[1] for frame, _, _ in frames)
        check(f"cut.gif: every frame shows one slide, no blend (farthest {blends:.2f})", blends <= GIF_TOLERANCE)
        change = next(start for frame, start, _ in frames if closest(frame, photos)[0] != 1)
        check(f"cut.gif: slide 1 gives way to slide 2 at once, at {change} ms: within the transition's window "
              f"({DWELL - TRANSITION}-{DWELL} ms), where the indicator moves",
              DWELL - TRANSITION < change <= DWELL and closest(at(frames, change), photos)[0] == 2)
        again = post(path, PHOTOS)
        check("cut.gif: the same body and query give the same bytes and ETag", again[0] == 200 and again[2] == data)

    # The same as APNG: full colour, so the first frame is the composed still within rounding.
    data = carousel("cut.apng", f"/carousel.apng?{query}", PHOTOS)
    if data:
        frames = timing_order_and_first_frame("cut.apng", data, photos, 1, 0.5)
        worst = float(numpy.percentile(numpy.abs(frames[0][0] - expected(photos, 1)), 99.9))
        check(f"cut.apng: the first frame's pixels are the composed still's within 2 (99.9th percentile {worst:.0f})", worst <= 2)

    # change=fade: mid-transition, a blend of the two slides (APNG, exact colours).
    data = carousel("fade.apng", f"/carousel.apng?{query}&change=fade", PHOTOS)
    if data:
        frames = timing_order_and_first_frame("fade.apng", data, photos, 1, 0.5)
        frame = at(frames, DWELL - TRANSITION // 2)
        a, b = photos[1], photos[2]
        weight = float(((frame - a) * (b - a))[slide_area].sum() / ((b - a) ** 2)[slide_area].sum())
        blend = difference(frame, a + weight * (b - a), slide_area)
        check(f"fade.apng: mid-transition, slides 1 and 2 blended (weight of 2: {weight:.2f}, off by {blend:.2f})",
              0.2 <= weight <= 0.8 and blend <= 1.5)
    data = carousel("fade.gif", f"/carousel.gif?{query}&change=fade", PHOTOS)
    if data:
        timing_order_and_first_frame("fade.gif", data, photos, 1, GIF_TOLERANCE)

    # change=push: mid-transition, slide 1 moved left by d, slide 2 entering from the right.
    data = carousel("push.apng", f"/carousel.apng?{query}&change=push", PHOTOS)
    if data:
        frames = timing_order_and_first_frame("push.apng", data, photos, 1, 0.5)
        frame = at(frames, DWELL - TRANSITION // 2)
        rows = slice(0, TOP - 4, 4)  # every fourth row above the indicator
        a, b, f = photos[1][rows], photos[2][rows], frame[rows]
        errors = [(difference(f, numpy.concatenate([a[:, d:], b[:, :d]], axis=1)), d) for d in range(1, W)]
        error, shift = min(errors)
        check(f"push.apng: mid-transition, slide 1 moved {shift} px left and slide 2 entering from the right (off by {error:.2f})",
              0 < shift < W and error <= 2.0)

    # place=below and above: a band of the indicator's height, filled with matte (white), the slides beside it.
    for place in ("below", "above"):
        data = carousel(f"{place}.gif", f"/carousel.gif?current=0&dwell={DWELL}&{INDICATOR}&place={place}", FLAT)
        if not data:
            continue
        frames, _ = decoded(data)
        first = frames[0][0]
        check(f"{place}.gif: {W} x {H} + the indicator's {IH} px", first.shape[:2] == (H + IH, W))
        slides_at, band_at = (slice(0, H), slice(H, H + IH)) if place == "below" else (slice(IH, IH + H), slice(0, IH))
        off = difference(first[slides_at], flats[0])
        check(f"{place}.gif: the slide beside the band (difference {off:.2f})", off <= 2.0)
        band = composed(numpy.full((IH, W, 3), 255.0), indicators[0], 0)
        check(f"{place}.gif: the band is the indicator on matte (difference {difference(first[band_at], band):.2f})",
              difference(first[band_at], band) <= 2.0)

    # A carousel GIF made elsewhere: its timing and loop count are kept.
    made = os.path.join(OUT, "made-elsewhere.gif")
    images = [Image.fromarray(slide.astype(numpy.uint8)) for slide in flats]
    images[0].save(made, save_all=True, append_images=images[1:], duration=DWELL, loop=2)
    data = carousel("elsewhere.gif", f"/carousel.gif?pages={PAGES}&{INDICATOR}", [made], part="carousel")
    if data:
        frames, loop = decoded(data)
        total = sum(ms for _, _, ms in frames)
        check(f"elsewhere.gif: the timing is kept, {PAGES * DWELL} ms a cycle (got {total}), and the loop count, 2 (got {loop})",
              total == PAGES * DWELL and loop == 2)
        check("elsewhere.gif: mid-dwell 1, its frame 1 with the indicator on page 1",
              closest(at(frames, DWELL + DWELL // 2), flats)[0] == 1
              and difference(at(frames, DWELL + DWELL // 2)[indicator_box], expected(flats, 1)[indicator_box]) <= GIF_TOLERANCE)

    # Refusals, each with its line.
    status, _, body = post("/carousel.gif", PHOTOS[:1])
    check(f"one slide: 400 ({body.decode(errors='replace').strip()})", status == 400 and b"send 2 to 20 parts named slide" in body)
    text = os.path.join(OUT, "not-an-image.png")
    with open(text, "w") as file:
        file.write("hello\n")
    status, _, body = post("/carousel.gif", [PHOTOS[0], text])
    check(f"a part that is no image: 415 ({body.decode(errors='replace').strip()})",
          status == 415 and body == b"slide 2: not a PNG, JPEG, GIF, WebP, HEIC or AVIF\n")


main()
passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if results and all(results) else 1)
