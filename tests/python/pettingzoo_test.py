"""labenv.pettingzoo: several players under PettingZoo's own tests, and the
per-player form of labenv.Lab and labenv.VectorLab beneath it."""

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test

import labenv
from labenv import pettingzoo as lpz
from labenv_testing import config


def test_lab_hands_out_each_players_frame_and_reward():
    lab = labenv.Lab("apple_race", ["1.RGB_INTERLEAVED", "2.RGB_INTERLEAVED", "1.REWARD",
                                    "2.REWARD"], config(players=2))
    names = [spec["name"] for spec in lab.observation_spec()]
    assert names[:2] == ["1.RGB_INTERLEAVED", "2.RGB_INTERLEAVED"]
    assert "DEBUG.CAMERA.TOP_DOWN" in names
    assert names[-4:] == ["1.REWARD", "2.REWARD", "1.STATUS", "2.STATUS"]
    assert [a["name"] for a in lab.action_spec()][6:8] == ["1.CROUCH",
                                                           "2.LOOK_LEFT_RIGHT_PIXELS_PER_FRAME"]
    lab.reset(seed=3)
    observed = lab.observations()
    one, two = observed["1.RGB_INTERLEAVED"], observed["2.RGB_INTERLEAVED"]
    assert one.shape == two.shape == (24, 32, 3)
    # Views of one buffer: no copy for either player.
    assert two.__array_interface__["data"][0] - one.__array_interface__["data"][0] == one.nbytes
    rng = np.random.default_rng(0)
    for _ in range(300):
        actions = np.zeros(14, dtype=np.intc)
        actions[[0, 7]] = rng.integers(-20, 21, size=2)
        actions[[3, 10]] = 1
        total = lab.step(actions)
        observed = lab.observations()
        assert total == observed["1.REWARD"][0] + observed["2.REWARD"][0]
        if not lab.is_running():
            break


def _address(array):
    return array.__array_interface__["data"][0]


def test_vector_lab_renders_every_players_frame_in_place():
    names = ["1.RGB_INTERLEAVED", "2.RGB_INTERLEAVED", "1.DEBUG.POS.TRANS", "2.REWARD"]
    envs = labenv.VectorLab(3, "apple_race", names, config(players=2))
    singles = [labenv.Lab("apple_race", names, config(players=2)) for _ in range(3)]
    observed = envs.reset(seed=6)
    for i, lab in enumerate(singles):
        lab.reset(seed=6 + i)
    one, two = observed["1.RGB_INTERLEAVED"], observed["2.RGB_INTERLEAVED"]
    # Player 2's frames are views beside player 1's: one buffer, no copy.
    assert one.shape == two.shape == (3, 24, 32, 3)
    assert _address(two) - _address(one) == 24 * 32 * 3
    assert one.strides[0] == 2 * 24 * 32 * 3
    rng = np.random.default_rng(2)
    for step in range(60):
        actions = np.zeros((3, 14), dtype=np.intc)
        actions[:, [0, 7]] = rng.integers(-20, 21, size=(3, 2))
        actions[:, [3, 10]] = 1
        observed, rewards, terminated, truncated = envs.step(actions)
        for i, lab in enumerate(singles):
            assert lab.step(actions[i]) == rewards[i]
            alone = lab.observations()
            for name in names:
                np.testing.assert_array_equal(observed[name][i], alone[name], err_msg=name)
    # A kept batch is never written again: the next step takes other buffers.
    kept = observed["2.RGB_INTERLEAVED"].copy()
    held = observed
    for _ in range(3):
        envs.step(np.zeros((3, 14), dtype=np.intc))
    np.testing.assert_array_equal(held["2.RGB_INTERLEAVED"], kept)
    # step(out=) takes the caller's arrays: the frames are copied there.
    out = {name: np.zeros_like(observed[name]) for name in names}
    envs.step(np.zeros((3, 14), dtype=np.intc), out=out)
    for i, lab in enumerate(singles):
        lab.step(np.zeros(14, dtype=np.intc))
        np.testing.assert_array_equal(out["2.RGB_INTERLEAVED"][i],
                                      lab.observations()["2.RGB_INTERLEAVED"])
    # And the asynchronous calls, env by env.
    envs.async_reset(seed=6)
    observations, _, _, _, env_ids = envs.recv()
    for j, env in enumerate(env_ids):
        singles[env].reset(seed=6 + env)
        np.testing.assert_array_equal(observations["2.RGB_INTERLEAVED"][j],
                                      singles[env].observations()["2.RGB_INTERLEAVED"])
    envs.close()


def test_players_past_what_the_host_carries_are_an_error():
    with pytest.raises(RuntimeError, match="host 'mujoco' carries at most 1 player"):
        labenv.Lab("cartpole_balance", [], {"players": "2"})
    with pytest.raises(ValueError, match="players must be an int >= 1"):
        lpz.parallel_env("apple_race", players=0)
    with pytest.raises(RuntimeError, match="apple_race has eight spawn points"):
        lpz.parallel_env("apple_race", players=9, config=config())


def test_parallel_api():
    parallel_api_test(lpz.parallel_env("apple_race", players=2, config=config()),
                      num_cycles=300)
    parallel_api_test(lpz.parallel_env("coop_goals", players=2, observations="DEBUG.POS.TRANS",
                                       config=config(), action_set="dmlab_default"),
                      num_cycles=300)


def test_parallel_seed():
    parallel_seed_test(lambda: lpz.parallel_env("apple_race", players=3, config=config(),
                                                action_set="dmlab_default"), num_cycles=200)


def test_aec_api_and_render():
    api_test(lpz.env("coop_goals", players=2, config=config()), num_cycles=100)
    # PettingZoo's render_test makes an env with render_mode='human' only to
    # read its metadata; a headless engine renders arrays, so that one is
    # made without a mode, and every mode the metadata lists is tested.
    render_test(lambda render_mode=None: lpz.env(
        "coop_goals", players=2, config=config(),
        render_mode=None if render_mode == "human" else render_mode))
    env = lpz.parallel_env("coop_goals", players=2, config=config(), render_mode="rgb_array")
    env.reset(seed=1)
    assert env.render().shape == (24, 64, 3)  # the two players' frames side by side


def test_global_observations_are_shared_and_own_ones_differ():
    env = lpz.parallel_env("apple_race", players=2, config=config(),
                           observations=["DEBUG.POS.TRANS", "DEBUG.CAMERA.TOP_DOWN"])
    observations, _ = env.reset(seed=5)
    one, two = observations["player_1"], observations["player_2"]
    assert not np.array_equal(one["DEBUG.POS.TRANS"], two["DEBUG.POS.TRANS"])
    assert one["DEBUG.CAMERA.TOP_DOWN"] is two["DEBUG.CAMERA.TOP_DOWN"]


_FINISHING = """
local players = require 'dmlab.system.players'
local api = {}
function api:nextMap() return "**********\\n*P   P   *\\n**********\\n" end
function api:start() api.frame = 0 end
function api:hasEpisodeFinished()
  api.frame = api.frame + 1
  if api.frame == 5 then players:finish(2) end
  if api.frame == 10 then players:finish(1, 'truncated') end
end
return api
"""


def test_an_agent_whose_part_ends_leaves_alone(tmp_path):
    level = tmp_path / "finishing.lua"
    level.write_text(_FINISHING)
    env = lpz.parallel_env(str(level), players=2, observations="DEBUG.POS.TRANS",
                           config=config(), action_set="dmlab_default")
    env.reset(seed=1)
    forward = {agent: 2 for agent in env.possible_agents}
    for frame in range(1, 11):
        live = list(env.agents)
        observations, rewards, terminations, truncations, _ = env.step(
            {agent: forward[agent] for agent in env.agents})
        assert set(observations) == set(rewards) == set(terminations) == set(live)
        if frame < 5:
            assert env.agents == ["player_1", "player_2"]
        elif frame == 5:
            assert terminations == {"player_1": False, "player_2": True}
            assert env.agents == ["player_1"]
        elif frame < 10:
            assert env.agents == ["player_1"] and not truncations["player_1"]
        else:
            assert truncations == {"player_1": True} and not terminations["player_1"]
            assert env.agents == []
    assert env.lab.status() == "terminated"  # player 2's part was terminated
    parallel_api_test(lpz.parallel_env(str(level), players=2, config=config()), num_cycles=30)


def test_vector_lab_rows_are_players():
    envs = lpz.VectorLab("apple_race", 3, players=2, config=config(),
                         observations=["RGB_INTERLEAVED", "DEBUG.POS.TRANS"],
                         action_set="dmlab_default")
    assert envs.num_envs == 6
    observations, _ = envs.reset(seed=4)
    assert observations["RGB_INTERLEAVED"].shape == (6, 24, 32, 3)
    # The frames are labenv.VectorLab's own batch of every player's, as
    # rows: no copy.
    whole = observations["RGB_INTERLEAVED"].base
    assert isinstance(whole, labenv.ObservationArray) and whole.shape == (3, 2, 24, 32, 3)
    single = lpz.parallel_env("apple_race", players=2, config=config(),
                              observations=["RGB_INTERLEAVED", "DEBUG.POS.TRANS"])
    # Instance 0 of the batch is seeded 4, as a single env reset with that
    # engine seed: its rows are its players, in order.
    single.lab.reset(seed=4)
    alone = single.lab.observations()
    np.testing.assert_array_equal(observations["RGB_INTERLEAVED"][1], alone["2.RGB_INTERLEAVED"])
    np.testing.assert_array_equal(observations["DEBUG.POS.TRANS"][0], alone["1.DEBUG.POS.TRANS"])
    totals = np.zeros(6)
    for _ in range(200):
        observations, rewards, terminated, truncated, _ = envs.step(envs.action_space.sample())
        assert rewards.shape == terminated.shape == truncated.shape == (6,)
        assert np.array_equal(terminated[0::2], terminated[1::2])  # an instance ends whole
        totals += rewards
    assert totals.sum() >= 0
    envs.close()
