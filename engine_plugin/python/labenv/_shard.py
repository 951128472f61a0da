"""One shard of labenv.distributed.DistributedVectorLab: a
labenv.VectorLab that lives in a Dask worker as an actor. It answers
the control plane's calls (specs, a reset after a restart, send/recv,
rollouts) through Dask, and serves the data plane's resets and steps
over a connection of its own (labenv/_data_plane.py)."""

import re
import time

import numpy as np

import labenv
from labenv import _data_plane

LevelError = _data_plane.LevelError


class Shard:
    """One labenv.VectorLab in a Dask worker, as an actor."""

    def __init__(self, num_envs, level, observations, config, num_threads, seed_offset,
                 seed_stride, index):
        self._names = list(observations)
        self._first, self._index = seed_offset, index
        try:
            # batch_size 1: send_recv gathers its envs one by one.
            self._envs = labenv.VectorLab(num_envs, level, self._names, config,
                                          num_threads=num_threads, seed_offset=seed_offset,
                                          seed_stride=seed_stride, batch_size=1)
        except (RuntimeError, ValueError) as error:
            raise LevelError(str(error)) from None

    def specs(self):
        return {
            "observation_spec": self._envs.observation_spec(),
            "action_spec": self._envs.action_spec(),
            "continuous_action_spec": self._envs.continuous_action_spec(),
            "fps": self._envs.fps(),
        }

    def _result(self, observed, started, reward=None, terminated=None, truncated=None):
        n = self._envs.num_envs
        return {
            # Plain ndarray views: Dask sends their buffers as they are.
            "observations": {name: np.asarray(observed[name]) for name in self._names},
            "reward": np.zeros(n) if reward is None else reward,
            "terminated": np.zeros(n, bool) if terminated is None else terminated,
            "truncated": np.zeros(n, bool) if truncated is None else truncated,
            "episodes": np.array(self._envs.episodes),
            "step_seconds": time.perf_counter() - started,
        }

    def reset(self, seed, episodes=None):
        started = time.perf_counter()
        try:
            observed = self._envs.reset(seed=seed, episodes=episodes)
        except RuntimeError as error:
            raise LevelError(str(error)) from None
        return self._result(observed, started)

    def open_plane(self, slots, authkey):
        """Serves the learner's data plane (labenv/_data_plane.py): its
        address, and whether the learner's batches are mapped here."""
        import distributed

        self._plane = _data_plane.Server(self._envs, self._names, self._first,
                                         distributed.get_worker().ip, authkey, slots)
        return self._plane.address, self._plane.shared

    def send_recv(self, envs, actions, num_steps, continuous):
        """Steps these envs (local ids) together and returns their rows in
        that order, and under 'errors' {env: message} for any that failed."""
        started = time.perf_counter()
        if continuous is None:
            self._envs.send(actions, envs, num_steps=num_steps)
        else:
            self._envs.send(actions, envs, num_steps=num_steps, continuous=continuous)
        rows, errors = {}, {}
        for _ in envs:
            try:
                observed, reward, terminated, truncated, ids = self._envs.recv()
                rows[int(ids[0])] = (observed, reward[0], terminated[0], truncated[0])
            except RuntimeError as error:  # 'VectorLab env 3: "..."', env 3 back with us
                found = re.match(r"VectorLab env (\d+): (.*)", str(error), re.S)
                errors[int(found.group(1))] = found.group(2)
        done = [env for env in envs if env in rows]
        return {
            "observations": {name: np.stack([rows[env][0][name][0] for env in done])
                             if done else np.zeros((0,)) for name in self._names},
            "reward": np.array([rows[env][1] for env in done], np.float64),
            "terminated": np.array([rows[env][2] for env in done], bool),
            "truncated": np.array([rows[env][3] for env in done], bool),
            "episodes": np.array(self._envs.episodes),
            "errors": errors,
            "step_seconds": time.perf_counter() - started,
        }

    # labenv.rollouts' shard side: a thread collects fragments.

    def rollout_start(self, policy, unroll_length, seed, prefetch, slots, episodes=None,
                      weights=None):
        """Starts collecting (the envs at `episodes`, else at episode 0;
        under `weights`, (version, weights), from the first fragment when
        given); whether the learner's shared memory is here."""
        from labenv import rollouts

        self._rollouts = rollouts.ShardRollouts(self._envs, policy, unroll_length,
                                                self._first, self._index, prefetch, slots)
        if weights is not None:
            self._rollouts.set_weights(*weights)
        self._rollouts.start(seed, episodes)
        self._plane.rollouts = self._rollouts  # its fetches come on the data plane
        return self._rollouts.shared

    def rollout_weights(self, version, weights):
        self._rollouts.set_weights(version, weights)
        return True

    def rollout_stop(self):
        if getattr(self, "_rollouts", None) is not None:
            self._rollouts.stop()
            self._rollouts = self._plane.rollouts = None
        return True

    def close(self):
        self.rollout_stop()
        if getattr(self, "_plane", None) is not None:
            self._plane.close()
        self._envs.close()
        return True
