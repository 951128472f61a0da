"""labenv: the plugin from Python, on any of its hosts, with DeepMind Lab's API.

    import labenv
    lab = labenv.Lab('demo_maze', ['RGB_INTERLEAVED'], {'width': '84', 'height': '84'})
    lab.reset(seed=1)
    reward = lab.step(np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.intc))
    frame = lab.observations()['RGB_INTERLEAVED']  # zero-copy, read-only

- Lab: one engine instance, deepmind_lab.Lab's methods (change the import).
- VectorLab: n instances stepped together on C++ threads, batched.
- ObservationArray: the read-only numpy arrays observations come as; they
  alias engine buffers and export DLPack (torch.from_dlpack).
- DeviceObservation: an observation in GPU memory (observationDevice=cuda:N,
  Lab.device_observations()), for DLPack consumers only.
- levels(): the built-in levels this build runs, as (name, host) pairs.
- labenv.dm_env and labenv.gym: dm_env and Gymnasium adapters, imported on
  first use; each needs its package (dm-env; gymnasium 0.29.1 to 1.4) and
  raises ImportError naming it when it is missing. Where Gymnasium is
  installed, importing labenv registers each level as labenv/<level>-v0.
- labenv.distributed (import it; it needs Dask's `distributed`): a batch
  of environments spread over a Dask cluster.

See docs/python.md.
"""

import pkgutil

# The wheel's version too: hosts/python/BUILD's LABENV_VERSION, which
# tools/wheel/build_wheel.py checks against this line.
__version__ = "0.9.0"

# Bazel builds the extension (_labenv.so) into bazel-bin, beside a mirror of
# this folder. In Bazel's runfiles the two are merged; `./lab python` puts
# both folders on sys.path instead, and this lets the package span them.
__path__ = pkgutil.extend_path(__path__, __name__)

from labenv._labenv import (  # noqa: E402  (needs the __path__ above)
    LISTABLE,
    READ_WRITABLE,
    READABLE,
    WRITABLE,
    DeviceObservation,
    Lab,
    ObservationArray,
    VectorLab,
    levels,
)
from labenv import action_sets  # noqa: E402

# The seeds labenv draws for an episode lie in [0, SEEDS), as DeepMind
# Lab's (C's rand()): levels hand them to random:seed, which takes an
# integer that a Lua number holds exactly.
SEEDS = 2**31


def __getattr__(name):
    # labenv.gym and labenv.dm_env load their packages on first use, so that
    # Lab and VectorLab need neither.
    if name in ("gym", "dm_env"):
        import importlib

        return importlib.import_module("labenv." + name)
    raise AttributeError("module 'labenv' has no attribute {!r}".format(name))


try:
    import gymnasium  # noqa: F401
except ImportError:
    pass
else:
    from labenv import gym  # noqa: E402

    gym.register_levels()

__all__ = [
    "Lab",
    "VectorLab",
    "ObservationArray",
    "DeviceObservation",
    "READABLE",
    "WRITABLE",
    "READ_WRITABLE",
    "LISTABLE",
    "levels",
    "SEEDS",
    "action_sets",
    "dm_env",
    "gym",
]
