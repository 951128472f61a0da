"""labenv.VectorLab: batches, next-step autoreset, determinism, errors."""

import gc

import numpy as np
import pytest

import labenv
from labenv_testing import TEST_LEVEL, config, random_actions

OBSERVATIONS = ["RGB_INTERLEAVED", "DEBUG.POS.TRANS", "RGBD_INTERLEAVED"]


def _pointer(array):
    return array.__array_interface__["data"][0]


def test_batches_have_a_leading_env_dimension():
    envs = labenv.VectorLab(3, "demo_maze", OBSERVATIONS, config(), num_threads=2)
    assert envs.num_envs == 3
    assert envs.num_threads == 2
    observed = envs.reset(seed=0)
    assert list(observed) == OBSERVATIONS
    assert observed["RGB_INTERLEAVED"].shape == (3, 24, 32, 3)
    assert observed["RGB_INTERLEAVED"].dtype == np.uint8
    assert observed["DEBUG.POS.TRANS"].shape == (3, 3)
    assert isinstance(observed["RGB_INTERLEAVED"], labenv.ObservationArray)
    assert not observed["RGB_INTERLEAVED"].flags.writeable
    observed, reward, terminated, truncated = envs.step(np.zeros((3, 7), np.intc))
    assert reward.shape == (3,) and reward.dtype == np.float64
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert envs.action_spec() == labenv.Lab("demo_maze", [], config()).action_spec()
    assert envs.observation_spec()[0]["shape"] == (24, 32, 3)
    assert envs.fps() == 60


def _replay_single(level, settings, observation_names, seed, n, actions):
    """What VectorLab(n).reset(seed) then step(actions[t]) must return,
    computed with n single Labs and the documented seeds and autoreset."""
    labs = [labenv.Lab(level, observation_names, settings) for _ in range(n)]
    episodes = [0] * n
    needs_start = [True] * n

    def start(i):
        labs[i].reset(episode=episodes[i], seed=seed + i + episodes[i] * n)
        episodes[i] += 1
        needs_start[i] = False

    def stacked():
        observed = [lab.observations() for lab in labs]
        return {name: np.stack([o[name] for o in observed]) for name in observation_names}

    for i in range(n):
        start(i)
    results = [stacked()]
    for step_actions in actions:
        reward = np.zeros(n)
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        for i, lab in enumerate(labs):
            if needs_start[i]:
                start(i)
                continue
            reward[i] = lab.step(step_actions[i])
            terminated[i] = lab.status() == "terminated"
            truncated[i] = lab.status() == "interrupted"
            needs_start[i] = not lab.is_running()
        results.append((stacked(), reward, terminated, truncated))
    return results


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_matches_sequential_single_labs_across_autoresets(threads):
    n = 5
    # Episodes end every 0.25 s (15 frames, truncated) or after 20 frames
    # (terminated, by the level), so the run crosses many autoresets.
    cases = [
        ("demo_maze", config(episodeLengthSeconds=0.25)),
        (TEST_LEVEL, config(endAfterFrames=20)),
    ]
    rng = np.random.default_rng(threads)
    for level, settings in cases:
        actions = random_actions(rng, 60, envs=n)
        expected = _replay_single(level, settings, OBSERVATIONS, 100, n, actions)
        envs = labenv.VectorLab(n, level, OBSERVATIONS, settings, num_threads=threads)
        observed = envs.reset(seed=100)
        for name in OBSERVATIONS:
            assert np.array_equal(observed[name], expected[0][name]), name
        ended = 0
        for step, step_actions in enumerate(actions):
            observed, reward, terminated, truncated = envs.step(step_actions)
            want_observed, want_reward, want_terminated, want_truncated = expected[step + 1]
            for name in OBSERVATIONS:
                assert np.array_equal(observed[name], want_observed[name]), (level, step, name)
            assert np.array_equal(reward, want_reward)
            assert np.array_equal(terminated, want_terminated)
            assert np.array_equal(truncated, want_truncated)
            ended += int(terminated.sum() + truncated.sum())
        assert ended >= 2 * n
        envs.close()


def test_next_step_autoreset_returns_the_first_frame_with_no_reward():
    envs = labenv.VectorLab(2, TEST_LEVEL, ["TEST.COUNTER"], config(endAfterFrames=3))
    envs.reset(seed=0)
    forward = np.zeros((2, 7), np.intc)
    forward[:, 3] = 1
    for _ in range(2):
        _, _, terminated, _ = envs.step(forward)
        assert not terminated.any()
    observed, _, terminated, truncated = envs.step(forward)
    assert terminated.all() and not truncated.any()
    assert observed["TEST.COUNTER"][:, 0].tolist() == [3.0, 3.0]  # the final frame
    observed, reward, terminated, truncated = envs.step(forward)
    assert observed["TEST.COUNTER"][:, 0].tolist() == [0.0, 0.0]  # a new episode's first
    assert reward.tolist() == [0.0, 0.0]
    assert not terminated.any() and not truncated.any()


def test_a_held_batch_is_never_overwritten_and_a_dropped_one_is_reused():
    envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], config())
    rng = np.random.default_rng(1)
    held = envs.reset(seed=5)["RGB_INTERLEAVED"]
    copy = np.array(held)
    pointers = set()
    for step_actions in random_actions(rng, 30, envs=2):
        observed = envs.step(step_actions)[0]["RGB_INTERLEAVED"]
        assert _pointer(observed) != _pointer(held)
        pointers.add(_pointer(observed))
        del observed
    assert np.array_equal(held, copy)
    # Dropped each step, the batches came from two buffers, not thirty.
    assert len(pointers) <= 2


def test_a_view_of_a_batch_keeps_it():
    envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], config())
    first_env = envs.reset(seed=5)["RGB_INTERLEAVED"][0]
    copy = np.array(first_env)
    gc.collect()
    rng = np.random.default_rng(2)
    for step_actions in random_actions(rng, 10, envs=2):
        envs.step(step_actions)
    assert np.array_equal(first_env, copy)


def test_the_frame_is_rendered_straight_into_the_batch():
    # Each engine reports how many frame buffers its pool allocated: none,
    # as every frame went straight into its batch slot.
    envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], config())
    envs.reset(seed=0)
    rng = np.random.default_rng(3)
    for step_actions in random_actions(rng, 20, envs=2):
        envs.step(step_actions)
    assert envs.read_property("engine.frameBuffersAllocated") == ["0", "0"]
    assert envs.read_property("engine.steps") == ["20", "20"]
    # Without RGB_INTERLEAVED the frames go to the engines' pools.
    envs = labenv.VectorLab(2, "demo_maze", ["DEBUG.POS.TRANS"], config())
    envs.reset(seed=0)
    assert envs.read_property("engine.frameBuffersAllocated") != ["0", "0"]
    with pytest.raises(KeyError, match="VectorLab env 0: .*no such property"):
        envs.read_property("engine.nope")


def test_step_writes_into_the_callers_arrays():
    names = ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"]
    envs = labenv.VectorLab(2, "demo_maze", names, config())
    twin = labenv.VectorLab(2, "demo_maze", names, config())
    envs.reset(seed=3)
    twin.reset(seed=3)
    allocated = envs.read_property("engine.frameBuffersAllocated")
    rng = np.random.default_rng(5)
    frames = np.zeros((4, 2, 24, 32, 3), np.uint8)  # a fragment's rows, as labenv.rollouts has
    poses = np.zeros((4, 2, 3))
    for t, step_actions in enumerate(random_actions(rng, 4, envs=2)):
        out = {"RGB_INTERLEAVED": frames[t], "DEBUG.POS.TRANS": poses[t]}
        observed, reward, _, _ = envs.step(step_actions, out=out)
        assert observed["RGB_INTERLEAVED"] is frames[t] or np.shares_memory(
            observed["RGB_INTERLEAVED"], frames)
        expected = twin.step(step_actions)
        assert np.array_equal(frames[t], expected[0]["RGB_INTERLEAVED"])
        assert np.array_equal(poses[t], expected[0]["DEBUG.POS.TRANS"])
        assert np.array_equal(reward, expected[1])
    # Rendered straight into the caller's array: the engines' pools made no more.
    assert envs.read_property("engine.frameBuffersAllocated") == allocated
    actions = np.zeros((2, 7), np.intc)
    good = {"RGB_INTERLEAVED": frames[0], "DEBUG.POS.TRANS": poses[0]}
    for bad, why in [
            ([], "out must be a dict"),
            ({"RGB_INTERLEAVED": frames[0]}, "out has no array for 'DEBUG.POS.TRANS'"),
            (dict(good, **{"RGB_INTERLEAVED": frames[0, :1]}), r"out\['RGB_INTERLEAVED'\]"),
            (dict(good, **{"RGB_INTERLEAVED": frames[0].astype(np.int16)}), "dtype"),
            (dict(good, **{"DEBUG.POS.TRANS": poses[0].T}), "C-contiguous"),
            (dict(good, **{"DEBUG.POS.TRANS": [[0.0] * 3] * 2}), "numpy array")]:
        with pytest.raises((TypeError, ValueError), match=why):
            envs.step(actions, out=bad)
    read_only = frames[1].copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        envs.step(actions, out=dict(good, **{"RGB_INTERLEAVED": read_only}))


def test_errors():
    with pytest.raises(ValueError, match="1 <= n <= 65536"):
        labenv.VectorLab(0, "demo_maze", ["RGB_INTERLEAVED"])
    # Bounded before a single environment is made: 10^9 ran 15 s and took
    # 3.7 GB before it failed.
    for n in (65537, 10**9):
        with pytest.raises(ValueError, match="1 <= n <= 65536 environments, got {}".format(n)):
            labenv.VectorLab(n, "demo_maze", ["RGB_INTERLEAVED"])
    with pytest.raises(ValueError, match="num_threads must be >= 1"):
        labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], num_threads=0)
    # More threads than environments would idle: it used to start them
    # all, and a refused thread ended the process.
    for threads in (100000, 2**40):
        envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], num_threads=threads)
        assert envs.num_threads == 2
        envs.close()
    with pytest.raises(RuntimeError, match="no built-in level 'nope'"):
        labenv.VectorLab(2, "nope", ["RGB_INTERLEAVED"])
    with pytest.raises(ValueError, match="Unknown observation 'NOPE'."):
        labenv.VectorLab(2, "demo_maze", ["NOPE"])
    with pytest.raises(ValueError, match="'TEST.TEXT' is a string observation"):
        labenv.VectorLab(2, TEST_LEVEL, ["TEST.TEXT"], config())
    envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], config())
    with pytest.raises(RuntimeError, match="call reset"):
        envs.step(np.zeros((2, 7), np.intc))
    envs.reset(seed=1)
    with pytest.raises(ValueError, match=r"must have shape \(2, 7\)"):
        envs.step(np.zeros(7, np.intc))
    with pytest.raises(ValueError, match="must have dtype np.intc"):
        envs.step(np.zeros((2, 7), np.int64))
    with pytest.raises(TypeError, match="must be a numpy array"):
        envs.step([[0] * 7] * 2)
    with pytest.raises(ValueError, match="num_steps must be >= 1"):
        envs.step(np.zeros((2, 7), np.intc), num_steps=0)
    assert envs.close() is True
    assert envs.close() is False
    with pytest.raises(RuntimeError, match="VectorLab is closed"):
        envs.reset()


def test_a_lua_error_names_the_env_and_the_next_step_restarts_it():
    # Env i's first episode has seed 10 + i: env 3 fails to start.
    envs = labenv.VectorLab(4, TEST_LEVEL, ["TEST.COUNTER"], config(failSeed=13))
    with pytest.raises(RuntimeError, match="VectorLab env 3: .*start failed on purpose, seed 13"):
        envs.reset(seed=10)
    envs.reset(seed=20)
    envs = labenv.VectorLab(2, TEST_LEVEL, ["TEST.COUNTER"], config(failAtFrame=2))
    envs.reset(seed=0)
    actions = np.zeros((2, 7), np.intc)
    envs.step(actions)
    with pytest.raises(RuntimeError, match="VectorLab env 0: .*step failed on purpose"):
        envs.step(actions)
    observed, reward, _, _ = envs.step(actions)  # both start again
    assert observed["TEST.COUNTER"][:, 0].tolist() == [0.0, 0.0]


def test_shards_with_seed_offsets_and_strides_replay_one_whole_batch():
    """A batch of 5 split 3 + 2 (labenv.distributed's shards) steps as one."""
    settings = config(episodeLengthSeconds=0.05)  # 3-frame episodes: autoresets
    whole = labenv.VectorLab(5, "demo_maze", ["RGB_INTERLEAVED"], settings)
    shards = [labenv.VectorLab(3, "demo_maze", ["RGB_INTERLEAVED"], settings, seed_stride=5),
              labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], settings,
                               seed_offset=3, seed_stride=5)]
    actions = random_actions(np.random.default_rng(4), 10, envs=5)
    expected = whole.reset(seed=9)["RGB_INTERLEAVED"]
    got = [shard.reset(seed=9)["RGB_INTERLEAVED"] for shard in shards]
    assert np.array_equal(np.concatenate(got), expected)
    for step_actions in actions:
        expected = whole.step(step_actions)[0]["RGB_INTERLEAVED"]
        got = [shards[0].step(step_actions[:3])[0]["RGB_INTERLEAVED"],
               shards[1].step(step_actions[3:])[0]["RGB_INTERLEAVED"]]
        assert np.array_equal(np.concatenate(got), expected)
    assert whole.episodes == shards[0].episodes + shards[1].episodes


def test_reset_can_start_each_env_at_its_own_episode():
    settings = config(episodeLengthSeconds=0.05)
    envs = labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], settings)
    single = labenv.Lab("demo_maze", ["RGB_INTERLEAVED"], settings)
    assert envs.episodes == [0, 0]
    first = envs.reset(seed=3, episodes=[4, 7])["RGB_INTERLEAVED"]
    assert envs.episodes == [5, 8]
    # Env 1's episode 7 is seed 3 + 1 + 7 * 2.
    single.reset(episode=7, seed=3 + 1 + 7 * 2)
    assert np.array_equal(first[1], single.observations()["RGB_INTERLEAVED"])
    for _ in range(4):  # the episodes end at frame 3; the next starts
        envs.step(np.zeros((2, 7), np.intc))
    assert envs.episodes == [6, 9]
    with pytest.raises(ValueError, match="'episodes' has 1 entries, 2 expected"):
        envs.reset(episodes=[1])
    with pytest.raises(ValueError, match=r"episodes\[1\] must be an int"):
        envs.reset(episodes=[1, -2])
    with pytest.raises(ValueError, match="'seed_stride' must be int"):
        labenv.VectorLab(2, "demo_maze", ["RGB_INTERLEAVED"], settings, seed_stride="5")
