"""labenv.gym: a labenv.Lab as a Gymnasium environment.

Uses the `gymnasium` package when it is installed, else the faithful local
equivalent in labenv._local_gym (Debian does not package Gymnasium). This
module re-exports `spaces` and `Env` from whichever it uses.

    env = labenv.gym.Lab('demo_maze', ['RGB_INTERLEAVED'], {'width': '84'})
    observation, info = env.reset(seed=0)
    while True:
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated or truncated:
            break

- observation_space is a Dict of Boxes: uint8 in [0, 255] for byte
  observations, float64 or float32 unbounded for doubles and floats. Observations are labenv's
  zero-copy, read-only arrays.
- action_space: for the maze's discrete actions a Box of shape (7,),
  dtype int32, with each action's bounds; step() takes any integer
  array-like of that shape. For continuous actions (MuJoCo: one per
  actuator) a float64 Box with their bounds; step() refuses an action
  outside it (ValueError), as Gymnasium users expect. A level with both
  kinds has a Dict {'discrete': ..., 'continuous': ...}.
- terminated: the level ended the episode (the C ABI's Terminated);
  truncated: episodeLengthSeconds cut it short (Interrupted).
- reset(seed=s) makes the episodes that follow reproducible: every reset
  draws the engine's seed from np_random. options may hold 'episode', the
  episode number passed to the level.
- info holds 'events', the level's events of that reset or step.
- render_mode='rgb_array': render() returns the RGB frame.
"""

import numpy as np

try:
    import gymnasium as _gym
    from gymnasium import spaces
except ImportError:
    from labenv import _local_gym as _gym

    spaces = _gym.spaces

import labenv

Env = _gym.Env

_RGB = "RGB_INTERLEAVED"


def _box(spec):
    if spec["dtype"] is str:
        raise NotImplementedError(
            "observation {} is a string, whose length varies: a Box needs a fixed "
            "shape".format(spec["name"])
        )
    if np.dtype(spec["dtype"]) == np.uint8:
        return spaces.Box(0, 255, shape=spec["shape"], dtype=np.uint8)
    return spaces.Box(-np.inf, np.inf, shape=spec["shape"], dtype=np.dtype(spec["dtype"]))


def _action_box(specs, dtype):
    """A Box of the actions' bounds, or None when there are none."""
    if not specs:
        return None
    return spaces.Box(
        low=np.array([action["min"] for action in specs], dtype=dtype),
        high=np.array([action["max"] for action in specs], dtype=dtype),
        shape=(len(specs),),
        dtype=dtype,
    )


def _discrete(action):
    action = np.asarray(action)
    if action.dtype.kind not in "iu":
        raise ValueError(
            "discrete actions are integer arrays, got dtype {}".format(action.dtype)
        )
    return action.astype(np.intc, copy=False)


def _continuous(action, box):
    action = np.asarray(action, dtype=np.float64)
    if action.shape != box.shape:
        raise ValueError(
            "continuous actions have shape {}, got {}".format(box.shape, action.shape)
        )
    outside = ~((action >= box.low) & (action <= box.high))
    if outside.any():
        index = int(np.flatnonzero(outside)[0])
        raise ValueError(
            "action {} is {}, outside the action space's [{}, {}]".format(
                index, action[index], box.low[index], box.high[index]
            )
        )
    return action


class Lab(Env):
    """A labenv.Lab behind Gymnasium's Env API.

    Args:
      level: a built-in level name or a path to a level script.
      observations: the names of the observations to return.
      config: settings, str to str, as for labenv.Lab.
      render_mode: None or 'rgb_array'.
      **lab_kwargs: passed on to labenv.Lab (renderer, level_cache).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(self, level, observations=(_RGB,), config=None, render_mode=None, **lab_kwargs):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(
                "render_mode must be None or 'rgb_array', got {!r}".format(render_mode)
            )
        self.render_mode = render_mode
        self._names = list(observations)
        wanted = list(self._names)
        if render_mode == "rgb_array" and _RGB not in wanted:
            wanted.append(_RGB)
        self._lab = labenv.Lab(level, wanted, config, **lab_kwargs)
        self.metadata = dict(self.metadata, render_fps=self._lab.fps())
        offered = {spec["name"]: spec for spec in self._lab.observation_spec()}
        self.observation_space = spaces.Dict({name: _box(offered[name]) for name in self._names})
        discrete = _action_box(self._lab.action_spec(), np.int32)
        continuous = _action_box(self._lab.continuous_action_spec(), np.float64)
        if discrete is not None and continuous is not None:
            self.action_space = spaces.Dict({"discrete": discrete, "continuous": continuous})
        else:
            self.action_space = continuous if discrete is None else discrete
        self._frame = None

    @property
    def lab(self):
        """The labenv.Lab underneath (properties, ...)."""
        return self._lab

    def _observe(self):
        observed = self._lab.observations()
        if self.render_mode == "rgb_array":
            self._frame = observed[_RGB]
        return {name: observed[name] for name in self._names}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        episode = -1
        if options is not None:
            unknown = set(options) - {"episode"}
            if unknown:
                raise ValueError(
                    "unknown reset options {}; the only one is 'episode'".format(sorted(unknown))
                )
            episode = int(options.get("episode", -1))
        self._lab.reset(episode=episode, seed=int(self.np_random.integers(0, 2**63)))
        return self._observe(), {"events": self._lab.events()}

    def step(self, action):
        if not self._lab.is_running():
            raise RuntimeError(
                "step() needs a running episode: call reset() first, and after the episode "
                "terminated or was truncated"
            )
        if isinstance(self.action_space, spaces.Dict):
            reward = self._lab.step(
                _discrete(action["discrete"]),
                continuous=_continuous(action["continuous"], self.action_space["continuous"]),
            )
        elif self.action_space.dtype == np.float64:
            reward = self._lab.step(_continuous(action, self.action_space))
        else:
            reward = self._lab.step(_discrete(action))
        observation = self._observe()
        status = self._lab.status()
        return (
            observation,
            reward,
            status == "terminated",
            status == "interrupted",
            {"events": self._lab.events()},
        )

    def render(self):
        """The current RGB frame with render_mode='rgb_array', else None."""
        return self._frame

    def close(self):
        self._lab.close()
