#!/usr/bin/env python3
"""Writes the .cube fixtures in Tests/LooksTests/Fixtures/ with an independent producer, the
`colour-science` library from PyPI, so CubeProducerTests can check that files another program
made read the same as the tables the tests build themselves. Run once; the files are committed.

    tests/looks/colour-science-cubes.sh    (makes a venv under /var/cache/backdrop-looks, runs this)

The functions here are the ones CubeProducerTests writes again in Swift (`warm`, `curve`).
colour-science is a test-fixture tool only: nothing in the product or in `make test` needs it.
"""
import os
import sys

import colour
import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../Tests/LooksTests/Fixtures")
os.makedirs(out, exist_ok=True)


def warm(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return np.stack([r * r * 0.3 + r * 0.7, (g + r * 0.1) / 1.1, b * b], axis=-1)


# 3D, size 17, unit domain, with comments and a title.
table = colour.LUT3D.linear_table(17)
lut = colour.LUT3D(warm(table), name="warm from colour-science", comments=["made by colour-science", "for Backdrop's tests"])
colour.io.write_LUT_IridasCube(lut, os.path.join(out, "colour-warm-17.cube"), decimals=9)

# 3x1D, size 64, domain 0..2 on each channel: out = (x / 2) ^ (1, 0.5, 2).
x = np.linspace(0, 2, 64)
curves = np.stack([x / 2, np.sqrt(x / 2), (x / 2) ** 2], axis=-1)
lut1d = colour.LUT3x1D(curves, name="curve", domain=np.array([[0, 0, 0], [2, 2, 2]]))
colour.io.write_LUT_IridasCube(lut1d, os.path.join(out, "colour-curve-64.cube"), decimals=9)

# 3D, size 9, unit domain, identity (the common "neutral" file an editor writes).
identity = colour.LUT3D(colour.LUT3D.linear_table(9), name="identity")
colour.io.write_LUT_IridasCube(identity, os.path.join(out, "colour-identity-9.cube"), decimals=7)
print(f"wrote 3 .cube files to {out} with colour-science {colour.__version__}")
