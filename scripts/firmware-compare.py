#!/usr/bin/env python3
"""Compares the output of two builds byte for byte and, on a difference, names the first differing
frame and pixel.

    firmware-compare.py EXPECTED ACTUAL [--label NAME]

EXPECTED and ACTUAL are both files or both folders. Folders must hold the same file names; their
files are frames in name order (a PNG sequence). A Y4M file holds its frames itself. PNGs are
decoded only when their bytes differ, to say which pixel differs. Exit status: 0 identical, 1 not.
"""
import argparse
import os
import struct
import sys
import zlib


class Image:
    def __init__(self, width, height, channels, sample_bytes, rows):
        self.width, self.height = width, height
        self.channels, self.sample_bytes = channels, sample_bytes
        self.rows = rows  # list of bytes, one per row, unfiltered

    def pixel(self, x, y):
        step = self.channels * self.sample_bytes
        return tuple(self.rows[y][x * step:(x + 1) * step])


def decode_png(path):
    """Minimal PNG reader (non-interlaced; any bit depth >= 8): enough to locate a differing pixel."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if interlace or depth < 8:
        raise ValueError("interlaced or sub-byte PNG")
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    sample_bytes = depth // 8
    bpp = channels * sample_bytes
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        row = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(row))
        previous = row
    return Image(width, height, channels, sample_bytes, rows)


def first_byte_difference(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return min(len(a), len(b))


def compare_png(expected, actual, frame):
    try:
        e, a = decode_png(expected), decode_png(actual)
    except (ValueError, KeyError, zlib.error, struct.error, TypeError) as error:
        with open(expected, "rb") as f1, open(actual, "rb") as f2:
            offset = first_byte_difference(f1.read(), f2.read())
        return f"frame {frame}: PNG bytes differ at offset {offset} (not decoded: {error})"
    if (e.width, e.height, e.channels, e.sample_bytes) != (a.width, a.height, a.channels, a.sample_bytes):
        return (f"frame {frame}: image shape differs: {e.width}x{e.height}x{e.channels}ch/{8 * e.sample_bytes}bit"
                f" vs {a.width}x{a.height}x{a.channels}ch/{8 * a.sample_bytes}bit")
    for y in range(e.height):
        if e.rows[y] != a.rows[y]:
            x = first_byte_difference(e.rows[y], a.rows[y]) // (e.channels * e.sample_bytes)
            count = sum(1 for yy in range(e.height) for xx in range(e.width) if e.pixel(xx, yy) != a.pixel(xx, yy))
            return (f"frame {frame}: first differing pixel (x={x}, y={y}): expected {e.pixel(x, y)}, "
                    f"got {a.pixel(x, y)}; {count} of {e.width * e.height} pixels differ")
    return f"frame {frame}: pixels are identical but the PNG encoding differs (chunks or compression)"


def parse_y4m(data):
    end = data.index(b"\n")
    header = data[:end].decode("ascii", "replace").split()
    fields = {t[0]: t[1:] for t in header[1:]}
    width, height = int(fields["W"]), int(fields["H"])
    chroma = fields.get("C", "420jpeg")
    if chroma.startswith("444"):
        planes = [(width, height)] * 3
    elif chroma.startswith("422"):
        planes = [(width, height), ((width + 1) // 2, height), ((width + 1) // 2, height)]
    elif chroma.startswith("mono"):
        planes = [(width, height)]
    else:
        planes = [(width, height), ((width + 1) // 2, (height + 1) // 2), ((width + 1) // 2, (height + 1) // 2)]
    frames, pos = [], end + 1
    size = sum(w * h for w, h in planes)
    while pos < len(data):
        line_end = data.index(b"\n", pos)
        frames.append(data[line_end + 1:line_end + 1 + size])
        pos = line_end + 1 + size
    return data[:end], planes, frames


def compare_y4m(expected, actual):
    with open(expected, "rb") as f:
        e_data = f.read()
    with open(actual, "rb") as f:
        a_data = f.read()
    try:
        e_header, planes, e_frames = parse_y4m(e_data)
        a_header, _, a_frames = parse_y4m(a_data)
    except (ValueError, KeyError) as error:
        return f"Y4M bytes differ at offset {first_byte_difference(e_data, a_data)} (not parsed: {error})"
    if e_header != a_header:
        return f"Y4M headers differ: {e_header!r} vs {a_header!r}"
    for index, (e, a) in enumerate(zip(e_frames, a_frames)):
        if e != a:
            first = offset = first_byte_difference(e, a)
            for plane, (w, h) in enumerate(planes):
                if offset < w * h:
                    count = sum(1 for i in range(len(e)) if i >= len(a) or e[i] != a[i])
                    return (f"frame {index}: first differing pixel (x={offset % w}, y={offset // w}) in plane "
                            f"{'YUV'[plane] if len(planes) == 3 else plane}: expected {e[first] if first < len(e) else None}, "
                            f"got {a[first] if first < len(a) else None}; {count} bytes of the frame differ")
                offset -= w * h
            return f"frame {index}: frame lengths differ"
    if len(e_frames) != len(a_frames):
        return f"frame count differs: expected {len(e_frames)}, got {len(a_frames)}"
    return f"Y4M bytes differ at offset {first_byte_difference(e_data, a_data)} outside frame data"


def compare_file(expected, actual, frame):
    with open(expected, "rb") as f1, open(actual, "rb") as f2:
        if f1.read() == f2.read():
            return None
    if expected.endswith(".y4m"):
        return compare_y4m(expected, actual)
    if expected.endswith(".png"):
        return compare_png(expected, actual, frame)
    with open(expected, "rb") as f1, open(actual, "rb") as f2:
        return f"bytes differ at offset {first_byte_difference(f1.read(), f2.read())}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("expected")
    parser.add_argument("actual")
    parser.add_argument("--label", default="output")
    args = parser.parse_args()
    problems = []
    if os.path.isdir(args.expected):
        if not os.path.isdir(args.actual):
            problems.append(f"{args.actual} is missing or not a folder")
        else:
            e_names, a_names = sorted(os.listdir(args.expected)), sorted(os.listdir(args.actual))
            if e_names != a_names:
                problems.append(f"file lists differ: only expected: {sorted(set(e_names) - set(a_names))[:5]}, "
                                f"only actual: {sorted(set(a_names) - set(e_names))[:5]}")
            if not e_names:
                problems.append(f"{args.expected} is empty: nothing was compared")
            for frame, name in enumerate(e_names):
                if name in a_names:
                    problem = compare_file(os.path.join(args.expected, name), os.path.join(args.actual, name), frame)
                    if problem:
                        problems.append(f"{name}: {problem}")
                        # An encoding-only difference is reported, and the search goes on for a pixel.
                        if "pixels are identical" not in problem:
                            break
            compared = len(e_names)
    else:
        if not os.path.isfile(args.actual):
            problems.append(f"{args.actual} is missing")
        else:
            problem = compare_file(args.expected, args.actual, 0)
            if problem:
                problems.append(problem)
        compared = 1
    if problems:
        for problem in problems:
            print(f"DIFFERENT {args.label}: {problem}")
        return 1
    print(f"identical {args.label}: {compared} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
