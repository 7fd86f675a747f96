#!/usr/bin/env python3
"""Makes the example slides in this folder (README.md says what they are):
five photographs from scikit-image's bundled data, cropped to 2:1 and scaled
to 1200 x 600 JPEG, and three flat designed slides drawn with Pillow as PNG.

Usage: python3 docs/examples/carousel/make.py   (needs scikit-image and Pillow)
The output is the same on every run with the same scikit-image and Pillow.
"""
import os

from PIL import Image, ImageDraw, ImageFont
import skimage.data

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = (1200, 600)
# name, skimage.data function, the crop's vertical centre (0 top … 1 bottom).
PHOTOS = [
    ("astronaut", "astronaut", 0.35),
    ("coffee", "coffee", 0.5),
    ("chelsea", "chelsea", 0.45),
    ("rocket", "rocket", 0.5),
    ("hubble", "hubble_deep_field", 0.5),
]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def photo(function, centre):
    """The photograph cropped to 2:1 around `centre` and scaled to SIZE (Lanczos)."""
    image = Image.fromarray(getattr(skimage.data, function)()).convert("RGB")
    width, height = image.size
    crop_height = min(height, width // 2)
    crop_width = crop_height * 2
    top = min(max(0, round(centre * height - crop_height / 2)), height - crop_height)
    left = (width - crop_width) // 2
    return image.crop((left, top, left + crop_width, top + crop_height)).resize(SIZE, Image.LANCZOS)


def flat(background, accent, ink, title, subtitle, shape):
    """A flat slide: a solid background, one large shape, a title and a line of text."""
    image = Image.new("RGB", SIZE, background)
    draw = ImageDraw.Draw(image)
    if shape == "circle":
        draw.ellipse((760, 90, 1180, 510), fill=accent)
    elif shape == "stripes":
        for n in range(6):
            draw.rectangle((780 + n * 70, 0, 810 + n * 70, 600), fill=accent)
    else:
        draw.polygon([(760, 520), (980, 80), (1180, 520)], fill=accent)
    draw.rounded_rectangle((80, 420, 380, 500), radius=40, fill=ink)
    draw.text((230, 460), "Shop now", font=ImageFont.truetype(FONT, 34), fill=background, anchor="mm")
    draw.text((80, 150), title, font=ImageFont.truetype(FONT, 84), fill=ink)
    draw.text((84, 280), subtitle, font=ImageFont.truetype(FONT, 36), fill=ink)
    return image


def main():
    for name, function, centre in PHOTOS:
        photo(function, centre).save(os.path.join(HERE, name + ".jpg"), quality=85, optimize=True)
    slides = [
        ("flat-spring", "#FFE8D6", "#FF6B6B", "#3D2C2E", "Spring", "New colours, light fabrics", "circle"),
        ("flat-summer", "#D8F3DC", "#40916C", "#1B4332", "Summer", "Everything for the garden", "stripes"),
        ("flat-autumn", "#FFF3B0", "#E09F3E", "#540B0E", "Autumn", "Warm layers, 20 % off", "triangle"),
    ]
    for name, *look in slides:
        flat(*look).save(os.path.join(HERE, name + ".png"), optimize=True)


if __name__ == "__main__":
    main()
