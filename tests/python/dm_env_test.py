"""labenv.dm_env: the dm_env.Environment contract."""

import numpy as np
import pytest

import labenv
from labenv import dm_env
from labenv_testing import TEST_LEVEL, config

FORWARD = {"MOVE_BACK_FORWARD": 1}


def test_reset_gives_a_first_step_without_reward():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config(), seed=0)
    timestep = env.reset()
    assert timestep.step_type == dm_env.StepType.FIRST
    assert timestep.first() and not timestep.mid() and not timestep.last()
    assert timestep.reward is None and timestep.discount is None
    assert set(timestep.observation) == {"RGB_INTERLEAVED", "DEBUG.POS.TRANS"}


def test_observations_conform_to_their_specs():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED", "DEBUG.POS.TRANS"], config(), seed=0)
    specs = env.observation_spec()
    assert specs["RGB_INTERLEAVED"].shape == (24, 32, 3)
    assert specs["RGB_INTERLEAVED"].dtype == np.uint8
    assert specs["DEBUG.POS.TRANS"].dtype == np.float64
    timestep = env.reset()
    for _ in range(5):
        for name, spec in specs.items():
            spec.validate(timestep.observation[name])
        # Observations stay labenv's zero-copy arrays.
        assert isinstance(timestep.observation["RGB_INTERLEAVED"], labenv.ObservationArray)
        timestep = env.step(FORWARD)
        assert timestep.mid()
        env.reward_spec().validate(np.float64(timestep.reward))
        env.discount_spec().validate(np.float64(timestep.discount))


def test_action_spec_is_bounded_scalars_by_name():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    specs = env.action_spec()
    assert list(specs) == [spec["name"] for spec in env.lab.action_spec()]
    look = specs["LOOK_LEFT_RIGHT_PIXELS_PER_FRAME"]
    assert look.shape == () and look.dtype == np.int32
    assert look.minimum == -512 and look.maximum == 512
    look.validate(np.int32(512))
    with pytest.raises(ValueError):
        look.validate(np.int32(513))
    assert isinstance(specs["FIRE"], dm_env.specs.BoundedArray)


def test_the_level_ending_is_a_termination_with_discount_zero():
    env = dm_env.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(endAfterFrames=3), seed=0)
    env.reset()
    kinds = [env.step(FORWARD) for _ in range(3)]
    assert [timestep.step_type for timestep in kinds] == [
        dm_env.StepType.MID, dm_env.StepType.MID, dm_env.StepType.LAST
    ]
    assert [timestep.discount for timestep in kinds] == [1.0, 1.0, 0.0]
    assert kinds[-1].observation["TEST.COUNTER"].tolist() == [3.0, 3.0]
    # After LAST, step starts a new episode.
    assert env.step(FORWARD).first()


def test_episode_length_is_a_truncation_with_discount_one():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config(episodeLengthSeconds=0.05), seed=0)
    env.reset()
    last = [env.step(FORWARD) for _ in range(3)][-1]
    assert last.last()
    assert last.discount == 1.0


def test_step_before_reset_resets():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    assert env.step(FORWARD).first()


def test_the_seed_makes_runs_reproducible():
    def run(seed):
        env = dm_env.Lab("random_maze", ["RGB_INTERLEAVED"], config(), seed=seed)
        frames = [np.array(env.reset().observation["RGB_INTERLEAVED"])]
        frames += [np.array(env.reset().observation["RGB_INTERLEAVED"])]
        return np.stack(frames)

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_rewards_arrive_in_mid_steps():
    env = dm_env.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(), seed=0)
    env.reset()
    total = sum(env.step(FORWARD).reward for _ in range(120))
    assert total == 4.0


def test_unknown_actions_and_string_observations_are_refused():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config())
    env.reset()
    with pytest.raises(KeyError, match="unknown action 'JUMP_HIGH'"):
        env.step({"JUMP_HIGH": 1})
    with pytest.raises(NotImplementedError, match="TEST.TEXT is a string"):
        dm_env.Lab(TEST_LEVEL, ["TEST.TEXT"], config())


def test_it_is_a_context_manager_that_closes():
    with dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config()) as env:
        env.reset()
    assert env.lab.status() == "closed"


def test_the_spec_types_behave_like_dm_envs():
    bounded = dm_env.specs.BoundedArray((2,), np.float64, minimum=[0, -1], maximum=1, name="b")
    assert bounded.generate_value().tolist() == [0.0, -1.0]
    assert bounded.replace(name="c").name == "c"
    with pytest.raises(ValueError, match="Expected shape"):
        bounded.validate(np.zeros(3))
    with pytest.raises(ValueError, match="Expected dtype"):
        bounded.validate(np.zeros(2, np.float32))
    with pytest.raises(ValueError):
        dm_env.specs.BoundedArray((), np.int32, minimum=2, maximum=1)
    assert dm_env.specs.Array((1,), np.uint8) == dm_env.specs.Array((1,), np.uint8)
    assert dm_env.TimeStep(dm_env.StepType.LAST, 0.0, 0.0, {}).last()


def test_the_levels_own_time_limit_is_a_truncation():
    env = dm_env.Lab(TEST_LEVEL, ["TEST.COUNTER"], config(timeLimitFrames=2), seed=0)
    env.reset()
    kinds = [env.step(FORWARD) for _ in range(2)]
    assert [timestep.step_type for timestep in kinds] == [dm_env.StepType.MID, dm_env.StepType.LAST]
    assert kinds[-1].discount == 1.0


def test_demo_mazes_thirty_seconds_are_a_truncation():
    env = dm_env.Lab("demo_maze", ["GOAL_DIRECTION"], config(fps=2), seed=0)
    env.reset()
    steps = [env.step({}) for _ in range(60)]
    assert [timestep.last() for timestep in steps] == [False] * 59 + [True]
    assert steps[-1].discount == 1.0


def test_an_action_set_makes_the_action_an_index():
    env = dm_env.Lab("demo_maze", ["DEBUG.POS.TRANS"], config(), seed=0,
                     action_set="dmlab_default")
    spec = env.action_spec()
    assert isinstance(spec, dm_env.specs.DiscreteArray)
    assert spec.num_values == 9 and spec.dtype == np.int32
    start = np.array(env.reset().observation["DEBUG.POS.TRANS"])
    for _ in range(10):
        timestep = env.step(np.int32(0))  # forward
    assert np.linalg.norm(timestep.observation["DEBUG.POS.TRANS"] - start) > 0.2
    with pytest.raises(ValueError, match=r"\[0, 9\)"):
        env.step(9)
    with pytest.raises(ValueError, match="integer index"):
        env.step({"MOVE_BACK_FORWARD": 1})
    custom = dm_env.Lab("demo_maze", ["DEBUG.POS.TRANS"], config(), seed=0,
                        action_set=[[0, 0, 0, 1, 0, 0, 0], [40, 0, 0, 0, 0, 0, 0]])
    assert custom.action_spec().num_values == 2


def test_an_action_of_the_wrong_form_names_the_form():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config(), seed=0)
    env.reset()
    with pytest.raises(TypeError, match="dict of action name to value.*got ndarray"):
        env.step(np.zeros(7, np.intc))


def test_a_closed_environment_says_so():
    env = dm_env.Lab("demo_maze", ["RGB_INTERLEAVED"], config(), seed=0)
    env.reset()
    env.close()
    with pytest.raises(RuntimeError, match=r"step\(\): the environment is closed"):
        env.step({})
    with pytest.raises(RuntimeError, match=r"reset\(\): the environment is closed"):
        env.reset()
