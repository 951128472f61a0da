"""labenv.Lab: deepmind_lab.Lab's API, method by method."""

import numpy as np
import pytest

import labenv
from labenv_testing import FORWARD, TEST_LEVEL, TURN_RIGHT, config


@pytest.fixture
def lab():
    lab = labenv.Lab(TEST_LEVEL, ["RGB_INTERLEAVED", "TEST.TEXT", "TEST.COUNTER"], config())
    yield lab
    lab.close()


def test_constructor_takes_deepmind_lab_arguments():
    lab = labenv.Lab(
        level="demo_maze",
        observations=["RGB_INTERLEAVED"],
        config={"width": "40", "height": "30"},
        renderer="hardware",
        level_cache=None,
    )
    assert lab.observation_spec()[0]["shape"] == (30, 40, 3)
    lab.close()


def test_config_defaults_to_the_engine_settings():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"])
    lab.reset(seed=1)
    assert lab.observations()["RGB_INTERLEAVED"].shape == (84, 84, 3)
    assert lab.fps() == 60


def test_observation_spec_lists_every_observation_in_deepmind_lab_format(lab):
    specs = lab.observation_spec()
    assert [spec["name"] for spec in specs] == [
        "RGB_INTERLEAVED",
        "RGBD_INTERLEAVED",
        "DEBUG.POS.TRANS",
        "DEBUG.POS.ROT",
        "DEBUG.CAMERA.TOP_DOWN",
        "TEST.TEXT",
        "TEST.COUNTER",
        "TEST.HALF",
    ]
    by_name = {spec["name"]: spec for spec in specs}
    assert by_name["RGB_INTERLEAVED"] == {
        "name": "RGB_INTERLEAVED",
        "shape": (24, 32, 3),
        "dtype": np.uint8,
    }
    assert by_name["DEBUG.POS.TRANS"]["dtype"] is np.float64
    assert by_name["TEST.TEXT"] == {"name": "TEST.TEXT", "shape": (), "dtype": str}
    assert by_name["TEST.HALF"] == {"name": "TEST.HALF", "shape": (2,), "dtype": np.float32}


def test_float32_observations_come_as_float32_arrays():
    lab = labenv.Lab(TEST_LEVEL, ["TEST.HALF"], config())
    lab.reset(seed=1)
    lab.step(FORWARD, num_steps=3)
    half = lab.observations()["TEST.HALF"]
    assert half.dtype == np.float32
    assert half.tolist() == [1.5, 0.25]
    lab.close()


def test_action_spec_is_deepmind_labs_seven_actions(lab):
    assert lab.action_spec() == [
        {"min": -512, "max": 512, "name": "LOOK_LEFT_RIGHT_PIXELS_PER_FRAME"},
        {"min": -512, "max": 512, "name": "LOOK_DOWN_UP_PIXELS_PER_FRAME"},
        {"min": -1, "max": 1, "name": "STRAFE_LEFT_RIGHT"},
        {"min": -1, "max": 1, "name": "MOVE_BACK_FORWARD"},
        {"min": 0, "max": 1, "name": "FIRE"},
        {"min": 0, "max": 1, "name": "JUMP"},
        {"min": 0, "max": 1, "name": "CROUCH"},
    ]


def test_reset_returns_true_and_starts_running(lab):
    assert not lab.is_running()
    assert lab.status() == "initialised"
    assert lab.reset() is True
    assert lab.is_running()
    assert lab.status() == "running"
    assert lab.num_steps() == 0


def test_reset_counts_episodes_from_zero_unless_given_one(lab):
    lab.reset(seed=1)
    assert lab.events()[0][1][0] == "episode 0"
    lab.reset(seed=1)
    assert lab.events()[0][1][0] == "episode 1"
    lab.reset(episode=7, seed=1)
    assert lab.events()[0][1][0] == "episode 7"
    lab.reset()
    assert lab.events()[0][1][0] == "episode 8"


def _trajectory(lab, seed, steps=20):
    """The frames and positions of an episode: a spawn facing a wall close
    up sees one colour wherever it is, so frames alone may not tell two
    mazes apart."""
    lab.reset(episode=0, seed=seed)

    def now():
        observations = lab.observations()
        return np.concatenate([np.asarray(observations["RGB_INTERLEAVED"], dtype=np.float64).ravel(),
                               observations["DEBUG.POS.TRANS"]])

    states = [now()]
    for step in range(steps):
        lab.step(TURN_RIGHT if step % 3 else FORWARD)
        states.append(now())
    return np.stack(states)


def test_the_same_seed_replays_the_same_episode():
    lab = labenv.Lab("random_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config())
    first = _trajectory(lab, seed=5)
    assert np.array_equal(first, _trajectory(lab, seed=5))
    assert not np.array_equal(first, _trajectory(lab, seed=6))


def test_seed_accepts_any_int_including_numpy_ints():
    lab = labenv.Lab("random_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config())
    three = _trajectory(lab, seed=3)
    assert np.array_equal(_trajectory(lab, seed=np.int64(3)), three)
    assert np.array_equal(_trajectory(lab, seed=2**70 + 3), three)  # taken modulo 2**64
    assert np.array_equal(_trajectory(lab, seed=-1), _trajectory(lab, seed=2**64 - 1))
    assert not np.array_equal(_trajectory(lab, seed=-1), three)


def test_step_returns_the_reward_of_its_frames(lab):
    lab.reset(seed=1)
    rewards = [lab.step(FORWARD, num_steps=10) for _ in range(12)]
    assert all(isinstance(reward, float) for reward in rewards)
    assert sum(rewards) == 4.0  # the corridor's four apples
    assert lab.num_steps() == 120
    assert [event[0] for event in lab.events()] in ([], ["pickup"])


def test_step_accepts_keywords_and_strided_actions():
    lab = labenv.Lab(TEST_LEVEL, ["DEBUG.POS.TRANS"], config())
    lab.reset(seed=1)
    wide = np.zeros((7, 2), dtype=np.intc)
    wide[3, 0] = 1  # MOVE_BACK_FORWARD, in column 0 only
    lab.step(action=wide[:, 0], num_steps=30)
    after_strided = lab.observations()["DEBUG.POS.TRANS"].tolist()
    lab.reset(seed=1)
    start = lab.observations()["DEBUG.POS.TRANS"].tolist()
    lab.step(FORWARD, num_steps=30)
    assert after_strided == lab.observations()["DEBUG.POS.TRANS"].tolist()
    assert after_strided[0] > start[0]  # it did move forward (+x)
    assert lab.num_steps() == 30


def test_observations_returns_the_requested_ones(lab):
    lab.reset(seed=1)
    lab.step(FORWARD, num_steps=3)
    observed = lab.observations()
    assert list(observed) == ["RGB_INTERLEAVED", "TEST.TEXT", "TEST.COUNTER"]
    assert isinstance(observed["RGB_INTERLEAVED"], np.ndarray)
    assert isinstance(observed["RGB_INTERLEAVED"], labenv.ObservationArray)
    assert observed["RGB_INTERLEAVED"].dtype == np.uint8
    assert observed["RGB_INTERLEAVED"].shape == (24, 32, 3)
    assert observed["TEST.TEXT"] == "frame 3"
    assert observed["TEST.COUNTER"].dtype == np.float64
    assert observed["TEST.COUNTER"].tolist() == [3.0, 3.0]


def test_the_level_ending_the_episode_stops_running_and_keeps_the_last_frame():
    lab = labenv.Lab(TEST_LEVEL, ["TEST.TEXT"], config(endAfterFrames=5))
    lab.reset(seed=1)
    lab.step(FORWARD, num_steps=4)
    assert lab.is_running()
    lab.step(FORWARD)
    assert not lab.is_running()
    assert lab.status() == "terminated"
    # Unlike deepmind_lab, the final frame can still be read.
    assert lab.observations()["TEST.TEXT"] == "frame 5"
    with pytest.raises(RuntimeError, match="wrong status to advance"):
        lab.step(FORWARD)
    lab.reset()
    assert lab.is_running()


def test_episode_length_interrupts_the_episode():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config(episodeLengthSeconds=0.1))
    lab.reset(seed=1)
    lab.step(FORWARD, num_steps=5)
    assert lab.is_running()
    lab.step(FORWARD)
    assert lab.status() == "interrupted"
    assert not lab.is_running()


def test_events_are_copies_of_names_and_values(lab):
    lab.reset(episode=4, seed=1)
    (name, values), = lab.events()
    assert name == "started"
    assert values[0] == "episode 4"
    assert values[1].dtype == np.uint8 and values[1].tolist() == [1, 2, 3]
    assert values[2].dtype == np.float64 and values[2].tolist() == [4.0, 0.5]
    lab.step(FORWARD)
    assert values[1].tolist() == [1, 2, 3]


def test_fps_follows_the_setting():
    lab = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config(fps=30))
    assert lab.fps() == 30


def test_properties_read_write_and_list(lab):
    assert lab.read_property("test.answer") == "42"
    assert lab.write_property("test.answer", "43") is None
    assert lab.read_property("test.answer") == "43"
    assert lab.read_property("engine.width") == "32"
    assert lab.properties() == {"engine": labenv.LISTABLE, "test": labenv.LISTABLE}
    assert lab.properties("test") == {"test.answer": labenv.READ_WRITABLE}
    assert lab.properties(key="engine")["engine.fps"] == labenv.READABLE
    assert labenv.READ_WRITABLE == labenv.READABLE | labenv.WRITABLE


def test_close_returns_true_once(lab):
    assert lab.close() is True
    assert lab.close() is False
    assert not lab.is_running()
    assert lab.status() == "closed"


def test_many_labs_run_side_by_side():
    labs = [labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], config()) for _ in range(4)]
    for seed, lab in enumerate(labs):
        lab.reset(seed=seed)
    for lab in labs:
        lab.step(FORWARD, num_steps=5)
    assert len({lab.observations()["RGB_INTERLEAVED"].ctypes.data for lab in labs}) == 4
