"""docs/mujoco.md's examples run as written: its level beside its model,
and its Python."""

import os
import re

import numpy as np

import labenv
from labenv_testing import HERE

DOC = os.path.join(HERE, "..", "..", "docs", "mujoco.md")


def _blocks(language):
    with open(DOC) as doc:
        return re.findall(r"```%s\n(.*?)```" % language, doc.read(), re.S)


def test_the_example_level_runs_beside_its_model(tmp_path):
    (tmp_path / "model.xml").write_text(_blocks("xml")[0])
    (tmp_path / "level.lua").write_text(_blocks("lua")[0])
    lab = labenv.Lab(str(tmp_path / "level.lua"), ["QPOS", "SENSORDATA", "RGB_INTERLEAVED"])
    assert [spec["name"] for spec in lab.continuous_action_spec()] == ["torque"]
    assert lab.read_property("engine.frameSkip") == "2"
    assert lab.read_property("engine.camera") == "side"
    lab.reset(seed=3)
    start = lab.observations()
    assert -0.5 <= start["QPOS"][0] <= 0.5
    assert start["SENSORDATA"][0] == start["QPOS"][0]  # the jointpos sensor, after mj_forward
    total = 0.0
    steps = 0
    while lab.is_running():
        # Hold the arm up against gravity, level.
        angle, = lab.observations()["QPOS"]
        total += lab.step(np.array([np.clip(1.0 + 4 * angle, -1, 1)]))
        steps += 1
    assert steps == 200 and lab.status() == "interrupted"
    assert 0 < total <= 200
    assert lab.observations()["RGB_INTERLEAVED"].shape == (84, 84, 3)


def test_the_python_example_runs(capsys):
    scope = {}
    exec(compile(_blocks("python")[0], DOC, "exec"), scope)
    assert "'name': 'slide'" in capsys.readouterr().out
    assert scope["frame"].shape == (84, 84, 3)
    assert 0 <= scope["reward"] <= 1
