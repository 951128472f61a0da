"""docs/python.md's examples run as written."""

import os
import re
import struct
import zlib

import numpy as np

from labenv_testing import HERE

DOC = os.path.join(HERE, "..", "..", "docs", "python.md")


def _python_blocks():
    with open(DOC) as doc:
        return re.findall(r"```python\n(.*?)```", doc.read(), re.S)


def test_the_quick_start_runs():
    quick_start = _python_blocks()[0]
    scope = {}
    exec(compile(quick_start, DOC, "exec"), scope)
    assert scope["frame"].shape == (84, 84, 3)


def test_the_vector_example_runs():
    scope = {"np": np}
    import labenv

    scope["labenv"] = labenv
    exec(compile(_python_blocks()[1], DOC, "exec"), scope)
    assert scope["obs"]["RGB_INTERLEAVED"].shape == (8, 84, 84, 3)


def test_the_random_agent_writes_a_png_of_its_last_frame(tmp_path, capsys, monkeypatch):
    example = _python_blocks()[2]
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(example, DOC, "exec"), scope)
    assert "episode return" in capsys.readouterr().out
    with open("random_agent.png", "rb") as png:
        data = png.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (160, 120)
    # Decode the one IDAT chunk: the rows are the frame, filter 0 each.
    idat = data.index(b"IDAT")
    length = struct.unpack(">I", data[idat - 4:idat])[0]
    rows = zlib.decompress(data[idat + 4:idat + 4 + length])
    pixels = np.frombuffer(rows, np.uint8).reshape(120, 1 + 160 * 3)[:, 1:]
    assert np.array_equal(pixels.reshape(120, 160, 3), scope["frame"])
