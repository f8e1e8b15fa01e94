#!/usr/bin/env python3
"""Writes the end-to-end scene: one static RGB-D frame in two forms that must composite alike.

    scene.py WORKDIR

WORKDIR/colour.yuyv, depth.z16   what the producer loops into the loopback nodes (640x480)
WORKDIR/recording/               the same frame as a recording for `backdrop render`
WORKDIR/backdrops/{a,b,c}.png    three backdrops, told apart by colour (a blue, b orange, c green)

The colour frame is made in YUYV first and its RGB twin is computed with the compositor's own
integer BT.601 limited-range formula (Sources/Compose/YCbCr.swift), so the live path (YUYV from
the camera) and the offline path (RGB from the PNG) should produce identical pixels. Chroma is
constant over 16x16 blocks so a converter that interpolates chroma would differ only at block
edges. Depth: a wall at 3 m and a subject (head and body) at about 1.2 m, inside the default band.
Pure Python (no numpy) so it runs wherever python3 does.
"""
import os
import struct
import sys
import zlib

W, H = 640, 480
OUT_W, OUT_H = 1024, 768


def png(path, width, height, rows, colour_type, bit_depth):
    """rows: list of bytes, already in PNG sample order (16-bit big-endian)."""
    raw = b"".join(b"\x00" + r for r in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def rgb(y, cb, cr):
    """Sources/Compose/YCbCr.swift, scalar form, bit for bit."""
    luma = y * 74 + ((y * 66) >> 7) - 1160
    u, v = cb - 128, cr - 128

    def ch(fixed):
        return min(max(fixed >> 6, 0), 255)

    return ch(luma + v * 102), ch(luma - u * 25 - v * 52), ch(luma + u * 129)


def in_subject(x, y):
    head = ((x - 320) / 62.0) ** 2 + ((y - 150) / 78.0) ** 2 <= 1.0
    body = 210 <= x < 430 and 235 <= y < H
    return head or body


def main():
    work = sys.argv[1]
    for sub in ("recording/color", "recording/depth", "backdrops"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)

    yuyv = bytearray(W * H * 2)
    depth_rows, colour_rows = [], []
    depth_raw = bytearray(W * H * 2)
    for y in range(H):
        crow = bytearray(W * 3)
        drow = bytearray(W * 2)
        for x in range(0, W, 2):
            bx, by = x // 16, y // 16
            subject = in_subject(x, y)
            if subject:
                cb, cr = 96 + (bx % 4) * 4, 168 + (by % 4) * 4
            else:
                cb, cr = 100 + ((bx * 7 + by * 3) % 8) * 8, 110 + ((bx * 5 + by * 11) % 8) * 6
            for dx in (0, 1):
                px = x + dx
                sub = in_subject(px, y)
                if sub:
                    luma = 90 + ((3 * px + y) % 50) * 2
                    mm = 1150 + (px + y) % 100
                else:
                    luma = 60 + ((px + 2 * y) % 64) * 2
                    mm = 3000
                yuyv[(y * W + px) * 2] = luma
                r, g, b = rgb(luma, cb, cr)
                crow[px * 3:px * 3 + 3] = bytes((r, g, b))
                drow[px * 2:px * 2 + 2] = struct.pack(">H", mm)
                depth_raw[(y * W + px) * 2:(y * W + px) * 2 + 2] = struct.pack("<H", mm)
            yuyv[(y * W + x) * 2 + 1] = cb
            yuyv[(y * W + x) * 2 + 3] = cr
        colour_rows.append(bytes(crow))
        depth_rows.append(bytes(drow))

    with open(os.path.join(work, "colour.yuyv"), "wb") as f:
        f.write(yuyv)
    with open(os.path.join(work, "depth.z16"), "wb") as f:
        f.write(depth_raw)
    png(os.path.join(work, "recording/color/000000.png"), W, H, colour_rows, 2, 8)
    png(os.path.join(work, "recording/depth/000000.png"), W, H, depth_rows, 0, 16)
    with open(os.path.join(work, "recording/recording.ini"), "w") as f:
        f.write("[depth]\nunit_mm = 1.0\nregistered = true\n")

    # Backdrops: a soft gradient each, dominated by one hue, so a photo says which one is shown.
    hues = {"a": (40, 80, 220), "b": (230, 140, 30), "c": (40, 200, 70)}
    for name, (r0, g0, b0) in hues.items():
        rows = []
        for y in range(OUT_H):
            shade = y * 40 // OUT_H
            row = bytes((max(0, r0 - shade), max(0, g0 - shade), max(0, b0 - shade))) * OUT_W
            rows.append(row)
        png(os.path.join(work, "backdrops", name + ".png"), OUT_W, OUT_H, rows, 2, 8)


if __name__ == "__main__":
    main()
