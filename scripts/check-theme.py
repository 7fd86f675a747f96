#!/usr/bin/env python3
"""theme=auto in a real browser: headless Chromium (Selenium, Debian's chromium-driver).

Usage: check-theme.py BASE_URL

Shows SVGs with theme=auto from a running pagedots through <img> (every
style, rings, per-page colours, titles, a background), a <picture> whose
dark <source> is a theme=dark PNG (the builder's snippet), and theme=dark
images, on a grey page, once with the browser's light colour scheme and once
with --force-dark-mode. Reads the pixels of each image from a screenshot and
checks that the light colours are drawn in the light scheme and the dark
ones in the dark scheme, and never the other's. Prints one line per check
and `N passed, N failed`; exits 1 if anything failed.
"""
import io
import sys
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE = sys.argv[1].rstrip("/")
GREY = (128, 128, 128)
ZOOM = 4
results = []


def check(what, condition):
    results.append(bool(condition))
    print(("ok: " if condition else "FAILED: ") + what, flush=True)


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))


def over_grey(hex_colour, alpha):
    """The colour at `alpha` (0-255) composited over the page's grey, as the screen shows it."""
    return tuple(round((c * alpha + g * (255 - alpha)) / 255) for c, g in zip(rgb(hex_colour), GREY))


# (what, image query, {scheme: [(colour name, RGB on screen)]}): in each
# scheme every listed colour is drawn, and no colour listed for the other
# scheme is. Translucent colours are given over the grey page.
INACTIVE = 77  # the default inactive alpha: 255 × 0.3
CASES = [
    ("dots", "pages=5&current=2&format=svg&theme=auto", {
        "light": [("color 007AFF", rgb("007aff")), ("inactive", over_grey("007aff", INACTIVE))],
        "dark": [("darkcolor 0A84FF", rgb("0a84ff")), ("darkinactive", over_grey("0a84ff", INACTIVE))]}),
    ("pill", "pages=5&current=2&style=pill&format=svg&theme=auto&color=ff3b30&darkcolor=ff453a", {
        "light": [("color", rgb("ff3b30")), ("inactive", over_grey("ff3b30", INACTIVE))],
        "dark": [("darkcolor", rgb("ff453a")), ("darkinactive", over_grey("ff453a", INACTIVE))]}),
    ("scroll", "pages=20&current=10&style=scroll&format=svg&theme=auto&color=34c759&darkcolor=30d158", {
        "light": [("color", rgb("34c759"))], "dark": [("darkcolor", rgb("30d158"))]}),
    ("progress", "pages=5&current=1&style=progress&progress=0.6&format=svg&theme=auto&color=000000&darkcolor=ffffff", {
        "light": [("color", rgb("000000")), ("inactive", over_grey("000000", INACTIVE))],
        "dark": [("darkcolor", rgb("ffffff")), ("darkinactive", over_grey("ffffff", INACTIVE))]}),
    ("bar with titles", "pages=3&current=1&style=bar&labels=Home,Search,Profile&format=svg&theme=auto"
     "&color=000000&inactive=5856d6&darkcolor=ffffff&darkinactive=ffd60a", {
        "light": [("color (line, current title)", rgb("000000")), ("inactive (track, titles)", rgb("5856d6"))],
        "dark": [("darkcolor", rgb("ffffff")), ("darkinactive", rgb("ffd60a"))]}),
    ("outline rings", "pages=5&current=0&fill=outline&stroke=2&size=12&format=svg&theme=auto"
     "&color=af52de&inactive=ff9500&darkcolor=bf5af2&darkinactive=ffd60a", {
        "light": [("color", rgb("af52de")), ("ring inactive", rgb("ff9500"))],
        "dark": [("darkcolor", rgb("bf5af2")), ("ring darkinactive", rgb("ffd60a"))]}),
    ("outline stars (rings clipped to their outline)", "pages=5&current=0&shape=star&fill=outline&stroke=2&size=16"
     "&format=svg&theme=auto&color=ff2d55&inactive=5856d6&darkcolor=ffd60a&darkinactive=64d2ff", {
        "light": [("color", rgb("ff2d55")), ("ring inactive", rgb("5856d6"))],
        "dark": [("darkcolor", rgb("ffd60a")), ("ring darkinactive", rgb("64d2ff"))]}),
    ("colors (system blue has a dark shade)", "pages=5&current=4&colors=ff3b30,ff9500,ffcc00,34c759,007aff"
     "&format=svg&theme=auto", {
        "light": [("colors[4] 007AFF", rgb("007aff"))], "dark": [("its dark shade 0A84FF", rgb("0a84ff"))]}),
    ("bg and darkbg", "pages=5&current=2&format=svg&theme=auto&bg=ffffff&darkbg=1c1c1e&color=ff2d55&darkcolor=64d2ff", {
        "light": [("bg", rgb("ffffff")), ("color", rgb("ff2d55"))],
        "dark": [("darkbg", rgb("1c1c1e")), ("darkcolor", rgb("64d2ff"))]}),
]
# A <picture> as the builder writes it: the theme=dark PNG under the dark scheme.
PICTURE = "pages=5&current=2&style=pill&scale=2&color=5856d6&darkcolor=5e5ce6"
PICTURE_COLOURS = {"light": [("color", rgb("5856d6"))], "dark": [("darkcolor", rgb("5e5ce6"))]}
# theme=dark draws the dark colours whatever the scheme.
DARK_ONLY = [("theme=dark PNG", "pages=5&current=2&scale=2&theme=dark&color=ff9500&darkcolor=ff9f0a"),
             ("theme=dark SVG", "pages=5&current=2&format=svg&theme=dark&color=ff9500&darkcolor=ff9f0a")]


def page():
    """The test page's HTML: the images on grey."""
    def img(query, index):
        return f'<p><img id="i{index}" src="/indicator?{query}"></p>'
    parts = [img(query, n) for n, (_, query, _) in enumerate(CASES)]
    parts.append(f'<p><picture id="picture"><source srcset="/indicator?{PICTURE}&theme=dark" '
                 f'media="(prefers-color-scheme: dark)"><img src="/indicator?{PICTURE}"></picture></p>')
    parts += [img(query, f"d{n}") for n, (_, query) in enumerate(DARK_ONLY)]
    return ("<!doctype html><html><head><meta name=color-scheme content='light dark'></head>"
            f"<body style='margin:8px;background:rgb{GREY}'>" + "".join(parts) + "</body></html>")


def start_browser(dark):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--window-size=1000,3000", "--force-device-scale-factor=1", "--force-color-profile=srgb"]
    if dark:
        arguments.append("--force-dark-mode")
    for argument in arguments:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    return driver


def colours(element):
    """How many pixels of each colour the element's screenshot holds."""
    image = Image.open(io.BytesIO(element.screenshot_as_png)).convert("RGB")
    return image.getcolors(image.width * image.height)


def count(histogram, colour, tolerance=2):
    return sum(n for n, c in histogram if all(abs(a - b) <= tolerance for a, b in zip(c, colour)))


def expect_scheme(scheme, name, histogram, expected):
    other = "dark" if scheme == "light" else "light"
    for label, colour in expected[scheme]:
        check(f"{scheme}: {name}: {label} rgb{colour} is drawn ({count(histogram, colour)} px)",
              count(histogram, colour) >= 8)
    for label, colour in expected[other]:
        if colour in [c for _, c in expected[scheme]]:
            continue
        check(f"{scheme}: {name}: the {other} scheme's {label} rgb{colour} is not drawn", count(histogram, colour, 1) == 0)


for scheme in ("light", "dark"):
    driver = start_browser(dark=scheme == "dark")
    try:
        # The test page is written into a page of the service itself, so that
        # its images are same-origin (a data: page may not load from loopback).
        driver.get(BASE + "/healthz")
        driver.execute_script("document.open(); document.write(arguments[0]); document.close();", page())
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
        # Each image shown ZOOM times as wide as it is, so that it has many whole pixels of each colour.
        driver.execute_script(f"for (const i of document.images) i.width = i.naturalWidth * {ZOOM}")
        matches = driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
        check(f"{scheme}: the browser's prefers-color-scheme is {scheme}", matches == (scheme == "dark"))
        for n, (name, _, expected) in enumerate(CASES):
            expect_scheme(scheme, name, colours(driver.find_element(By.ID, f"i{n}")), expected)
        picture = driver.find_element(By.CSS_SELECTOR, "#picture img")
        expect_scheme(scheme, "<picture> with a theme=dark source", colours(picture), PICTURE_COLOURS)
        for n, (name, _) in enumerate(DARK_ONLY):
            histogram = colours(driver.find_element(By.ID, f"id{n}"))
            check(f"{scheme}: {name} draws darkcolor FF9F0A", count(histogram, rgb("ff9f0a")) >= 8)
            check(f"{scheme}: {name} does not draw color FF9500", count(histogram, rgb("ff9500"), 1) == 0)
    finally:
        driver.quit()

passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if results and all(results) else 1)
