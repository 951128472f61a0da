"""labenv.gym.VectorLab: labenv.VectorLab as a gymnasium.vector.VectorEnv.

    envs = labenv.gym.VectorLab('demo_maze', num_envs=8, config={'width': '84'})
    observations, infos = envs.reset(seed=0)   # {'RGB_INTERLEAVED': (8, 84, 84, 3)}
    actions = envs.action_space.sample()
    observations, rewards, terminated, truncated, infos = envs.step(actions)

or, after `import labenv`, gymnasium.make_vec('labenv/demo_maze-v0', num_envs=8).

- The engines step on labenv.VectorLab's C++ threads and write each batch
  in place: observations are its read-only batch arrays, not copies.
- Needs Gymnasium 1.0 or later (0.29's vector contract resets in the same
  step; there, use gymnasium.vector.SyncVectorEnv or AsyncVectorEnv over
  labenv.gym.Lab, as 0.29's own make does).
- Autoreset is Gymnasium 1.x's default, the next step
  (metadata['autoreset_mode'] is AutoresetMode.NEXT_STEP from 1.1): an env whose
  episode ended in step t ignores its action in step t + 1 and returns its
  next episode's first observation, with reward 0 and both flags False.
- terminated: the level ended the episode; truncated: a time limit did.
- reset(seed=s): env i's episode k gets the engine seed s + i + k * n
  (labenv.VectorLab's rule); without a seed, s is drawn from np_random.
- single_observation_space and single_action_space are labenv.gym.Lab's;
  observation_space and action_space batch them (Box of (n, ...),
  Discrete(m) as MultiDiscrete).
"""

import numpy as np

import labenv
from labenv import action_sets
from labenv import gym as _lab_gym

_gym = _lab_gym._gym
spaces = _lab_gym.spaces
_RGB = _lab_gym._RGB
# Gymnasium 1.0 has the contract but not yet the enum that names it.
_AUTORESET = ({"autoreset_mode": _gym.vector.AutoresetMode.NEXT_STEP}
              if hasattr(_gym.vector, "AutoresetMode") else {})
VECTOR_CONTRACT = tuple(int(part) for part in _gym.__version__.split(".")[:2]) >= (1, 0)


class VectorLab(_gym.vector.VectorEnv):
    """num_envs engine instances of one level, stepped together.

    Args:
      level: a built-in level name or a path to a level script.
      num_envs: how many instances.
      observations: the names of the observations to return, or one name,
        as for labenv.gym.Lab.
      config: settings, str to str, as for labenv.Lab.
      render_mode: None or 'rgb_array' (render() returns each env's frame).
      action_set: as for labenv.gym.Lab: the batch action is then an array
        of num_envs indices.
      num_threads: labenv.VectorLab's threads (default min(num_envs, CPUs)).
      frame_skip: as for labenv.gym.Lab: each step repeats the actions this
        many frames and returns the rewards' sums.
      float32: doubles observations as float32, as for labenv.gym.Lab.
    """

    metadata = dict({"render_modes": ["rgb_array"], "render_fps": 60}, **_AUTORESET)

    def __init__(self, level, num_envs, observations=(_RGB,), config=None, render_mode=None,
                 action_set=None, num_threads=None, frame_skip=1, float32=False):
        observations = _lab_gym.Observations(observations, float32)
        wanted = list(observations.names)
        if render_mode == "rgb_array" and _RGB not in wanted:
            wanted.append(_RGB)
        frame_skip = _lab_gym.checked_frame_skip(frame_skip)
        self._setup(labenv.VectorLab(num_envs, level, wanted, config, num_threads=num_threads),
                    observations, render_mode, action_set, frame_skip)

    @classmethod
    def over(cls, envs, observations, render_mode=None, action_set=None, frame_skip=1,
             float32=False):
        """A VectorEnv over `envs`, which has labenv.VectorLab's methods
        (labenv.distributed.DistributedVectorLab) and offers `observations`,
        and RGB_INTERLEAVED for render_mode='rgb_array'. A fifth result of
        its step becomes the infos."""
        self = cls.__new__(cls)
        self._setup(envs, _lab_gym.Observations(observations, float32), render_mode,
                    action_set, _lab_gym.checked_frame_skip(frame_skip))
        return self

    def _setup(self, envs, observations, render_mode, action_set, frame_skip):
        if not VECTOR_CONTRACT:
            envs.close()
            raise RuntimeError(
                "labenv.gym.VectorLab needs Gymnasium 1.0 or later (this is {}, whose vector "
                "envs reset in the same step): use gymnasium.vector.SyncVectorEnv or "
                "AsyncVectorEnv over labenv.gym.Lab".format(_gym.__version__))
        if render_mode not in (None, "rgb_array"):
            raise ValueError(
                "render_mode must be None or 'rgb_array', got {!r}".format(render_mode)
            )
        self.render_mode = render_mode
        self._observations = observations
        self._envs = envs
        self._frame_skip = frame_skip
        self.num_envs = self._envs.num_envs
        self.metadata = dict(self.metadata, render_fps=self._envs.fps() / frame_skip)
        self.single_observation_space, self.single_action_space, self._action_table = (
            _lab_gym.spaces_of(self._envs, observations, action_set)
        )
        batch_space = _gym.vector.utils.batch_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.closed = False
        self._started = False
        self._frames = None

    @property
    def vector_lab(self):
        """The vector underneath: a labenv.VectorLab (read_property,
        num_threads, ...), or what over() was given."""
        return self._envs

    def _check_open(self, method):
        if self.closed:
            raise RuntimeError("{}(): the environment is closed".format(method))

    def _select(self, observed):
        if self.render_mode == "rgb_array":
            self._frames = observed[_RGB]
        return self._observations.select(observed)

    def reset(self, *, seed=None, options=None):
        self._check_open("reset")
        if options:
            raise ValueError(
                "VectorLab.reset takes no options, got {}".format(sorted(options))
            )
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError(
                "reset(seed=) takes one integer s (env i's episode k gets s + i + k * n), "
                "got {!r}".format(seed)
            )
        super().reset(seed=None if seed is None else int(seed))
        base = int(seed) if seed is not None else int(self.np_random.integers(0, labenv.SEEDS))
        observed = self._envs.reset(seed=base)
        self._started = True
        return self._select(observed), {}

    def _engine_actions(self, actions):
        """(discrete, continuous) arrays for labenv.VectorLab.step."""
        n = self.num_envs
        if self._action_table is not None:
            indices = np.asarray(actions)
            if indices.shape != (n,) or indices.dtype.kind not in "iu":
                raise ValueError(
                    "with an action set, actions are {} integer indices, got {} of shape "
                    "{}".format(n, indices.dtype, indices.shape)
                )
            for index in indices:
                action_sets.lookup(self._action_table, index)  # names a bad index
            return self._action_table[indices], None
        space = self.action_space
        if isinstance(space, spaces.Dict):
            return (_lab_gym._discrete(actions["discrete"]),
                    _lab_gym._continuous(actions["continuous"], space["continuous"]))
        if space.dtype == np.float64:
            return None, _lab_gym._continuous(actions, space)
        discrete = _lab_gym._discrete(actions)
        if discrete.shape != space.shape:
            raise ValueError(
                "actions have shape {}, got {}".format(space.shape, discrete.shape)
            )
        return discrete, None

    def step(self, actions):
        self._check_open("step")
        if not self._started:
            raise RuntimeError("step() before the first reset(): call reset() first")
        discrete, continuous = self._engine_actions(actions)
        steps = self._frame_skip
        if discrete is None:
            stepped = self._envs.step(continuous, steps)
        elif continuous is None:
            stepped = self._envs.step(discrete, steps)
        else:
            stepped = self._envs.step(discrete, steps, continuous=continuous)
        observed, rewards, terminated, truncated = stepped[:4]
        infos = dict(stepped[4]) if len(stepped) > 4 else {}
        return self._select(observed), rewards, terminated, truncated, infos

    def render(self):
        """Each env's current RGB frame (views of the batch), or None."""
        if self.render_mode is None:
            return None
        self._check_open("render")
        if self._frames is None:
            raise RuntimeError(
                "render(): nothing to show before the first reset(), which renders each "
                "episode's first frame"
            )
        return tuple(self._frames)

    def close_extras(self, **kwargs):
        self._envs.close()


def register_levels():
    """Registers every built-in level this build runs as labenv/<level>-v0.

    gymnasium.make(id) gives a labenv.gym.Lab, gymnasium.make_vec(id, n)
    (Gymnasium 1.0 and later) a labenv.gym.VectorLab. Ids already registered are left alone, so calling
    it again changes nothing.
    """
    for name, _ in labenv.levels():
        env_id = "labenv/{}-v0".format(name)
        if env_id in _gym.registry:
            continue
        vector = {"vector_entry_point": "labenv.gym:VectorLab"} if VECTOR_CONTRACT else {}
        _gym.register(id=env_id, entry_point="labenv.gym:Lab", kwargs={"level": name}, **vector)
