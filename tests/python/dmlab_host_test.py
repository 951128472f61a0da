"""labenv on DeepMind Lab's engine (the dmlab host), driven here through a
stand-in engine library written in this project (tests/hosts/dmlab/
test_engine.cc: a corridor with pickups, called as the real engine calls
its hooks): the host setting, rewards through the engine, one engine copy
per instance in VectorLab, and the errors a user meets."""

import os

import numpy as np
import pytest

import labenv
from labenv_testing import FORWARD

LEVEL = """
local api = {}
function api:nextMap() return 'corridor_pickups' end
local quantities = {apple_reward = 1, lemon_reward = -1, goal = 10}
function api:createPickup(classname)
  return {name = classname, classname = classname, model = '', quantity = quantities[classname],
          type = 2}
end
return api
"""


def _test_engine():
    srcdir = os.environ.get("TEST_SRCDIR")
    if srcdir:
        return os.path.join(srcdir, "dmlab_tensor", "tests", "hosts", "dmlab", "test_engine.so")
    return os.path.abspath("bazel-bin/tests/hosts/dmlab/test_engine.so")


@pytest.fixture(name="setup")
def _setup(tmp_path):
    level = tmp_path / "corridor.lua"
    level.write_text(LEVEL)
    maps = tmp_path / "run" / "baselab" / "maps"
    maps.mkdir(parents=True)
    for name in ("corridor", "corridor_apple", "corridor_pickups"):
        (maps / (name + ".bsp")).write_bytes(b"")
    # 'host' may stand anywhere in the dict: labenv gives it first.
    config = {"width": "8", "height": "6", "host": "dmlab", "dmlabLibrary": _test_engine(),
              "dmlabRunfiles": str(tmp_path / "run")}
    return str(level), config


def test_lab_on_the_dmlab_host(setup):
    level, config = setup
    lab = labenv.Lab(level, ["RGB_INTERLEAVED"], config)
    lab.reset(seed=1)
    assert lab.step(FORWARD, num_steps=2) == 1  # the apple at x = 100
    assert lab.step(FORWARD, num_steps=4) == 9  # the lemon (-1), the goal (10)
    frame = lab.observations()["RGB_INTERLEAVED"]
    assert frame.shape == (6, 8, 3) and frame[0, 0, 0] == 300 % 256
    assert lab.read_property("engine.host") == "dmlab"
    lab.close()


def test_vector_lab_gives_each_instance_its_engine(setup):
    level, config = setup
    envs = labenv.VectorLab(2, level, ["RGB_INTERLEAVED"], config, num_threads=2)
    envs.reset(seed=1)
    actions = np.zeros((2, 7), dtype=np.intc)
    actions[0] = FORWARD  # only the first moves
    total = np.zeros(2)
    for _ in range(6):
        _, reward, _, _ = envs.step(actions)
        total += reward
    assert list(total) == [10, 0]
    envs.close()


def test_a_missing_engine_library_names_the_fix(setup):
    level, config = setup
    config["dmlabLibrary"] = "/nonexistent/libdmlab_engine.so"
    with pytest.raises(RuntimeError, match="cannot read.*./lab dmlab"):
        labenv.Lab(level, ["RGB_INTERLEAVED"], config)


def test_a_missing_map_is_an_error_and_the_process_lives_on(setup, tmp_path):
    level, config = setup
    broken = tmp_path / "broken.lua"
    broken.write_text("local api = {}\nfunction api:nextMap() return 'nowhere' end\nreturn api\n")
    lab = labenv.Lab(str(broken), ["RGB_INTERLEAVED"], config)
    with pytest.raises(RuntimeError, match="'nowhere' is not in"):
        lab.reset(seed=1)
