"""docs/python.md's examples run as written."""

import os
import re
import struct
import sys
import zlib

import numpy as np

from labenv_testing import HERE

DOC = os.path.join(HERE, "..", "..", "docs", "python.md")


def _python_block(containing):
    """The one python block of the doc that contains `containing`."""
    with open(DOC) as doc:
        blocks = re.findall(r"```python\n(.*?)```", doc.read(), re.S)
    found = [block for block in blocks if containing in block]
    assert len(found) == 1, "{} blocks contain {!r}".format(len(found), containing)
    return found[0]


def test_the_quick_start_runs():
    quick_start = _python_block("lab = labenv.Lab('demo_maze'")
    scope = {}
    exec(compile(quick_start, DOC, "exec"), scope)
    assert scope["frame"].shape == (84, 84, 3)


def test_the_vector_example_runs():
    scope = {"np": np}
    import labenv

    scope["labenv"] = labenv
    exec(compile(_python_block("envs = labenv.VectorLab(8"), DOC, "exec"), scope)
    assert scope["obs"]["RGB_INTERLEAVED"].shape == (8, 84, 84, 3)


def test_the_asynchronous_example_runs():
    import labenv

    scope = {"np": np, "labenv": labenv}
    exec(compile(_python_block("envs.async_reset(seed=0)"), DOC, "exec"), scope)
    assert scope["obs"]["RGB_INTERLEAVED"].shape == (8, 84, 84, 3)
    assert scope["env_ids"].shape == (8,)


def test_the_registration_example_runs():
    import labenv

    scope = {}
    exec(compile(_python_block("gymnasium.make_vec('labenv/demo_maze-v0'"), DOC, "exec"), scope)
    assert scope["env"].spec.id == "labenv/demo_maze-v0"
    assert scope["envs"].num_envs == 8
    assert isinstance(scope["envs"].unwrapped, labenv.gym.VectorLab)
    scope["env"].reset(seed=0)
    assert scope["env"].render().shape == (84, 84, 3)


def test_the_training_example_runs_a_few_updates(tmp_path, capsys, monkeypatch):
    example = _python_block("UPDATES = 80 ")
    # Two updates of one seed: the full run takes minutes (see the doc).
    for line, short in (("UPDATES = 80 ", "UPDATES = 2 "), ("SEEDS = (0, 1, 2)", "SEEDS = (0,)")):
        assert line in example
        example = example.replace(line, short)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(example, DOC, "exec"), scope)
    printed = capsys.readouterr().out
    assert "seed 0: mean return of the first 10 episodes" in printed
    assert len(scope["curves"][0]) == 2 * 16
    with open("returns.png", "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_random_agent_writes_a_png_of_its_last_frame(tmp_path, capsys, monkeypatch):
    example = _python_block("random_agent.png")
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


def test_the_pettingzoo_example_runs():
    scope = {}
    exec(compile(_python_block("labenv.pettingzoo.parallel_env('apple_race'"), DOC, "exec"), scope)
    assert scope["frame"].shape == (84, 84, 3)
    assert set(scope["returns"]) == {"player_1", "player_2"}
