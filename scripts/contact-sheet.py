#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Lay pictures out as one labelled contact sheet (make demo's).

Usage: contact-sheet.py OUT.png TITLE [LABEL FILE]...

Each FILE is a picture Pillow reads (PNG, PPM) or a .txt file whose lines
are drawn as text; LABEL goes under its tile, lines split at ';'. Pictures
larger than a tile are shrunk to fit it, never enlarged, so the
deinterlacing tiles (320x240) show their lines one for one. Fails on a
missing or unreadable file, so the demo fails loudly.
"""
import sys

from PIL import Image, ImageDraw, ImageFont

TILE_W, TILE_H = 320, 240
LABEL_H = 40
PAD = 12
COLUMNS = 5
BACKGROUND = (32, 32, 36)
INK = (235, 235, 235)
DIM = (160, 160, 170)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # fonts-dejavu-core
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def font(path, size):
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return ImageFont.load_default()


def picture_tile(path):
    picture = Image.open(path).convert("RGB")
    picture.thumbnail((TILE_W, TILE_H), Image.LANCZOS)
    return picture


def text_tile(path):
    tile = Image.new("RGB", (TILE_W, TILE_H), (16, 16, 20))
    draw = ImageDraw.Draw(tile)
    mono = font(MONO, 11)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        raise SystemExit(f"contact-sheet: {path} is empty")
    for i, line in enumerate(lines[:TILE_H // 14]):
        draw.text((6, 4 + 14 * i), line[:50], font=mono, fill=INK)
    return tile


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        raise SystemExit(__doc__.split("\n\n")[1])
    out, title, pairs = argv[1], argv[2], argv[3:]
    tiles = [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    rows = (len(tiles) + COLUMNS - 1) // COLUMNS
    title_h = 44
    cell_w, cell_h = TILE_W + PAD, TILE_H + LABEL_H + PAD
    sheet = Image.new("RGB", (PAD + COLUMNS * cell_w, title_h + rows * cell_h),
                      BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 10), title, font=font(FONT, 20), fill=INK)
    label_font = font(FONT, 13)
    for n, (label, path) in enumerate(tiles):
        tile = text_tile(path) if path.endswith(".txt") else picture_tile(path)
        x = PAD + (n % COLUMNS) * cell_w
        y = title_h + (n // COLUMNS) * cell_h
        sheet.paste(tile, (x + (TILE_W - tile.width) // 2,
                           y + (TILE_H - tile.height) // 2))
        for i, line in enumerate(label.split(";")):
            draw.text((x, y + TILE_H + 4 + 17 * i), line.strip(),
                      font=label_font, fill=INK if i == 0 else DIM)
    sheet.save(out)


if __name__ == "__main__":
    main(sys.argv)
