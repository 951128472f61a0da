"""labenv on the MuJoCo host: the task levels, their actions and
observations, the adapters, VectorLab, and frames against references."""

import os

import numpy as np
import pytest

import labenv
from labenv import dm_env, gym
from mujoco_controllers import TASKS

HERE = os.path.dirname(os.path.abspath(__file__))


# Control steps per episode: the tasks' time limits.
EPISODE_STEPS = {"ball_in_cup_catch": 500}


def episode_return(level, policy, observations, seed):
    lab = labenv.Lab(level, observations)
    lab.reset(seed=seed)
    total = 0.0
    steps = 0
    while lab.is_running():
        action = np.asarray(policy(lab.observations()), dtype=np.float64)
        total += lab.step(action)
        steps += 1
    assert lab.status() == "interrupted"  # the tasks' time limit: a truncation
    assert steps == EPISODE_STEPS.get(level, 1000)
    return total


@pytest.mark.parametrize("level", sorted(TASKS))
def test_a_scripted_controller_earns_much_and_the_zero_policy_little(level):
    controller, observations, least, zero_most = TASKS[level]
    for seed in (1, 2):
        earned = episode_return(level, controller, observations, seed)
        assert earned >= least, (level, seed, earned)
        nothing = episode_return(level, lambda o: np.zeros(len(controller(o))), observations, seed)
        assert nothing <= zero_most, (level, seed, nothing)
        assert 0 <= nothing < earned <= EPISODE_STEPS.get(level, 1000)  # rewards in [0, 1]


def test_specs_and_observations():
    lab = labenv.Lab("cartpole_swingup", ["QPOS", "QVEL", "RGB_INTERLEAVED"])
    assert lab.action_spec() == []
    assert lab.continuous_action_spec() == [{"min": -1.0, "max": 1.0, "name": "slide"}]
    specs = {spec["name"]: spec for spec in lab.observation_spec()}
    assert specs["QPOS"]["shape"] == (2,) and specs["QPOS"]["dtype"] == np.float64
    assert specs["DEPTH"]["shape"] == (84, 84) and specs["DEPTH"]["dtype"] == np.float32
    lab.reset(seed=1)
    observed = lab.observations()
    assert observed["RGB_INTERLEAVED"].shape == (84, 84, 3)
    assert abs(observed["QPOS"][1] - np.pi) < 0.1  # swingup starts hanging down
    assert lab.read_property("engine.host") == "mujoco"
    assert lab.fps() == 100


def test_depth_is_metres_from_the_camera():
    lab = labenv.Lab("cartpole_balance", ["DEPTH"], {"width": "64", "height": "48"})
    lab.reset(seed=1)
    depth = lab.observations()["DEPTH"]
    assert depth.shape == (48, 64) and depth.dtype == np.float32
    # The fixed camera is 4 m in front of the cart: the cart's face is a
    # little nearer, the floor far behind farther.
    centre = depth[24, 32]
    assert 3.5 < centre < 4.0, centre
    assert depth.max() > 5


def test_bad_actions_are_refused_before_anything_happens():
    lab = labenv.Lab("point_mass_easy", ["QPOS"])
    lab.reset(seed=1)
    with pytest.raises(ValueError, match=r"must have shape \(2,\), got \(3,\)"):
        lab.step(np.zeros(3))
    with pytest.raises(ValueError, match="must have dtype np.float64"):
        lab.step(np.zeros(2, dtype=np.intc))
    with pytest.raises(ValueError, match="element 1 is nan, not a finite number"):
        lab.step(np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="element 0 is inf"):
        lab.step(np.array([np.inf, 0.0]))
    maze = labenv.Lab("demo_maze", [])
    maze.reset(seed=1)
    with pytest.raises(TypeError, match="no continuous actions"):
        maze.step(np.zeros(7, np.intc), continuous=np.zeros(1))
    assert lab.is_running()
    lab.step(np.array([5.0, -5.0]))  # clamped, and counted
    assert lab.read_property("engine.clampedActions") == "2"


def test_gymnasium_has_a_float_box_and_refuses_actions_outside_it():
    env = gym.Lab("cartpole_swingup", ["QPOS", "QVEL"])
    space = env.action_space
    assert space.shape == (1,) and space.dtype == np.float64
    assert space.low[0] == -1 and space.high[0] == 1
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    with pytest.raises(ValueError, match=r"action 0 is 1.5, outside the action space's \[-1.0, 1.0\]"):
        env.step(np.array([1.5]))
    truncated = False
    steps = 0
    while not truncated:
        _, reward, terminated, truncated, _ = env.step(space.sample())
        assert not terminated and 0 <= reward <= 1
        steps += 1
    assert steps == 1000


def test_dm_env_has_a_bounded_array_and_ends_with_a_truncation():
    env = dm_env.Lab("reacher_easy", ["QPOS", "TARGET"], seed=0)
    spec = env.action_spec()
    assert spec.shape == (2,) and spec.dtype == np.float64
    assert list(spec.minimum) == [-1, -1] and list(spec.maximum) == [1, 1]
    timestep = env.reset()
    assert timestep.first()
    steps = 0
    while not timestep.last():
        timestep = env.step(np.array([0.3, -0.3]))
        steps += 1
    assert steps == 1000 and timestep.discount == 1.0  # a time limit, not a termination


def test_vector_lab_runs_mujoco_on_four_threads_as_one_lab_does():
    envs = labenv.VectorLab(4, "cartpole_swingup", ["QPOS", "RGB_INTERLEAVED"], num_threads=4)
    assert envs.continuous_action_spec()[0]["name"] == "slide"
    rng = np.random.default_rng(5)
    actions = rng.uniform(-1, 1, size=(20, 4, 1))
    observed = envs.reset(seed=10)
    frames = [observed["RGB_INTERLEAVED"].copy()]
    qpos = [observed["QPOS"].copy()]
    for step in range(20):
        observed, _, _, _ = envs.step(actions[step])
        frames.append(observed["RGB_INTERLEAVED"].copy())
        qpos.append(observed["QPOS"].copy())
    for i in range(4):
        lab = labenv.Lab("cartpole_swingup", ["QPOS", "RGB_INTERLEAVED"])
        lab.reset(episode=0, seed=10 + i)
        assert np.array_equal(lab.observations()["RGB_INTERLEAVED"], frames[0][i])
        for step in range(20):
            lab.step(actions[step, i])
            assert np.array_equal(lab.observations()["QPOS"], qpos[step + 1][i]), (i, step)
            assert np.array_equal(lab.observations()["RGB_INTERLEAVED"], frames[step + 1][i])
    with pytest.raises(ValueError, match=r"must have shape \(4, 1\)"):
        envs.step(np.zeros((4, 2)))


@pytest.mark.parametrize("level", sorted(TASKS))
def test_the_first_frame_matches_its_reference(level):
    # llvmpipe's output can differ a little between processors: most
    # pixels must match closely, none wildly on average.
    lab = labenv.Lab(level, ["RGB_INTERLEAVED"])
    lab.reset(seed=1)
    frame = np.asarray(lab.observations()["RGB_INTERLEAVED"], dtype=np.int16)
    reference = np.load(os.path.join(HERE, "testdata", "mujoco_%s.npy" % level)).astype(np.int16)
    assert frame.shape == reference.shape
    difference = np.abs(frame - reference)
    assert difference.mean() < 2.0, difference.mean()
    assert (difference.max(axis=2) > 48).mean() < 0.01
    assert frame.std() > 10, "a blank frame"


def test_rendering_works_when_torch_was_imported_first():
    """Importing PyTorch first makes libGL's symbols global; MuJoCo's GL
    loader must still take OSMesa's (it took GLX's and every render
    failed). A fresh process: the loader runs once per process."""
    import subprocess
    import sys

    code = (
        "import torch, labenv\n"
        "lab = labenv.Lab('cartpole_swingup', ['RGB_INTERLEAVED'], {'width': '32', 'height': '24'})\n"
        "lab.reset(seed=0)\n"
        "print(lab.observations()['RGB_INTERLEAVED'].max())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 0
