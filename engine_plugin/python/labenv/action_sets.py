"""labenv.action_sets: small discrete action sets over the maze's 7 actions.

DeepMind Lab's agents (IMPALA, scalable_agent) act through a handful of
moves instead of the raw 7-integer actions. Both adapters take one as
`action_set=`: 'dmlab_default' (DMLAB_DEFAULT below), or a list of
7-vectors of your own. The agent then picks an index: a Gymnasium
Discrete(n), a dm_env DiscreteArray(n).

The 7 actions, in order: LOOK_LEFT_RIGHT_PIXELS_PER_FRAME,
LOOK_DOWN_UP_PIXELS_PER_FRAME, STRAFE_LEFT_RIGHT, MOVE_BACK_FORWARD, FIRE,
JUMP, CROUCH.
"""

import numpy as np

# DeepMind Lab's default set, as its IMPALA agent uses it: 20 look pixels a
# frame turn 2 degrees.
DMLAB_DEFAULT = (
    (0, 0, 0, 1, 0, 0, 0),  # forward
    (0, 0, 0, -1, 0, 0, 0),  # backward
    (0, 0, -1, 0, 0, 0, 0),  # strafe left
    (0, 0, 1, 0, 0, 0, 0),  # strafe right
    (-20, 0, 0, 0, 0, 0, 0),  # look left
    (20, 0, 0, 0, 0, 0, 0),  # look right
    (-20, 0, 0, 1, 0, 0, 0),  # look left and forward
    (20, 0, 0, 1, 0, 0, 0),  # look right and forward
    (0, 0, 0, 0, 1, 0, 0),  # fire
)

NAMED = {"dmlab_default": DMLAB_DEFAULT}


def resolve(action_set, action_spec, continuous_spec=()):
    """The (n, k) int array of `action_set` for a level's discrete actions.

    Args:
      action_set: a name in NAMED, or a sequence of n action vectors.
      action_spec: the level's discrete action spec (labenv.Lab.action_spec()).
      continuous_spec: its continuous action spec; a level with continuous
        actions takes no action set.

    Raises ValueError naming what is wrong: an unknown name, a level without
    discrete actions or with continuous ones, an empty set, a vector of the
    wrong length, a value that is not an integer or lies outside its
    action's bounds.
    """
    if continuous_spec or not action_spec:
        raise ValueError(
            "action_set needs a level whose actions are all discrete (the maze's); this "
            "level has {} discrete and {} continuous".format(len(action_spec), len(continuous_spec))
        )
    if isinstance(action_set, str):
        if action_set not in NAMED:
            raise ValueError(
                "unknown action_set {!r}; the named sets are {}, or give a list of {}-vectors".format(
                    action_set, sorted(NAMED), len(action_spec)
                )
            )
        action_set = NAMED[action_set]
    table = np.asarray(action_set)
    width = len(action_spec)
    if table.ndim != 2 or table.shape[0] == 0 or table.shape[1] != width:
        raise ValueError(
            "action_set must be a non-empty list of {}-vectors (one per action: {}), got shape "
            "{}".format(width, ", ".join(spec["name"] for spec in action_spec), table.shape)
        )
    if table.dtype.kind not in "iu":
        if table.dtype.kind != "f" or not np.all(np.isfinite(table)) or np.any(table != np.round(table)):
            raise ValueError(
                "action_set holds {} values; the maze's actions are integers".format(table.dtype)
            )
    for column, spec in enumerate(action_spec):
        values = table[:, column]
        outside = (values < spec["min"]) | (values > spec["max"])
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            raise ValueError(
                "action_set[{}] sets {} to {}, outside its bounds [{}, {}]".format(
                    row, spec["name"], values[row], spec["min"], spec["max"]
                )
            )
    return table.astype(np.intc)


def lookup(table, index):
    """Row `index` of `table`, refusing anything but an integer in range."""
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        array = np.asarray(index)
        if array.shape != () or array.dtype.kind not in "iu":
            raise ValueError(
                "with an action set, an action is an integer index in [0, {}), got {!r}".format(
                    len(table), index
                )
            )
        index = array.item()
    if not 0 <= index < len(table):
        raise ValueError(
            "action index {} is outside the action set's [0, {})".format(index, len(table))
        )
    return table[index]
