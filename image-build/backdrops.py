#!/usr/bin/env python3
"""Writes the box's default backdrops (PNG, 1280x720) into a folder: a few calm gradients made by
the project, so the booth shows something on first boot before anyone brings their own.

The PNG is written with zlib and struct from Python's standard library (the build host has no
imaging library to rely on); every byte depends only on this file, so two builds agree.
Usage: backdrops.py DIR
"""
import math
import os
import struct
import sys
import zlib

WIDTH, HEIGHT = 1280, 720


def png(path, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def mix(a, b, t):
    return bytes(int(a[i] + (b[i] - a[i]) * t + 0.5) for i in range(3))


def vertical(top, bottom):
    return [mix(top, bottom, y / (HEIGHT - 1)) * WIDTH for y in range(HEIGHT)]


def studio():
    # A grey backdrop lit from the centre: brightness falls off with the distance from it.
    rows = []
    cx, cy, reach = WIDTH / 2, HEIGHT * 0.45, math.hypot(WIDTH / 2, HEIGHT / 2)
    for y in range(HEIGHT):
        row = bytearray()
        for x in range(0, WIDTH, 8):
            level = int(200 - 110 * (math.hypot(x - cx, y - cy) / reach) ** 1.5)
            row += bytes((level, level, min(255, level + 6))) * 8
        rows.append(bytes(row))
    return rows


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    png(os.path.join(out, "01-dusk.png"), vertical((24, 32, 86), (236, 132, 72)))
    png(os.path.join(out, "02-studio.png"), studio())
    png(os.path.join(out, "03-sea.png"), vertical((130, 200, 235), (10, 70, 110)))


main()
