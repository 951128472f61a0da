"""Every error path: a Python exception with the engine's message, no crash."""

import threading

import numpy as np
import pytest

import labenv
from labenv_testing import FORWARD, TEST_LEVEL, config


def test_a_bad_level_name():
    with pytest.raises(RuntimeError, match="no built-in level 'no_such_level'"):
        labenv.Lab("no_such_level", ["RGB_INTERLEAVED"])


def test_a_missing_level_file():
    with pytest.raises(RuntimeError, match="cannot open '/no/such/level.lua'"):
        labenv.Lab("/no/such/level.lua", ["RGB_INTERLEAVED"])


def test_a_bad_observation_name():
    with pytest.raises(ValueError, match="Unknown observation 'NOPE'."):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED", "NOPE"])


def test_observations_must_be_a_list_of_str():
    with pytest.raises(TypeError, match="observations must be list, not .*: a list of str"):
        labenv.Lab("demo_maze", "RGB_INTERLEAVED")
    with pytest.raises(TypeError, match="observation names must be str"):
        labenv.Lab("demo_maze", [1])


def test_a_bad_setting_value():
    with pytest.raises(RuntimeError, match="Failed to apply setting 'width = wide'.*width"):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"width": "wide"})


def test_a_bad_observation_device():
    with pytest.raises(RuntimeError, match="observationDevice.*'cpu' or 'cuda:N'.*'gpu'"):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"observationDevice": "gpu"})
    with pytest.raises(RuntimeError, match="pinnedStaging.*'true' or 'false'"):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"pinnedStaging": "yes"})


def test_a_cuda_observation_device_without_a_backend():
    # The default build has no CUDA backend: init says so.
    with pytest.raises(
        RuntimeError,
        match=r"Failed to init environment.*observationDevice' is 'cuda:0'.*"
        r"no backend for that device \(build with --config=cuda\)",
    ):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"observationDevice": "cuda:0"})


def test_config_values_must_be_str():
    with pytest.raises(TypeError, match="config keys and values must be str"):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"width": 84})
    with pytest.raises(TypeError, match="config must be dict, not .*: a dict of str to str"):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], [("width", "84")])


def test_a_bad_renderer():
    with pytest.raises(RuntimeError, match='must be "hardware" or "software"'):
        labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], renderer="vulkan")


def test_a_lua_error_in_init():
    with pytest.raises(RuntimeError, match="Failed to init environment.*init failed on purpose"):
        labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED"], config(failIn="init"))


def test_a_lua_error_in_start():
    lab = labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED"], config(failSeed=13))
    with pytest.raises(RuntimeError, match="Failed to start environment.*seed 13"):
        lab.reset(seed=13)
    assert lab.status() == "error"
    with pytest.raises(RuntimeError, match="wrong status to advance"):
        lab.step(FORWARD)
    with pytest.raises(RuntimeError, match="wrong status for call to observations"):
        lab.observations()
    lab.reset(seed=14)  # usable again
    assert lab.is_running()


def test_a_lua_error_in_step():
    lab = labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED"], config(failAtFrame=3))
    lab.reset(seed=1)
    lab.step(FORWARD, num_steps=2)
    # deepmind_lab raises ValueError here; the message is the engine's.
    with pytest.raises(ValueError, match="Failed to advance environment.*step failed on purpose"):
        lab.step(FORWARD)
    assert not lab.is_running()
    assert lab.status() == "error"
    lab.reset(seed=1)
    assert lab.is_running()


def test_a_lua_error_in_a_property_callback():
    lab = labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED"], config())
    with pytest.raises(RuntimeError, match="read failed on purpose"):
        lab.read_property("test.fail")
    with pytest.raises(RuntimeError, match="write failed on purpose"):
        lab.write_property("test.fail", "1")


def test_property_errors_match_deepmind_lab():
    lab = labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED"], config())
    with pytest.raises(KeyError, match="'test.nope' not found."):
        lab.read_property("test.nope")
    with pytest.raises(KeyError, match="not found"):
        lab.write_property("test.nope", "1")
    with pytest.raises(TypeError, match="'engine.fps' not writable."):
        lab.write_property("engine.fps", "30")
    with pytest.raises(KeyError, match="'engine.nope' not found."):
        lab.properties("engine.nope")
    # The level's RESULT codes, in DeepMind Lab's words.
    with pytest.raises(TypeError, match="'test' not readable."):
        lab.read_property("test")
    with pytest.raises(TypeError, match="'test' not writable."):
        lab.write_property("test", "1")
    with pytest.raises(TypeError, match="Type error! Cannot assign 'x' to 'test.answer'."):
        lab.write_property("test.answer", "x")
    with pytest.raises(TypeError, match="'engine' not writable."):
        lab.write_property("engine", "1")
    with pytest.raises(TypeError, match="'engine' not readable."):
        lab.read_property("engine")


@pytest.fixture
def lab():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    lab.reset(seed=1)
    return lab


@pytest.mark.parametrize(
    "action, error, message",
    [
        ([0, 0, 0, 1, 0, 0, 0], TypeError, "must be a numpy array"),
        (np.zeros(6, np.intc), ValueError, r"must have shape \(7,\), got \(6,\)"),
        (np.zeros((1, 7), np.intc), ValueError, r"must have shape \(7,\), got \(1, 7\)"),
        (np.zeros(7, np.int64), ValueError, "must have dtype np.intc"),
        (np.zeros(7, np.float32), ValueError, "must have dtype np.intc"),
        (np.zeros(7, ">i4"), ValueError, "must have dtype np.intc"),
    ],
)
def test_a_wrong_action(lab, action, error, message):
    with pytest.raises(error, match=message):
        lab.step(action)
    assert lab.is_running()  # nothing happened
    assert lab.num_steps() == 0


def test_bad_step_arguments(lab):
    with pytest.raises(ValueError, match="num_steps must be >= 1"):
        lab.step(FORWARD, num_steps=0)
    assert lab.is_running()  # refused before anything happened
    assert lab.num_steps() == 0
    with pytest.raises(TypeError, match="missing required argument 'action'"):
        lab.step()
    with pytest.raises(TypeError, match="unexpected keyword argument 'steps'"):
        lab.step(FORWARD, steps=2)
    with pytest.raises(TypeError, match="repeated keyword argument 'action'"):
        lab.step(FORWARD, action=FORWARD)
    with pytest.raises(TypeError, match="at most 3 arguments"):
        lab.step(FORWARD, 1, None, 2)
    with pytest.raises(TypeError, match="this level has no continuous actions"):
        lab.step(FORWARD, 1, np.zeros(1))
    with pytest.raises(TypeError):
        lab.step(FORWARD, num_steps="1")


def test_a_bad_seed(lab):
    with pytest.raises(ValueError, match="'seed' must be int or None, was 'str'."):
        lab.reset(seed="1")


def test_step_and_observations_before_reset():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    with pytest.raises(RuntimeError, match="wrong status to advance"):
        lab.step(FORWARD)
    with pytest.raises(RuntimeError, match="wrong status for call to observations"):
        lab.observations()
    with pytest.raises(RuntimeError, match="wrong status for call to events"):
        lab.events()


@pytest.mark.parametrize(
    "call",
    [
        lambda lab: lab.reset(),
        lambda lab: lab.step(FORWARD),
        lambda lab: lab.observations(),
        lambda lab: lab.observation_spec(),
        lambda lab: lab.action_spec(),
        lambda lab: lab.num_steps(),
        lambda lab: lab.fps(),
        lambda lab: lab.events(),
        lambda lab: lab.read_property("engine.fps"),
        lambda lab: lab.write_property("test.answer", "1"),
        lambda lab: lab.properties(),
    ],
)
def test_use_after_close(lab, call):
    lab.close()
    with pytest.raises(RuntimeError, match="labenv.Lab is closed"):
        call(lab)


def test_use_after_a_failed_init():
    lab = labenv.Lab.__new__(labenv.Lab)
    with pytest.raises(RuntimeError, match="was not initialised"):
        lab.reset()
    assert lab.status() == "uninitialised"
    assert lab.close() is False


def test_one_lab_used_by_two_threads_at_once():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], {"width": "640", "height": "480"})
    lab.reset(seed=1)
    errors = []
    started = threading.Event()

    def step_a_lot():
        started.set()
        lab.step(FORWARD, num_steps=400)

    thread = threading.Thread(target=step_a_lot)
    thread.start()
    started.wait()
    # While the other thread is inside step (GIL released), calls refuse.
    while thread.is_alive() and not errors:
        try:
            lab.num_steps()
        except RuntimeError as error:
            errors.append(str(error))
    thread.join()
    assert errors and "in use by another thread" in errors[0]
    assert lab.num_steps() == 400
