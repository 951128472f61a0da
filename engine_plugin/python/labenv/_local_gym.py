"""The part of Gymnasium's API that labenv.gym uses.

labenv.gym uses the real `gymnasium` package when it is installed; Debian
does not package it, so this module stands in for it otherwise, with the
same names and behaviour: Env (reset(seed=, options=) seeding np_random,
close, a context manager); spaces.Box, Discrete, MultiDiscrete and Dict
(sample, contains, seed); the registry (register, make, make_vec, spec,
registry); and vector.VectorEnv, vector.AutoresetMode and
vector.utils.batch_space.
"""

import abc
import dataclasses
import enum
import importlib
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


class Discrete(Space):
    """The integers 0 .. n - 1."""

    def __init__(self, n, seed=None):
        if int(n) < 1:
            raise ValueError("Discrete needs n >= 1, got {}".format(n))
        self.n = np.int64(n)
        super().__init__((), np.int64, seed)

    def sample(self):
        return np.int64(self.np_random.integers(self.n))

    def contains(self, x):
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            return bool(0 <= x < self.n)
        x = np.asarray(x)
        return bool(x.shape == () and x.dtype.kind in "iu" and 0 <= x < self.n)

    def __repr__(self):
        return "Discrete({})".format(self.n)


class MultiDiscrete(Space):
    """Arrays whose element i is an integer in 0 .. nvec[i] - 1."""

    def __init__(self, nvec, dtype=np.int64, seed=None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        if np.any(self.nvec < 1):
            raise ValueError("MultiDiscrete needs every nvec >= 1, got {}".format(self.nvec))
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self):
        return self.np_random.integers(self.nvec).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return bool(
            x.shape == self.shape and x.dtype.kind in "iu"
            and np.all(x >= 0) and np.all(x < self.nvec)
        )

    def __repr__(self):
        return "MultiDiscrete({})".format(self.nvec)


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


spaces = types.SimpleNamespace(
    Space=Space, Box=Box, Discrete=Discrete, MultiDiscrete=MultiDiscrete, Dict=Dict
)


class _Seeded(abc.ABC):
    """What Env and VectorEnv share: np_random, seeded by reset(seed=...),
    unwrapped, and closing as a context manager."""

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

    @property
    def unwrapped(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


class Env(_Seeded):
    """gymnasium.Env: reset(seed=, options=), step, render, close."""

    metadata = {"render_modes": []}
    render_mode = None
    spec = None
    action_space = None
    observation_space = None

    @abc.abstractmethod
    def step(self, action):
        """(obs, reward, terminated, truncated, info)."""

    @abc.abstractmethod
    def render(self):
        """The frame for render_mode."""

    def close(self):
        """Frees what the environment holds."""


# The registry: gymnasium.register, make, make_vec, spec, registry.


@dataclasses.dataclass
class EnvSpec:
    """How make and make_vec build an environment."""

    id: str
    entry_point: str
    vector_entry_point: str = None
    kwargs: dict = dataclasses.field(default_factory=dict)


registry = {}


def register(id, entry_point, vector_entry_point=None, kwargs=None):  # noqa: A002 (Gymnasium's name)
    registry[id] = EnvSpec(id, entry_point, vector_entry_point, dict(kwargs or {}))


def spec(env_id):
    if env_id not in registry:
        raise KeyError(
            "no environment {!r} is registered; the registered ids are {}".format(
                env_id, sorted(registry)
            )
        )
    return registry[env_id]


def _load(entry_point):
    module, name = entry_point.split(":")
    return getattr(importlib.import_module(module), name)


def make(env_id, **kwargs):
    """The environment `env_id` names, with env.spec set."""
    env_spec = spec(env_id)
    env = _load(env_spec.entry_point)(**dict(env_spec.kwargs, **kwargs))
    env.spec = dataclasses.replace(env_spec, kwargs=dict(env_spec.kwargs, **kwargs))
    return env


def make_vec(env_id, num_envs=1, **kwargs):
    """The vector environment of `env_id`'s vector entry point."""
    env_spec = spec(env_id)
    if env_spec.vector_entry_point is None:
        raise ValueError("{} has no vector entry point".format(env_id))
    arguments = dict(env_spec.kwargs, **kwargs)
    env = _load(env_spec.vector_entry_point)(num_envs=num_envs, **arguments)
    env.spec = dataclasses.replace(env_spec, kwargs=dict(arguments, num_envs=num_envs))
    return env


# gymnasium.vector: VectorEnv, AutoresetMode, utils.batch_space.


class AutoresetMode(enum.Enum):
    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


class VectorEnv(_Seeded):
    """gymnasium.vector.VectorEnv: num_envs environments stepped as one."""

    metadata = {}
    spec = None
    render_mode = None
    closed = False
    num_envs = None
    observation_space = None
    action_space = None
    single_observation_space = None
    single_action_space = None

    @abc.abstractmethod
    def step(self, actions):
        """(observations, rewards, terminations, truncations, infos), batched."""

    def render(self):
        return None

    def close(self, **kwargs):
        if self.closed:
            return
        self.close_extras(**kwargs)
        self.closed = True

    def close_extras(self, **kwargs):
        """Frees what the environments hold."""


def batch_space(space, n):
    """The space of n stacked members of `space`."""
    if isinstance(space, Box):
        return Box(
            np.repeat(space.low[np.newaxis], n, axis=0),
            np.repeat(space.high[np.newaxis], n, axis=0),
            dtype=space.dtype,
        )
    if isinstance(space, Discrete):
        return MultiDiscrete(np.full(n, space.n), dtype=space.dtype)
    if isinstance(space, Dict):
        return Dict({name: batch_space(child, n) for name, child in space.spaces.items()})
    raise TypeError("batch_space: no batched form of {}".format(space))


vector = types.SimpleNamespace(
    VectorEnv=VectorEnv,
    AutoresetMode=AutoresetMode,
    utils=types.SimpleNamespace(batch_space=batch_space),
)
