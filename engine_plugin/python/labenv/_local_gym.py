"""The part of Gymnasium's API that labenv.gym uses.

labenv.gym uses the real `gymnasium` package when it is installed; Debian
does not package it, so this module stands in for it otherwise, with the
same names and behaviour: Env (reset(seed=, options=) seeding np_random,
close, a context manager) and spaces.Box and spaces.Dict (sample,
contains, seed).
"""

import abc
import types

import numpy as np


class Space(abc.ABC):
    """A set of values, with a seedable sampler."""

    def __init__(self, shape=None, dtype=None, seed=None):
        self._shape = None if shape is None else tuple(shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self):
        return self._shape

    @property
    def np_random(self):
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        self._np_random = np.random.default_rng(seed)
        return [seed]

    @abc.abstractmethod
    def sample(self):
        """A random member."""

    @abc.abstractmethod
    def contains(self, x):
        """Whether x is a member."""

    def __contains__(self, x):
        return self.contains(x)


class Box(Space):
    """Arrays of `shape` and `dtype` whose elements lie in [low, high]."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        if shape is None:
            shape = np.broadcast_shapes(np.shape(low), np.shape(high))
        super().__init__(shape, dtype, seed)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def sample(self):
        """Uniform in the bounds (integers inclusive); unbounded floats are normal."""
        if self.dtype.kind in "iu":
            return self.np_random.integers(
                self.low, self.high, size=self.shape, endpoint=True
            ).astype(self.dtype)
        low = self.low.astype(np.float64)
        high = self.high.astype(np.float64)
        sample = self.np_random.normal(size=self.shape)
        bounded = np.isfinite(low) & np.isfinite(high)
        sample[bounded] = self.np_random.uniform(low[bounded], high[bounded])
        below = np.isfinite(low) & ~np.isfinite(high)
        sample[below] = low[below] + self.np_random.exponential(size=below.sum())
        above = ~np.isfinite(low) & np.isfinite(high)
        sample[above] = high[above] - self.np_random.exponential(size=above.sum())
        return sample.astype(self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self.shape
            and np.all(x >= self.low)
            and np.all(x <= self.high)
        )

    def __repr__(self):
        return "Box({}, {}, {}, {})".format(
            self.low.min(), self.high.max(), self.shape, self.dtype
        )


class Dict(Space):
    """A dict of named spaces."""

    def __init__(self, spaces, seed=None):
        self.spaces = dict(spaces)
        super().__init__(None, None, seed)

    def seed(self, seed=None):
        seeds = np.random.SeedSequence(seed).spawn(len(self.spaces))
        for space, child in zip(self.spaces.values(), seeds):
            space.seed(int(child.generate_state(1)[0]))
        return super().seed(seed)

    def sample(self):
        return {name: space.sample() for name, space in self.spaces.items()}

    def contains(self, x):
        return (
            isinstance(x, dict)
            and x.keys() == self.spaces.keys()
            and all(space.contains(x[name]) for name, space in self.spaces.items())
        )

    def __getitem__(self, name):
        return self.spaces[name]

    def __repr__(self):
        return "Dict({})".format(
            ", ".join("{!r}: {}".format(name, space) for name, space in self.spaces.items())
        )


spaces = types.SimpleNamespace(Space=Space, Box=Box, Dict=Dict)


class Env(abc.ABC):
    """gymnasium.Env: reset(seed=, options=), step, render, close."""

    metadata = {"render_modes": []}
    render_mode = None
    spec = None
    action_space = None
    observation_space = None
    _np_random = None

    @property
    def np_random(self):
        """The environment's generator, seeded by reset(seed=...)."""
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    def reset(self, *, seed=None, options=None):
        """Reseeds np_random when `seed` is given; subclasses do the rest."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)

    @abc.abstractmethod
    def step(self, action):
        """(obs, reward, terminated, truncated, info)."""

    @abc.abstractmethod
    def render(self):
        """The frame for render_mode."""

    def close(self):
        """Frees what the environment holds."""

    @property
    def unwrapped(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()
