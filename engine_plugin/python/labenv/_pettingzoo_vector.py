"""labenv.pettingzoo.VectorLab: many multi-player instances as one batch.

    envs = labenv.pettingzoo.VectorLab('apple_race', num_envs=8, players=2)
    observations, infos = envs.reset(seed=0)   # {'RGB_INTERLEAVED': (16, 84, 84, 3)}
    observations, rewards, terminated, truncated, infos = envs.step(
        envs.action_space.sample())

A gymnasium.vector.VectorEnv whose rows are players: row e * players + i
is player i + 1 of instance e, its observations, action, own reward and
episode flags, so that one policy learns from every player (parameter
sharing, as SuperSuit's vector of agents). The instances step on
labenv.VectorLab's C++ threads, autoresetting at the next step as
labenv.gym.VectorLab does; a row's flags are its instance's episode's, so
that all of an instance's rows reset together (a player whose own part
ended first stands still until then, its 'i.STATUS' in the observations
if asked for). The players' frames are labenv.VectorLab's batch, viewed as
rows without a copy; the other observations are gathered into player rows
(a copy a step).
"""

import numpy as np

import labenv
from labenv import action_sets
from labenv import gym as _lab_gym
from labenv import pettingzoo as _pz

_gym = _lab_gym._gym
_AUTORESET = ({"autoreset_mode": _gym.vector.AutoresetMode.NEXT_STEP}
              if hasattr(_gym.vector, "AutoresetMode") else {})


class VectorLab(_gym.vector.VectorEnv):
    """num_envs instances of `level` with `players` players each.

    Args are labenv.pettingzoo.ParallelEnv's, with num_envs (instances) and
    num_threads (labenv.VectorLab's threads); num_envs of the VectorEnv is
    num_envs * players.
    """

    metadata = dict({"render_modes": []}, **_AUTORESET)

    def __init__(self, level, num_envs, players=2, observations=(_pz._RGB,), config=None,
                 action_set=None, num_threads=None, frame_skip=1, float32=False):
        players, config = _pz._players_setting(players, config)
        self._frame_skip = _lab_gym.checked_frame_skip(frame_skip)
        self._layout, continuous = _pz._Layout.of_level(level, players, config, observations)
        self._envs = labenv.VectorLab(
            num_envs, level, self._layout.lab_names() + self._layout.plugin_names(), config,
            num_threads=num_threads)
        self._players = players
        self._float32 = bool(float32)
        self.num_envs = num_envs * players
        self.single_observation_space = self._layout.observation_space(self._float32)
        self.single_action_space, self._table = self._layout.action_space(action_set, continuous)
        batch_space = _gym.vector.utils.batch_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata, render_fps=self._envs.fps() / self._frame_skip)
        self.render_mode = None
        self.closed = False
        self._started = False

    @property
    def vector_lab(self):
        """The labenv.VectorLab underneath."""
        return self._envs

    def _rows(self, observed):
        """Each asked observation as (instances * players, ...)."""
        players = self._players

        def rows(name):
            if name in self._layout.global_names:
                batch = np.repeat(observed[name], players, axis=0)
            else:
                own = [observed[self._layout._own(p, name)] for p in range(1, players + 1)]
                whole = own[0].base
                if (players > 1 and isinstance(whole, np.ndarray)
                        and whole.shape == (own[0].shape[0], players) + own[0].shape[1:]
                        and all(array.base is whole for array in own)):
                    # The players' frames, which labenv.VectorLab keeps
                    # together: their rows without a copy.
                    batch = whole.reshape((-1,) + own[0].shape[1:])
                else:
                    batch = np.stack(own, axis=1).reshape((-1,) + own[0].shape[1:])
            if self._float32 and batch.dtype == np.float64:
                return batch.astype(np.float32)
            return batch
        if self._layout.single:
            return rows(self._layout.names[0])
        return {name: rows(name) for name in self._layout.names}

    def reset(self, *, seed=None, options=None):
        if self.closed:
            raise RuntimeError("reset(): the environment is closed")
        if options:
            raise ValueError("VectorLab.reset takes no options, got {}".format(sorted(options)))
        super().reset(seed=None if seed is None else int(seed))
        base = int(seed) if seed is not None else int(self.np_random.integers(0, labenv.SEEDS))
        observed = self._envs.reset(seed=base)
        self._started = True
        return self._rows(observed), {}

    def _engine_actions(self, actions):
        rows = self.num_envs
        if self._table is not None:
            indices = np.asarray(actions)
            if indices.shape != (rows,) or indices.dtype.kind not in "iu":
                raise ValueError("with an action set, actions are {} integer indices, got {} "
                                 "of shape {}".format(rows, indices.dtype, indices.shape))
            for index in indices:
                action_sets.lookup(self._table, index)  # names a bad index
            table = self._table[indices]
        else:
            table = _lab_gym._discrete(actions)
            if table.shape != self.action_space.shape:
                raise ValueError("actions have shape {}, got {}".format(
                    self.action_space.shape, table.shape))
        # Each instance's players' actions, one after another.
        return np.ascontiguousarray(table.reshape(rows // self._players, -1), dtype=np.intc)

    def step(self, actions):
        if self.closed:
            raise RuntimeError("step(): the environment is closed")
        if not self._started:
            raise RuntimeError("step() before the first reset(): call reset() first")
        observed, total, terminated, truncated = self._envs.step(
            self._engine_actions(actions), self._frame_skip)[:4]
        players = self._players
        if players == 1:
            rewards = np.asarray(total, dtype=np.float64)
        else:
            rewards = np.stack([observed["{}.REWARD".format(p)][:, 0]
                                for p in range(1, players + 1)], axis=1).reshape(-1)
        return (self._rows(observed), rewards, np.repeat(terminated, players),
                np.repeat(truncated, players), {})

    def close_extras(self, **kwargs):
        self._envs.close()
