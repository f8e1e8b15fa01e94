#!/usr/bin/env python3
"""make-dump.py DIR [--bad-crc] [--refused] [--short] [--zero-fx] [--nan]: writes a RealSense D435-like
dump (DIR/depth.bin, DIR/color.bin, DIR/units.bin: 1024-byte hardware-monitor replies) built from
the documented layout (../shared/notes/realsense-facts.md), independently of the Swift parser."""
import struct, sys, zlib, os

def table(type_, total, fields):
    body = bytearray(total - 16)
    for offset, data in fields:
        body[offset - 16:offset - 16 + len(data)] = data
    header = struct.pack('>H', 0x0203) + struct.pack('<HIII', type_, len(body), 0, zlib.crc32(bytes(body)))
    return bytearray(header + body)

def reply(echo, payload):
    buf = bytearray(1024)
    buf[0:4] = struct.pack('<I', echo & 0xFFFFFFFF)
    buf[4:4 + len(payload)] = payload
    buf[1020:1024] = struct.pack('<I', len(payload))
    return buf

def f(*values):
    return struct.pack('<%df' % len(values), *values)

args = sys.argv[2:]
folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
depth_848 = (0.0 if '--zero-fx' in args else 421.5, 421.5, 424.2, 238.9)
depth = table(25, 576, [(160, f(50.1)), (256, f(1264.5, 1264.5, 958.6, 537.6)), (256 + 32, f(383.2, 383.2, 319.7, 238.6)),
                        (256 + 48, f(*depth_848))])
normalised = (float('nan') if '--nan' in args else 0.9584, 0, 0.0101, 0, 1.7038, -0.0057, 0, 0, 1)
colour = table(32, 256, [(16, f(*normalised)), (144, struct.pack('<HH', 1920, 1080)),
                         (184, f(1, 0, 0, 0, 1, 0, 0, 0, 1)), (220, f(14.9, 0.1, 0.3))])
if '--bad-crc' in args:
    depth[300] ^= 0x40
depth_reply = reply(0x15, depth)
colour_reply = reply(-7 if '--refused' in args else 0x15, colour)
if '--short' in args:
    depth_reply = depth_reply[:600]
open(os.path.join(folder, 'depth.bin'), 'wb').write(depth_reply)
open(os.path.join(folder, 'color.bin'), 'wb').write(colour_reply)
open(os.path.join(folder, 'units.bin'), 'wb').write(reply(0x2C, struct.pack('<I', 100 if '--d405-units' in args else 1000) + bytes(16)))
