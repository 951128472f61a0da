"""labenv.gym: a labenv.Lab as a Gymnasium environment.

Needs the `gymnasium` package, 0.29.1 to 1.4 (importing this module
without it raises ImportError naming it).

    env = labenv.gym.Lab('demo_maze', ['RGB_INTERLEAVED'], {'width': '84'})
    observation, info = env.reset(seed=0)
    while True:
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated or truncated:
            break

- observation_space is a Dict of Boxes: uint8 in [0, 255] for byte
  observations; float64 or float32 in the range the level declares
  (customObservationSpec's min= and max=), else unbounded. One name
  instead of a list gives that observation's Box alone. Observations are
  labenv's zero-copy, read-only arrays; float32=True gives doubles as
  float32 copies.
- frame_skip=k repeats each action k frames and returns the rewards' sum.
- action_space: for the maze's discrete actions a Box of shape (7,),
  dtype int32, with each action's bounds; step() takes any integer
  array-like of that shape. With action_set= ('dmlab_default', or a list
  of 7-vectors: labenv.action_sets) a Discrete(n) instead, and step()
  takes an index. For continuous actions (MuJoCo: one per actuator) a
  float64 Box with their bounds; step() refuses an action outside it
  (ValueError), as Gymnasium users expect. A level with both kinds has a
  Dict {'discrete': ..., 'continuous': ...}.
- terminated: the level ended the episode (the C ABI's Terminated);
  truncated: episodeLengthSeconds cut it short (Interrupted).
- reset(seed=s) makes the episodes that follow reproducible: every reset
  draws the engine's seed from np_random. options may hold 'episode', the
  episode number passed to the level.
- info holds 'events', the level's events of that reset or step.
- render_mode='rgb_array': render() returns the RGB frame.
- step() after close(), or render() before the first reset(), raise
  RuntimeError saying so.
- VectorLab (labenv/gym_vector.py): a gymnasium.vector.VectorEnv over
  labenv.VectorLab. register_levels() registers every built-in level as
  labenv/<level>-v0 for gymnasium.make and gymnasium.make_vec; importing
  labenv calls it.
"""

import numpy as np

from labenv._requires import require

_gym = require("gymnasium", "labenv.gym")
spaces = _gym.spaces

import labenv  # noqa: E402
from labenv import action_sets  # noqa: E402

Env = _gym.Env

_RGB = "RGB_INTERLEAVED"


def _box(spec, float32):
    if spec["dtype"] is str:
        raise NotImplementedError(
            "observation {} is a string, whose length varies: a Box needs a fixed "
            "shape".format(spec["name"])
        )
    # The level's declared range when it has one (a grey image in [0, 1]),
    # else the type's.
    if np.dtype(spec["dtype"]) == np.uint8:
        low, high = max(spec.get("min", 0), 0), min(spec.get("max", 255), 255)
        return spaces.Box(int(np.ceil(low)), int(np.floor(high)), shape=spec["shape"],
                          dtype=np.uint8)
    dtype = np.float32 if float32 else np.dtype(spec["dtype"])
    return spaces.Box(spec.get("min", -np.inf), spec.get("max", np.inf), shape=spec["shape"],
                      dtype=dtype)


class Observations:
    """Which observations an adapter returns, and in what form.

    `names` is a list of observation names (a Dict space, a dict of arrays)
    or one name (that observation's Box, its array). With float32, doubles
    come as float32 arrays (a copy; bytes and floats stay as they are, views
    of the engine's buffers).
    """

    def __init__(self, names, float32=False):
        self.single = isinstance(names, str)
        self.names = [names] if self.single else list(names)
        self.float32 = bool(float32)

    def space(self, lab):
        """The observation space for labenv.Lab or VectorLab `lab`."""
        offered = {spec["name"]: spec for spec in lab.observation_spec()}
        boxes = {name: _box(offered[name], self.float32) for name in self.names}
        return boxes[self.names[0]] if self.single else spaces.Dict(boxes)

    def _form(self, array):
        if self.float32 and array.dtype == np.float64:
            return array.astype(np.float32)
        return array

    def select(self, observed):
        """The adapter's observation from labenv's dict `observed`."""
        if self.single:
            return self._form(observed[self.names[0]])
        return {name: self._form(observed[name]) for name in self.names}


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
        index = np.unravel_index(int(np.flatnonzero(outside)[0]), action.shape)
        raise ValueError(
            "action {} is {}, outside the action space's [{}, {}]".format(
                index if len(index) > 1 else index[0], action[index], box.low[index],
                box.high[index],
            )
        )
    return action


def checked_frame_skip(frame_skip):
    """frame_skip if it is an int >= 1, else ValueError naming it."""
    if isinstance(frame_skip, bool) or not isinstance(frame_skip, (int, np.integer)) \
            or frame_skip < 1:
        raise ValueError("frame_skip must be an int >= 1, got {!r}".format(frame_skip))
    return int(frame_skip)


def spaces_of(lab, observations, action_set):
    """(observation_space, action_space, action table or None) of one env.

    `lab` is a labenv.Lab or VectorLab, `observations` an Observations; the
    table maps an action set's indices to the level's discrete actions.
    """
    observation_space = observations.space(lab)
    if action_set is not None:
        table = action_sets.resolve(action_set, lab.action_spec(), lab.continuous_action_spec())
        return observation_space, spaces.Discrete(len(table)), table
    discrete = _action_box(lab.action_spec(), np.int32)
    continuous = _action_box(lab.continuous_action_spec(), np.float64)
    if discrete is not None and continuous is not None:
        action_space = spaces.Dict({"discrete": discrete, "continuous": continuous})
    else:
        action_space = continuous if discrete is None else discrete
    return observation_space, action_space, None


class Lab(Env):
    """A labenv.Lab behind Gymnasium's Env API.

    Args:
      level: a built-in level name or a path to a level script.
      observations: the names of the observations to return (a Dict), or
        one name (that observation's Box alone).
      config: settings, str to str, as for labenv.Lab.
      render_mode: None or 'rgb_array'.
      action_set: None (the level's own actions), 'dmlab_default' or a list
        of action vectors (labenv.action_sets): a Discrete action space.
      frame_skip: each step repeats the action this many frames (DeepMind
        Lab's num_steps; IMPALA's agents use 4) and returns the rewards'
        sum; the episode may end within them.
      float32: doubles observations as float32 (Boxes and arrays), as
        most networks take them.
      **lab_kwargs: passed on to labenv.Lab (renderer, level_cache).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(self, level, observations=(_RGB,), config=None, render_mode=None,
                 action_set=None, frame_skip=1, float32=False, **lab_kwargs):
        self._frame_skip = checked_frame_skip(frame_skip)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(
                "render_mode must be None or 'rgb_array', got {!r}".format(render_mode)
            )
        self.render_mode = render_mode
        self._observations = Observations(observations, float32)
        wanted = list(self._observations.names)
        if render_mode == "rgb_array" and _RGB not in wanted:
            wanted.append(_RGB)
        self._lab = labenv.Lab(level, wanted, config, **lab_kwargs)
        self._closed = False
        self.metadata = dict(self.metadata, render_fps=self._lab.fps() / self._frame_skip)
        self.observation_space, self.action_space, self._action_table = spaces_of(
            self._lab, self._observations, action_set
        )
        self._frame = None

    @property
    def lab(self):
        """The labenv.Lab underneath (properties, ...)."""
        return self._lab

    def _check_open(self, method):
        if self._closed:
            raise RuntimeError("{}(): the environment is closed".format(method))

    def _observe(self):
        observed = self._lab.observations()
        if self.render_mode == "rgb_array":
            self._frame = observed[_RGB]
        return self._observations.select(observed)

    def reset(self, *, seed=None, options=None):
        self._check_open("reset")
        super().reset(seed=seed)
        episode = -1
        if options is not None:
            unknown = set(options) - {"episode"}
            if unknown:
                raise ValueError(
                    "unknown reset options {}; the only one is 'episode'".format(sorted(unknown))
                )
            episode = int(options.get("episode", -1))
        self._lab.reset(episode=episode, seed=int(self.np_random.integers(0, labenv.SEEDS)))
        return self._observe(), {"events": self._lab.events()}

    def step(self, action):
        self._check_open("step")
        if not self._lab.is_running():
            raise RuntimeError(
                "step() needs a running episode: call reset() first, and after the episode "
                "terminated or was truncated"
            )
        steps = self._frame_skip
        if self._action_table is not None:
            reward = self._lab.step(action_sets.lookup(self._action_table, action), steps)
        elif isinstance(self.action_space, spaces.Dict):
            reward = self._lab.step(
                _discrete(action["discrete"]), steps,
                continuous=_continuous(action["continuous"], self.action_space["continuous"]),
            )
        elif self.action_space.dtype == np.float64:
            reward = self._lab.step(_continuous(action, self.action_space), steps)
        else:
            reward = self._lab.step(_discrete(action), steps)
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
        if self.render_mode is None:
            return None
        self._check_open("render")
        if self._frame is None:
            raise RuntimeError(
                "render(): nothing to show before the first reset(), which renders the "
                "episode's first frame"
            )
        return self._frame

    def close(self):
        self._closed = True
        self._lab.close()


from labenv.gym_vector import VectorLab, register_levels  # noqa: E402  (uses the above)
