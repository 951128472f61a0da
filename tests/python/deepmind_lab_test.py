"""deepmind_lab: DeepMind Lab's Python module over labenv, as DeepMind
Lab's agents and its own tests use it (tools/dmlab_python_tests.py runs
those against a checkout)."""

import os

import numpy as np
import pytest

import deepmind_lab
import labenv

SMALL = {"width": "32", "height": "24"}


@pytest.fixture
def runfiles(tmp_path):
    """A DeepMind-Lab-like tree: game_scripts/levels and a shared module."""
    scripts = tmp_path / "game_scripts"
    (scripts / "levels" / "tests").mkdir(parents=True)
    (scripts / "common").mkdir()
    (scripts / "common" / "corridor.lua").write_text(
        "return {map = '*******\\n*P A  *\\n*******\\n'}\n")
    (scripts / "levels" / "tests" / "corridor_test.lua").write_text(
        "local corridor = require 'common.corridor'\n"
        "local api = {}\n"
        "function api:init(settings)\n"
        "  for _, key in ipairs{'playerName', 'use_pbos', 'logToStdErr', 'mixerSeed'} do\n"
        "    assert(settings[key] == nil, key .. ' reached the level')\n"
        "  end\n"
        "end\n"
        "function api:nextMap() return corridor.map end\n"
        "return api\n")
    (scripts / "levels" / "other").mkdir()
    (scripts / "levels" / "other" / "corridor_test.lua").write_text(
        "local api = {}\n"
        "function api:nextMap() return '*****\\n*P  *\\n*****\\n' end\n"
        "return api\n")
    previous = deepmind_lab.runfiles_path()
    deepmind_lab.set_runfiles_path(str(tmp_path))
    yield tmp_path
    deepmind_lab.set_runfiles_path(previous)


def test_the_module_functions():
    assert deepmind_lab.version() == "1.0"
    assert os.path.isdir(deepmind_lab.runfiles_path())
    assert deepmind_lab.LISTABLE == labenv.LISTABLE
    with pytest.raises(TypeError, match="set_runfiles_path takes a str"):
        deepmind_lab.set_runfiles_path(3)


def test_a_lab_is_a_labenv_lab_and_steps_as_deepmind_labs(runfiles):
    lab = deepmind_lab.Lab("demo_maze", ["RGB_INTERLEAVED"], config=SMALL,
                           renderer="hardware", level_cache=None)
    assert isinstance(lab, labenv.Lab)
    lab.reset(episode=1, seed=7)
    forward = np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.intc)
    lab.step(forward, num_steps=4)
    assert lab.num_steps() == 4
    assert lab.observations()["RGB_INTERLEAVED"].shape == (24, 32, 3)
    lab.close()


def test_a_level_is_looked_up_under_the_runfiles_game_scripts(runfiles):
    lab = deepmind_lab.Lab("tests/corridor_test", ["DEBUG.POS.TRANS"], config=SMALL)
    lab.reset(seed=1)
    # The corridor of common/corridor.lua: an apple two cells ahead.
    forward = np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.intc)
    assert sum(lab.step(forward) for _ in range(60)) == 1
    # levelDirectory is relative to game_scripts/levels.
    other = deepmind_lab.Lab("corridor_test", [], config=dict(SMALL, levelDirectory="other"))
    other.reset(seed=1)
    assert sum(other.step(forward) for _ in range(60)) == 0


def test_a_name_not_under_the_runfiles_is_a_built_in_level(runfiles):
    deepmind_lab.Lab("random_maze", [], config=SMALL).reset(seed=1)
    with pytest.raises(RuntimeError, match="no_such_level"):
        deepmind_lab.Lab("tests/no_such_level", [], config=SMALL)


def test_errors_match_deepmind_labs_own_tests():
    # The patterns of DeepMind Lab's dmlab_module_test.testInitArgs.
    with pytest.raises(TypeError, match="must be dict, not list"):
        deepmind_lab.Lab("demo_maze", [], ["wrongconfig"])
    with pytest.raises(TypeError, match="str|bad argument type"):
        deepmind_lab.Lab("demo_maze", [], {"wrongtype": 3})
    with pytest.raises(TypeError, match="must be list, not None"):
        deepmind_lab.Lab("demo_maze", None, {})
    with pytest.raises(ValueError, match="Unknown observation"):
        deepmind_lab.Lab("demo_maze", ["nonexisting_obs"], {})
    with pytest.raises(TypeError, match="temp_folder must be str"):
        deepmind_lab.Lab("demo_maze", [], SMALL, temp_folder=3)


def test_an_impala_style_actor_loop():
    # What IMPALA's environments.py does: action repeats of 4, a reset
    # whenever the episode ends, observations copied into its batch.
    lab = deepmind_lab.Lab("demo_maze", ["RGB_INTERLEAVED"],
                           config=dict(SMALL, episodeLengthSeconds="0.5"), temp_folder="/tmp")
    rng = np.random.default_rng(0)
    specs = lab.action_spec()
    lab.reset(seed=3)
    episodes = 0
    for _ in range(40):
        action = np.array([rng.integers(spec["min"], spec["max"] + 1) for spec in specs],
                          dtype=np.intc)
        lab.step(action, num_steps=4)
        if not lab.is_running():
            episodes += 1
            lab.reset(seed=int(rng.integers(0, 2**31)))
        frame = np.array(lab.observations()["RGB_INTERLEAVED"])
        assert frame.shape == (24, 32, 3)
    assert episodes >= 4  # 30 frames an episode, 160 frames


def test_deepmind_labs_engine_settings_are_dropped_or_refused(runfiles):
    # Shimmy and DeepMind Lab's tests pass these; none reaches the level.
    config = dict(SMALL, playerName="Agent", use_pbos="false", logToStdErr="true",
                  mixerSeed="0", appendCommand="", levelDirectory="")
    lab = deepmind_lab.Lab("tests/corridor_test", [], config=config)
    lab.reset(seed=1)
    with pytest.raises(RuntimeError, match="supported here at its default"):
        deepmind_lab.Lab("demo_maze", [], config=dict(SMALL, appendCommand="+set g_gravity 100"))
    # mixerSeed is the plugin's, as DeepMind Lab's engine's: it changes the
    # episodes, and never reaches the level.
    mixed = deepmind_lab.Lab("tests/corridor_test", [], config=dict(SMALL, mixerSeed="1"))
    mixed.reset(seed=1)
    with pytest.raises(RuntimeError, match="mixerSeed"):
        deepmind_lab.Lab("demo_maze", [], config=dict(SMALL, mixerSeed="-1"))
