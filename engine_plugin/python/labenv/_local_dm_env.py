"""The part of DeepMind's dm_env API that labenv.dm_env uses.

labenv.dm_env uses the real `dm_env` package when it is installed; Debian
does not package it, so this module stands in for it otherwise, with the
same names, fields and behaviour: StepType, TimeStep, restart, transition,
termination, truncation, Environment and specs (Array, BoundedArray,
DiscreteArray).
"""

import abc
import enum
import types
from typing import Any, NamedTuple

import numpy as np


class StepType(enum.IntEnum):
    """Where a TimeStep lies in its episode."""

    FIRST = 0
    MID = 1
    LAST = 2

    def first(self) -> bool:
        return self is StepType.FIRST

    def mid(self) -> bool:
        return self is StepType.MID

    def last(self) -> bool:
        return self is StepType.LAST


class TimeStep(NamedTuple):
    """What an environment returns from reset and step.

    reward and discount are None in a FIRST step.
    """

    step_type: Any
    reward: Any
    discount: Any
    observation: Any

    def first(self) -> bool:
        return self.step_type == StepType.FIRST

    def mid(self) -> bool:
        return self.step_type == StepType.MID

    def last(self) -> bool:
        return self.step_type == StepType.LAST


def restart(observation):
    return TimeStep(StepType.FIRST, None, None, observation)


def transition(reward, observation, discount=1.0):
    return TimeStep(StepType.MID, reward, discount, observation)


def termination(reward, observation):
    """The episode ended by itself: nothing follows, so discount 0."""
    return TimeStep(StepType.LAST, reward, 0.0, observation)


def truncation(reward, observation, discount=1.0):
    """The episode was cut short: the future still counts, discount 1."""
    return TimeStep(StepType.LAST, reward, discount, observation)


class Array:
    """An array spec: shape and dtype, and a name."""

    def __init__(self, shape, dtype, name=None):
        self._shape = tuple(int(extent) for extent in shape)
        self._dtype = np.dtype(dtype)
        self._name = name

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def __repr__(self):
        return "Array(shape={}, dtype={}, name={!r})".format(self.shape, repr(self.dtype), self.name)

    def __eq__(self, other):
        if not isinstance(other, Array):
            return NotImplemented
        return self.shape == other.shape and self.dtype == other.dtype

    def _fail(self, message):
        if self.name:
            message += " for spec {}".format(self.name)
        raise ValueError(message)

    def validate(self, value):
        """Returns `value` as an array if it conforms, else raises ValueError."""
        value = np.asarray(value)
        if value.shape != self.shape:
            self._fail("Expected shape {!r} but found {!r}".format(self.shape, value.shape))
        if value.dtype != self.dtype:
            self._fail("Expected dtype {} but found {}".format(self.dtype, value.dtype))
        return value

    def generate_value(self):
        """A value that conforms: zeros."""
        return np.zeros(shape=self.shape, dtype=self.dtype)

    def replace(self, **kwargs):
        arguments = {"shape": self.shape, "dtype": self.dtype, "name": self.name}
        arguments.update(kwargs)
        return type(self)(**arguments)


class BoundedArray(Array):
    """An array spec whose elements lie in [minimum, maximum]."""

    def __init__(self, shape, dtype, minimum, maximum, name=None):
        super().__init__(shape, dtype, name)
        try:
            np.broadcast_to(minimum, shape=self.shape)
            np.broadcast_to(maximum, shape=self.shape)
        except ValueError as error:
            raise ValueError(
                "minimum and maximum must broadcast to shape {}".format(self.shape)
            ) from error
        self._minimum = np.array(minimum, dtype=self.dtype)
        self._minimum.setflags(write=False)
        self._maximum = np.array(maximum, dtype=self.dtype)
        self._maximum.setflags(write=False)
        if (self._minimum > self._maximum).any():
            raise ValueError(
                "minimum {} exceeds maximum {}".format(self._minimum, self._maximum)
            )

    @property
    def minimum(self):
        return self._minimum

    @property
    def maximum(self):
        return self._maximum

    def __repr__(self):
        return "BoundedArray(shape={}, dtype={}, name={!r}, minimum={}, maximum={})".format(
            self.shape, repr(self.dtype), self.name, self.minimum, self.maximum
        )

    def __eq__(self, other):
        if not isinstance(other, BoundedArray):
            return NotImplemented
        return (
            super().__eq__(other)
            and np.array_equal(self.minimum, other.minimum)
            and np.array_equal(self.maximum, other.maximum)
        )

    def validate(self, value):
        value = super().validate(value)
        if (value < self.minimum).any() or (value > self.maximum).any():
            self._fail(
                "Values were not all within bounds {} <= {} <= {}".format(
                    self.minimum, value, self.maximum
                )
            )
        return value

    def generate_value(self):
        return np.full(shape=self.shape, fill_value=self.minimum, dtype=self.dtype)

    def replace(self, **kwargs):
        arguments = {
            "shape": self.shape,
            "dtype": self.dtype,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "name": self.name,
        }
        arguments.update(kwargs)
        return type(self)(**arguments)


class DiscreteArray(BoundedArray):
    """A scalar integer in 0 .. num_values - 1."""

    def __init__(self, num_values, dtype=np.int32, name=None):
        if not isinstance(num_values, (int, np.integer)) or num_values <= 0:
            raise ValueError("num_values must be a positive integer, got {!r}".format(num_values))
        if not np.issubdtype(dtype, np.integer):
            raise ValueError("DiscreteArray needs an integer dtype, got {}".format(dtype))
        super().__init__((), dtype, 0, int(num_values) - 1, name)
        self._num_values = int(num_values)

    @property
    def num_values(self):
        return self._num_values

    def replace(self, **kwargs):
        arguments = {"num_values": self.num_values, "dtype": self.dtype, "name": self.name}
        arguments.update(kwargs)
        return type(self)(**arguments)

    def __repr__(self):
        return "DiscreteArray(shape=(), dtype={}, name={!r}, num_values={})".format(
            repr(self.dtype), self.name, self.num_values
        )


specs = types.SimpleNamespace(Array=Array, BoundedArray=BoundedArray, DiscreteArray=DiscreteArray)


class Environment(metaclass=abc.ABCMeta):
    """dm_env.Environment: reset, step, the specs, close, a context manager."""

    @abc.abstractmethod
    def reset(self):
        """Starts an episode; returns its FIRST TimeStep."""

    @abc.abstractmethod
    def step(self, action):
        """Applies `action`; returns a TimeStep (after a LAST one: reset())."""

    def reward_spec(self):
        return Array(shape=(), dtype=float, name="reward")

    def discount_spec(self):
        return BoundedArray(shape=(), dtype=float, minimum=0.0, maximum=1.0, name="discount")

    @abc.abstractmethod
    def observation_spec(self):
        """The observations' specs."""

    @abc.abstractmethod
    def action_spec(self):
        """The actions' specs."""

    def close(self):
        """Frees what the environment holds."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()
