"""labenv.pettingzoo: a level with several players as a PettingZoo env.

Needs the `pettingzoo` package (1.24 or later) and `gymnasium`.

    env = labenv.pettingzoo.parallel_env('apple_race', players=2,
                                         observations=['RGB_INTERLEAVED'])
    observations, infos = env.reset(seed=0)
    while env.agents:
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

- Agents are 'player_1' ... 'player_n', player i's observations the
  plugin's 'i.<name>' (docs/plugin.md, "Several players"): `observations`
  names them without the number. A name the level has only once (the
  maze's DEBUG.CAMERA.TOP_DOWN) is global, the same array for every agent.
  One name instead of a list gives that observation's Box alone, as
  labenv.gym does.
- Each agent's action space is its player's discrete actions (a Box of
  the maze's seven), or with action_set= ('dmlab_default', or a list of
  vectors: labenv.action_sets) a Discrete(n).
- Rewards are each player's own (the plugin's 'i.REWARD'); frame_skip=k
  repeats the actions k frames and sums them.
- A player's part of the episode ends on its own when the level says so
  (dmlab.system.players' finish: the plugin's 'i.STATUS'): that agent
  leaves `agents`, terminated or truncated. The episode's end (the
  level's, its time limit's, or every player's) ends every agent's; then
  agents is empty until the next reset.
- render_mode='rgb_array': render() gives the players' frames side by side.
- env(...) is the same level through PettingZoo's AEC API (its own
  parallel_to_aec conversion).
- VectorLab(level, num_envs, players, ...): many instances stepped on
  threads (labenv.VectorLab), each player a row of the batch, for training
  one policy over every player (parameter sharing).
"""

import numpy as np

from labenv._requires import require

_pettingzoo = require("pettingzoo", "labenv.pettingzoo")
_conversions = require("pettingzoo.utils.conversions", "labenv.pettingzoo", "pettingzoo")
_gym = require("gymnasium", "labenv.pettingzoo")

import labenv  # noqa: E402
from labenv import action_sets  # noqa: E402
from labenv import gym as _labenv_gym  # noqa: E402

_RGB = "RGB_INTERLEAVED"


def _agent(player):
    return "player_{}".format(player)


def _players_setting(players, config):
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players < 1:
        raise ValueError("players must be an int >= 1, got {!r}".format(players))
    config = dict(config or {})
    if "players" in config and config["players"] != str(players):
        raise ValueError(
            "config's 'players' is {!r} but players={}: give it once".format(
                config["players"], players)
        )
    config["players"] = str(players)
    return int(players), config


class _Layout:
    """Which of a multi-player level's observations and actions are whose.

    `offered` is the level's observation spec, `actions` its discrete
    action spec (all players'), `names` the observations asked for, without
    the player's number.
    """

    def __init__(self, players, offered, actions, names):
        self.players = players
        self.single = isinstance(names, str)
        self.names = [names] if self.single else list(names)
        offered = {spec["name"]: spec for spec in offered}
        self.spec = {}  # bare name -> the spec of one player's (or the global one)
        self.global_names = set()
        for name in self.names:
            own = self._own(1, name)
            if own in offered:
                self.spec[name] = dict(offered[own], name=name)
            elif name in offered:
                self.spec[name] = offered[name]
                self.global_names.add(name)
            else:
                raise ValueError(
                    "observation {!r} is neither a player's ('1.{}') nor the level's; it "
                    "offers {}".format(name, name, sorted(offered))
                )
        per_player = len(actions) // players
        if per_player * players != len(actions):
            raise ValueError(
                "{} discrete actions do not split among {} players".format(len(actions), players)
            )
        self.actions_each = per_player
        prefix = "1."
        self.action_spec = [dict(action, name=action["name"][len(prefix):])
                            if action["name"].startswith(prefix) else dict(action)
                            for action in actions[:per_player]]

    @classmethod
    def of_level(cls, level, players, config, names):
        """(the _Layout of `level`, its continuous action spec), from an
        instance made only to read its specs."""
        probe = labenv.Lab(level, [], config)
        try:
            return (cls(players, probe.observation_spec(), probe.action_spec(), names),
                    probe.continuous_action_spec())
        finally:
            probe.close()

    def action_space(self, action_set, continuous):
        """(one player's action space, the action set's table or None)."""
        if action_set is None:
            return _labenv_gym._action_box(self.action_spec, np.int32), None
        table = action_sets.resolve(action_set, self.action_spec, continuous)
        return _gym.spaces.Discrete(len(table)), table

    def _own(self, player, name):
        return name if self.players == 1 else "{}.{}".format(player, name)

    def lab_names(self):
        """Every observation the Lab must hand out: the asked, each player's
        reward, and with a renderer each player's frame."""
        wanted = []
        for name in self.names:
            if name in self.global_names:
                wanted.append(name)
            else:
                wanted.extend(self._own(p, name) for p in range(1, self.players + 1))
        return wanted

    def plugin_names(self):
        """Each player's reward and status, which the plugin adds with
        several players (docs/plugin.md, "Several players")."""
        if self.players == 1:
            return []
        return ["{}.{}".format(p, kind) for kind in ("REWARD", "STATUS")
                for p in range(1, self.players + 1)]

    def observation_space(self, float32):
        boxes = {name: _labenv_gym._box(self.spec[name], float32) for name in self.names}
        return boxes[self.names[0]] if self.single else _gym.spaces.Dict(boxes)

    def of_player(self, observed, player, form):
        """Player `player`'s observation from the Lab's dict `observed`."""
        def pick(name):
            key = name if name in self.global_names else self._own(player, name)
            return form(observed[key])
        if self.single:
            return pick(self.names[0])
        return {name: pick(name) for name in self.names}


class ParallelEnv(_pettingzoo.ParallelEnv):
    """A labenv level with several players behind PettingZoo's Parallel API.

    Args:
      level: a built-in level name or a path to a level script.
      players: how many players (the plugin's players setting).
      observations: each agent's observations, named without the player's
        number (a Dict space), or one name (that Box alone).
      config: other settings, str to str, as for labenv.Lab.
      render_mode: None or 'rgb_array'.
      action_set: None, 'dmlab_default' or a list of action vectors.
      frame_skip: frames each step repeats the actions (rewards summed).
      float32: doubles observations as float32.
    """

    metadata = {"render_modes": ["rgb_array"], "name": "labenv_v0", "is_parallelizable": True}

    def __init__(self, level, players=2, observations=(_RGB,), config=None, render_mode=None,
                 action_set=None, frame_skip=1, float32=False):
        self._frame_skip = _labenv_gym.checked_frame_skip(frame_skip)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(
                "render_mode must be None or 'rgb_array', got {!r}".format(render_mode))
        self.render_mode = render_mode
        players, config = _players_setting(players, config)
        self._layout, continuous = _Layout.of_level(level, players, config, observations)
        wanted = self._layout.lab_names() + self._layout.plugin_names()
        self._frames = ["{}.{}".format(p, _RGB) if players > 1 else _RGB
                        for p in range(1, players + 1)]
        if render_mode == "rgb_array":
            wanted += [name for name in self._frames if name not in wanted]
        self._lab = labenv.Lab(level, wanted, config)
        self._float32 = bool(float32)
        self.possible_agents = [_agent(p) for p in range(1, players + 1)]
        self.agents = []
        self.metadata = dict(self.metadata, render_fps=self._lab.fps() / self._frame_skip)
        observation_space = self._layout.observation_space(self._float32)
        action_space, self._table = self._layout.action_space(action_set, continuous)
        # PettingZoo asks for the same space object every time.
        self._observation_spaces = {a: observation_space for a in self.possible_agents}
        self._action_spaces = {a: action_space for a in self.possible_agents}
        self._observed = None
        self._np_random = np.random.default_rng()

    @property
    def lab(self):
        """The labenv.Lab underneath."""
        return self._lab

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def _form(self, array):
        if self._float32 and array.dtype == np.float64:
            return array.astype(np.float32)
        return array

    def _observe(self):
        self._observed = self._lab.observations()
        return {agent: self._layout.of_player(self._observed, p + 1, self._form)
                for p, agent in enumerate(self.possible_agents)}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        episode = -1 if not options else int(options.get("episode", -1))
        self._lab.reset(episode=episode, seed=int(self._np_random.integers(0, labenv.SEEDS)))
        self.agents = list(self.possible_agents)
        events = self._lab.events()
        return self._observe(), {agent: {"events": events} for agent in self.agents}

    def _engine_actions(self, actions):
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise ValueError("step() needs an action for every live agent; none for {}".format(
                missing))
        rows = []
        for agent in self.possible_agents:
            if agent not in self.agents:
                # Its part is over: the plugin holds it still whatever it gets.
                rows.append(np.zeros(self._layout.actions_each, dtype=np.intc))
                continue
            action = actions[agent]
            if self._table is not None:
                rows.append(action_sets.lookup(self._table, action))
            else:
                row = _labenv_gym._discrete(action)
                if row.shape != (self._layout.actions_each,):
                    raise ValueError("{}'s action has shape {}, not ({},)".format(
                        agent, row.shape, self._layout.actions_each))
                rows.append(row)
        return np.concatenate(rows).astype(np.intc, copy=False)

    def step(self, actions):
        if not self.agents:
            raise RuntimeError(
                "step() needs a running episode: call reset() first, and after it ended")
        total = self._lab.step(self._engine_actions(actions), self._frame_skip)
        live = list(self.agents)
        observed = self._observe()
        observations = {agent: observed[agent] for agent in live}
        status = self._lab.status()
        terminated, truncated = status == "terminated", status == "interrupted"
        rewards, terminations, truncations = {}, {}, {}
        for agent in live:
            player = self.possible_agents.index(agent) + 1
            if self._layout.players == 1:
                rewards[agent], own = float(total), 0
            else:
                rewards[agent] = float(self._observed["{}.REWARD".format(player)][0])
                own = int(self._observed["{}.STATUS".format(player)][0])
            terminations[agent] = own == 1 or (own == 0 and terminated)
            truncations[agent] = own == 2 or (own == 0 and truncated)
        events = self._lab.events()
        infos = {agent: {"events": events} for agent in live}
        self.agents = [agent for agent in live
                       if not (terminations[agent] or truncations[agent])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        """The players' frames side by side with render_mode='rgb_array'."""
        if self.render_mode is None:
            return None
        if self._observed is None:
            raise RuntimeError("render(): nothing to show before the first reset()")
        return np.concatenate([self._observed[name] for name in self._frames], axis=1)

    def close(self):
        self._lab.close()


def parallel_env(level, players=2, **kwargs):
    """A ParallelEnv of `level` with `players` players (see ParallelEnv)."""
    return ParallelEnv(level, players, **kwargs)


def env(level, players=2, **kwargs):
    """The same through PettingZoo's AEC API (its parallel_to_aec)."""
    return _conversions.parallel_to_aec(ParallelEnv(level, players, **kwargs))


from labenv._pettingzoo_vector import VectorLab  # noqa: E402  (uses the above)
