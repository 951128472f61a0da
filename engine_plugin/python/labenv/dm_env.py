"""labenv.dm_env: a labenv.Lab as a dm_env.Environment.

Needs DeepMind's `dm_env` package (importing this module without it raises
ImportError naming it). It re-exports what an agent needs: StepType,
TimeStep, specs and Environment.

    env = labenv.dm_env.Lab('demo_maze', ['RGB_INTERLEAVED'], {'width': '84'}, seed=0)
    timestep = env.reset()                        # StepType.FIRST
    while not timestep.last():
        timestep = env.step({'MOVE_BACK_FORWARD': 1})

- Discrete actions (the maze's) are a dict of action name to int (missing
  names are 0), and action_spec() a dict of scalar int32 BoundedArrays, as
  in DeepMind Lab's own dm_env module. Continuous actions (MuJoCo's) are
  an array, and action_spec() a float64 BoundedArray of shape (n,) with
  their bounds, as in the DeepMind Control Suite; values outside are
  clamped by the engine. A level with both kinds takes the dict, with the
  array under 'continuous'.
- action_set= ('dmlab_default', or a list of 7-vectors: labenv.action_sets)
  makes the actions an index, and action_spec() a DiscreteArray.
- observation_spec() maps each requested observation to an Array.
  Observations are labenv's zero-copy, read-only arrays.
- An episode the level ends is a termination (discount 0); one that
  episodeLengthSeconds cuts short is a truncation (discount 1).
- step() after a LAST step, or before any reset, starts a new episode.
  step() with an action of the wrong form raises TypeError naming the
  form it takes; step() or reset() after close() raise RuntimeError.
"""

import numpy as np

from labenv._requires import require

_dm_env = require("dm_env", "labenv.dm_env", pip_name="dm-env")
specs = _dm_env.specs

import labenv  # noqa: E402
from labenv import action_sets  # noqa: E402

StepType = _dm_env.StepType
TimeStep = _dm_env.TimeStep
Environment = _dm_env.Environment


class Lab(Environment):
    """A labenv.Lab behind dm_env.Environment's API.

    Args:
      level: a built-in level name or a path to a level script.
      observations: the names of the observations to return.
      config: settings, str to str, as for labenv.Lab.
      seed: seeds the episodes' engine seeds (each reset draws the next), so
        a run is reproducible; None draws them at random.
      action_set: None (the level's own actions), 'dmlab_default' or a list
        of action vectors (labenv.action_sets): an index is the action.
      **lab_kwargs: passed on to labenv.Lab (renderer, level_cache).
    """

    def __init__(self, level, observations, config=None, seed=None, action_set=None,
                 **lab_kwargs):
        self._lab = labenv.Lab(level, list(observations), config, **lab_kwargs)
        self._seeds = np.random.default_rng(seed)
        self._needs_reset = True
        self._closed = False
        self._action_table = None
        if action_set is not None:
            self._action_table = action_sets.resolve(
                action_set, self._lab.action_spec(), self._lab.continuous_action_spec()
            )
        self._action_index = {}
        self._action_spec = {}
        for index, spec in enumerate(self._lab.action_spec()):
            self._action_index[spec["name"]] = index
            self._action_spec[spec["name"]] = specs.BoundedArray(
                shape=(), dtype=np.int32, minimum=spec["min"], maximum=spec["max"],
                name=spec["name"],
            )
        continuous = self._lab.continuous_action_spec()
        self._continuous_spec = None
        if continuous:
            self._continuous_spec = specs.BoundedArray(
                shape=(len(continuous),), dtype=np.float64,
                minimum=[spec["min"] for spec in continuous],
                maximum=[spec["max"] for spec in continuous],
                name="continuous",
            )
            if self._action_spec:
                self._action_spec["continuous"] = self._continuous_spec
            else:
                self._action_spec = self._continuous_spec
        if self._action_table is not None:
            self._action_spec = specs.DiscreteArray(
                num_values=len(self._action_table), dtype=np.int32, name="action"
            )
        self._observation_spec = {}
        offered = {spec["name"]: spec for spec in self._lab.observation_spec()}
        for name in observations:
            spec = offered[name]
            if spec["dtype"] is str:
                raise NotImplementedError(
                    "dm_env specs need fixed shapes; observation {} is a string, whose length "
                    "varies".format(name)
                )
            if "min" in spec:  # the level declared the range
                self._observation_spec[name] = specs.BoundedArray(
                    shape=spec["shape"], dtype=spec["dtype"], minimum=spec["min"],
                    maximum=spec["max"], name=name)
            else:
                self._observation_spec[name] = specs.Array(
                    shape=spec["shape"], dtype=spec["dtype"], name=name
                )

    @property
    def lab(self):
        """The labenv.Lab underneath (events(), properties, ...)."""
        return self._lab

    def _check_open(self, method):
        if self._closed:
            raise RuntimeError("{}(): the environment is closed".format(method))

    def reset(self):
        self._check_open("reset")
        self._lab.reset(seed=int(self._seeds.integers(0, labenv.SEEDS)))
        self._needs_reset = False
        return _dm_env.restart(self._lab.observations())

    def _lab_action(self, action):
        """(discrete, continuous) for labenv.Lab.step from a dm_env action."""
        if self._action_table is not None:
            return action_sets.lookup(self._action_table, action), None
        if not self._action_index:
            return None, np.asarray(action, dtype=np.float64)
        if not isinstance(action, dict):
            raise TypeError(
                "step() takes a dict of action name to value (missing names are 0); the "
                "actions are {}; got {}".format(list(self._action_spec), type(action).__name__)
            )
        lab_action = np.zeros(len(self._action_index), dtype=np.intc)
        continuous = None
        for name, value in action.items():
            if name == "continuous" and self._continuous_spec is not None:
                continuous = np.asarray(value, dtype=np.float64)
                continue
            if name not in self._action_index:
                raise KeyError(
                    "unknown action {!r}; the actions are {}".format(name, list(self._action_spec))
                )
            lab_action[self._action_index[name]] = value
        if self._continuous_spec is not None and continuous is None:
            continuous = np.zeros(self._continuous_spec.shape)
        return lab_action, continuous

    def step(self, action):
        self._check_open("step")
        if self._needs_reset:
            return self.reset()
        discrete, continuous = self._lab_action(action)
        if discrete is None:
            reward = self._lab.step(continuous)
        else:
            reward = self._lab.step(discrete, continuous=continuous)
        observation = self._lab.observations()
        status = self._lab.status()
        if status == "running":
            return _dm_env.transition(reward=reward, observation=observation)
        self._needs_reset = True
        if status == "terminated":
            return _dm_env.termination(reward=reward, observation=observation)
        return _dm_env.truncation(reward=reward, observation=observation)

    def observation_spec(self):
        return self._observation_spec

    def action_spec(self):
        return self._action_spec

    def close(self):
        self._closed = True
        self._lab.close()
