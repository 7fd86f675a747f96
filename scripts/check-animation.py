#!/usr/bin/env python3
"""Animated GIFs and APNGs checked with tools pagedots did not write.

Usage: check-animation.py BASE_URL OUT_DIR

Fetches a set of animated images from a running pagedots (every style as GIF
and as APNG, a finite loop, theme=dark, fill=outline, a vertical direction)
into OUT_DIR and reads each one back with:

- gifsicle --info (GIFs): frame count, the NETSCAPE loop count, delays;
- ImageMagick identify: the size, and for GIFs the frames and their delays;
- Pillow: n_frames, the frame durations adding up to pages × dwell ms, the
  loop as docs/animation.md says for N plays, and the first frame being the
  still PNG of the same URL (for a GIF: over `matte` where the PNG is partly
  transparent);
- pngcheck (APNGs): a valid file whose acTL, fcTL and fdAT chunks agree
  with the frame count;
- headless Chromium (Selenium, Debian's chromium-driver): each GIF and APNG
  shown in an <img> next to its still PNG; the first frame's pixels on the
  screenshot are the PNG's.

Prints only what failed (with why) and a last line `N passed, N failed`;
exits 1 if anything failed.
"""
import io
import re
import struct
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE, OUT = sys.argv[1].rstrip("/"), Path(sys.argv[2])
results = []


def check(what, condition, detail=""):
    results.append(bool(condition))
    if not condition:
        print(f"FAILED: {what}" + (f" ({detail})" if detail else ""), flush=True)


# (name, query without format): every style, and the parameters that change
# what a frame holds or how the file plays. Each is fetched as GIF and APNG.
CASES = [
    ("dots", "pages=5&current=2"),
    ("pill", "pages=5&current=3&style=pill&scale=2&dwell=1200&transition=400"),
    ("bar", "pages=3&current=1&style=bar&labels=Home,Feed,Profile&effect=worm"),
    ("scroll", "pages=12&current=10&style=scroll&visible=5&effect=fade&dwell=500"),
    ("progress", "pages=4&current=1&style=progress&dwell=1000&transition=200&fps=10"),
    ("fraction", "pages=12&current=8&style=fraction&size=12&dwell=800"),
    ("loop3", "pages=3&style=pill&loop=3&dwell=600&effect=worm"),
    ("loop1", "pages=3&loop=1&dwell=300&effect=none"),
    ("dark-outline", "pages=5&current=1&style=pill&theme=dark&fill=outline&stroke=1.5&matte=000000"),
    ("ttb-colors", "pages=4&current=3&direction=ttb&colors=ff3b30,ff9500,34c759,007aff&shape=heart&size=10"),
    # Opaque, over 256 colours: an RGB APNG whose frames blend OVER with a colour key.
    ("rgb-key", "pages=4&shape=heart&fill=outline&color=ff2d55&bg=ffffff&scale=3"),
]
DEFAULT_DWELL = 3000


def parameters(query):
    return dict(urllib.parse.parse_qsl(query))


def still_query(query):
    """The still an animation starts on: a progress timer starts empty."""
    return query + ("&progress=0" if "style=progress" in query else "")


def fetch(path, query):
    with urllib.request.urlopen(f"{BASE}{path}?{query}", timeout=30) as response:
        return response.headers.get("Content-Type"), response.read()


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def expected_pillow_loop(fmt, plays):
    """Pillow's `loop` for N plays: APNG's num_plays is N (0 forever); a GIF's
    NETSCAPE extension counts repeats after the first play, N − 1, and is
    absent when the cycle plays once (Pillow then has no `loop`)."""
    if fmt == "apng":
        return plays
    return None if plays == 1 else (0 if plays == 0 else plays - 1)


def first_frame_matches_still(frame, still, matte, fmt):
    """The first frame (RGBA) against the still PNG: equal for APNG; for GIF,
    transparent where the PNG is, its opaque pixels equal, partly
    transparent ones over the matte (±1 for rounding)."""
    if frame.size != still.size:
        return False, f"size {frame.size} against {still.size}"
    worst = 0
    for got, want in zip(pixels(frame), pixels(still)):
        if fmt == "apng" or want[3] == 255:
            difference = max(abs(a - b) for a, b in zip(got, want))
        elif want[3] == 0:
            difference = 0 if got[3] == 0 else 255
        else:
            blended = [round((c * want[3] + m * (255 - want[3])) / 255) for c, m in zip(want[:3], matte)]
            difference = max([abs(a - b) for a, b in zip(got[:3], blended)] + [255 - got[3]])
        worst = max(worst, difference)
    limit = 0 if fmt == "apng" else 1
    return worst <= limit, f"largest difference {worst} per channel"


def pixels(image):
    """The RGBA image's pixels as 4-tuples."""
    data = image.tobytes()
    return [tuple(data[i:i + 4]) for i in range(0, len(data), 4)]


def png_chunks(data):
    """(type, body) of every chunk of a PNG file."""
    chunks, offset = [], 8
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunks.append((kind.decode("latin-1"), data[offset + 8:offset + 8 + length]))
        offset += 12 + length
    return chunks


def matte_of(query):
    hex_colour = parameters(query).get("matte", "ffffff")
    return tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))


def check_file(name, fmt, query, body, still_body):
    """gifsicle, identify, Pillow and pngcheck on one image."""
    given = parameters(query)
    pages, dwell, plays = int(given["pages"]), int(given.get("dwell", DEFAULT_DWELL)), int(given.get("loop", 0))
    label = f"{name}.{fmt}"
    path = OUT / label
    path.write_bytes(body)

    image = Image.open(io.BytesIO(body))
    frames = image.n_frames
    durations = []
    for index in range(frames):
        image.seek(index)
        durations.append(image.info.get("duration", 0))
    check(f"{label}: Pillow reads it as {fmt.upper()}", image.format == ("GIF" if fmt == "gif" else "PNG"), image.format)
    check(f"{label}: Pillow: the {frames} durations add up to pages × dwell = {pages * dwell} ms",
          sum(durations) == pages * dwell, f"{sum(durations)} ms: {durations}")
    check(f"{label}: Pillow: no frame under 20 ms", min(durations) >= 20, str(min(durations)))
    check(f"{label}: Pillow: animated", frames > 1 or pages == 1, f"{frames} frames")
    # The first frame from a fresh decoder (seeking back replays the frames).
    image = Image.open(io.BytesIO(body))
    check(f"{label}: Pillow: loop for {plays} plays", image.info.get("loop") == expected_pillow_loop(fmt, plays),
          f"loop {image.info.get('loop')}")
    still = Image.open(io.BytesIO(still_body)).convert("RGBA")
    same, detail = first_frame_matches_still(image.convert("RGBA"), still, matte_of(query), fmt)
    check(f"{label}: Pillow: the first frame is the still PNG", same, detail)

    identify = run("identify", "-format", "%m %w %h %T\n", f"{'gif' if fmt == 'gif' else 'png'}:{path}")
    lines = identify.stdout.split()
    check(f"{label}: identify reads it", identify.returncode == 0 and lines, identify.stderr.strip()[:200])
    rows = [line.split() for line in identify.stdout.strip().splitlines()]
    check(f"{label}: identify: {still.width}×{still.height}", rows and rows[0][1:3] == [str(still.width), str(still.height)], str(rows[:1]))
    if fmt == "gif":
        delays = [int(row[3]) * 10 for row in rows]
        check(f"{label}: identify: {frames} frames", len(rows) == frames, str(len(rows)))
        check(f"{label}: identify: delays add up to {pages * dwell} ms", sum(delays) == pages * dwell, str(sum(delays)))

        info = run("gifsicle", "--info", str(path))
        text = info.stdout
        check(f"{label}: gifsicle reads it", info.returncode == 0, info.stderr.strip()[:200])
        count = re.search(r"(\d+) images?", text)
        check(f"{label}: gifsicle: {frames} images", count and int(count.group(1)) == frames, count and count.group(0))
        delays = [round(float(d) * 1000) for d in re.findall(r"delay ([0-9.]+)s", text)]
        check(f"{label}: gifsicle: delays add up to {pages * dwell} ms", sum(delays) == pages * dwell, str(sum(delays)))
        loop = re.search(r"loop (forever|count (\d+))", text)
        wanted = "absent" if plays == 1 else ("forever" if plays == 0 else f"count {plays - 1}")
        got = "absent" if not loop else loop.group(1)
        check(f"{label}: gifsicle: loop extension {wanted} for {plays} plays", got == wanted, got)
    else:
        # pngcheck checks every chunk's CRC, length and order (Debian's 3.0.3 lists
        # APNG's chunks without decoding them); their fields are read here.
        verbose = run("pngcheck", "-v", str(path))
        text = verbose.stdout
        check(f"{label}: pngcheck finds no error", verbose.returncode == 0 and "No errors detected" in text,
              (text + verbose.stderr).strip().splitlines()[-1][:200] if (text + verbose.stderr).strip() else "")
        listed = re.findall(r"chunk (\w{4}) at offset", text)
        check(f"{label}: pngcheck: IHDR, then acTL before the first IDAT",
              listed[:1] == ["IHDR"] and "acTL" in listed and "IDAT" in listed and listed.index("acTL") < listed.index("IDAT"),
              " ".join(listed[:6]))
        check(f"{label}: pngcheck: one fcTL per frame, fdAT for every frame after the first",
              listed.count("fcTL") == frames and listed.count("fdAT") >= frames - 1, f"{listed.count('fcTL')} fcTL, {listed.count('fdAT')} fdAT")
        chunks = png_chunks(body)
        actl = [struct.unpack(">II", data) for kind, data in chunks if kind == "acTL"]
        check(f"{label}: acTL says {frames} frames, {plays} plays", actl == [(frames, plays)], str(actl))
        sequence = [struct.unpack(">I", data[:4])[0] for kind, data in chunks if kind in ("fcTL", "fdAT")]
        check(f"{label}: fcTL and fdAT are numbered 0, 1, 2 … in order", sequence == list(range(len(sequence))), str(sequence[:8]))
        controls = [struct.unpack(">IIIIIHHBB", data) for kind, data in chunks if kind == "fcTL"]
        inside = all(w > 0 and h > 0 and x + w <= still.width and y + h <= still.height for _, w, h, x, y, *_ in controls)
        check(f"{label}: every fcTL's region lies on the canvas, and the first covers it",
              inside and controls and controls[0][1:5] == (still.width, still.height, 0, 0), str(controls[:1]))
        delays = [round(1000 * num / (den or 100)) for *_, num, den, _, _ in controls]
        check(f"{label}: fcTL delays add up to {pages * dwell} ms", sum(delays) == pages * dwell, str(sum(delays)))


def browser_page(images):
    """One row per image: the animation, then its still, on the matte's colour."""
    rows = "".join(
        f'<p style="background:rgb{matte};margin:0;padding:8px"><img id="a{n}" src="{animated}"> <img id="s{n}" src="{still}"></p>'
        for n, (animated, still, matte) in enumerate(images))
    return f"<!doctype html><html><body style='margin:0'>{rows}</body></html>"


def check_browser(cases):
    """Each animation and its still in <img>, shown by Chromium; the first frame's
    pixels on a screenshot are the still's. Their dwell is long, so that the
    screenshot, taken as soon as every image has loaded, catches the first frame."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=800,2000",
                     "--force-device-scale-factor=1", "--force-color-profile=srgb"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    try:
        images = [(f"/indicator.{fmt}?{query}", f"/indicator.png?{still_query(query)}", matte_of(query)) for _, fmt, query in cases]
        # Written into a page of the service, so that the images are same-origin.
        driver.get(BASE + "/healthz")
        driver.execute_script("document.open(); document.write(arguments[0]); document.close();", browser_page(images))
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        for n, (name, fmt, _) in enumerate(cases):
            crops = []
            for prefix in ("a", "s"):
                box = driver.execute_script(
                    "const r = document.getElementById(arguments[0]).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]",
                    f"{prefix}{n}")
                x, y, w, h = (round(v) for v in box)
                crops.append(shot.crop((x, y, x + w, y + h)))
            animated, still = crops
            worst = max((abs(a - b) for a, b in zip(animated.tobytes(), still.tobytes())), default=255)
            check(f"Chromium: {name} as {fmt.upper()} shows the still PNG first", animated.size == still.size and worst <= 2,
                  f"sizes {animated.size} and {still.size}, largest difference {worst}")
    finally:
        driver.quit()


OUT.mkdir(parents=True, exist_ok=True)
for name, query in CASES:
    _, still = fetch("/indicator.png", still_query(query))
    (OUT / f"{name}.png").write_bytes(still)
    for fmt, media_type in (("gif", "image/gif"), ("apng", "image/png")):
        content_type, body = fetch(f"/indicator.{fmt}", query)
        check(f"{name}.{fmt}: served as {media_type}", content_type == media_type, content_type)
        check_file(name, fmt, query, body, still)

# Long dwells for the browser, so the first frame lasts while the screenshot is taken.
BROWSER = [
    ("pill", "gif", "pages=5&current=3&style=pill&scale=2&dwell=30000"),
    ("pill", "apng", "pages=5&current=3&style=pill&scale=2&dwell=30000"),
    ("progress at 1 fps", "gif", "pages=4&current=1&style=progress&dwell=30000&fps=1"),
    ("dark outline on black", "apng", "pages=5&current=1&style=pill&theme=dark&fill=outline&dwell=30000"),
    ("dark outline on black", "gif", "pages=5&current=1&style=pill&theme=dark&fill=outline&dwell=30000&matte=000000"),
    ("ttb hearts", "gif", "pages=4&current=3&direction=ttb&shape=heart&size=10&colors=ff3b30,34c759&dwell=30000"),
    ("bar titles", "apng", "pages=3&current=1&style=bar&labels=Home,Feed,Profile&dwell=30000"),
]
check_browser(BROWSER)

passed = sum(results)
print(f"check-animation: {len(CASES) * 2} animations and {len(BROWSER)} in Chromium: {passed} passed, {len(results) - passed} failed")
sys.exit(0 if results and all(results) else 1)
