"""deepmind_lab: DeepMind Lab's own Python module, over labenv.

Agents written for DeepMind Lab import this instead of DeepMind's build and
run unchanged:

    import deepmind_lab
    env = deepmind_lab.Lab('demo_maze', ['RGB_INTERLEAVED'],
                           config={'width': '84', 'height': '84'})
    env.reset(seed=1)
    reward = env.step(np.zeros(7, dtype=np.intc), num_steps=4)

- Lab(level, observations, config=None, renderer='software',
  level_cache=None): a labenv.Lab, so every method DeepMind Lab's has
  (reset, step with num_steps, observations, observation_spec,
  action_spec, events, is_running, num_steps, close, write_property,
  read_property, properties) behaves as there; labenv adds a few (fps,
  status, continuous_action_spec).
- `level` is looked up as DeepMind Lab looks it up, under the runfiles
  path's game_scripts/levels (or the `levelDirectory` setting, relative to
  that folder), when set_runfiles_path() names a DeepMind Lab checkout or
  runfiles tree; the level then runs with that game_scripts as its
  gameScriptsDirectory. Otherwise, and for a name not found there, it is
  one of labenv's built-in levels (labenv.levels()) or a path.
- version(), runfiles_path(), set_runfiles_path(path), and the property
  flags READABLE, WRITABLE, READ_WRITABLE, LISTABLE, as in DeepMind Lab.
- With DMLAB_LIBRARY naming DeepMind Lab's engine built by `./lab dmlab`,
  levels run on that engine (the dmlab host: docs/dmlab.md), unless
  `config` names another host; there the engine's own display and log
  settings (logToStdErr, minimalUI, ...) reach it.
- temp_folder= is the dmlab host's dmlabTempFolder; elsewhere it is
  accepted and checked (the other hosts write no files).
- Settings DeepMind Lab's own engine consumes (playerName, use_pbos,
  logToStdErr, ...: _ENGINE_ONLY) are accepted and dropped; appendCommand
  only at its default (''), refused otherwise. mixerSeed is the plugin's
  (docs/levels.md), as DeepMind Lab's: it never reaches the level.

Which of DeepMind Lab's levels run here, and which of its python/tests
pass, is in docs/python.md.
"""

import os

import labenv
from labenv import LISTABLE, READ_WRITABLE, READABLE, WRITABLE  # noqa: F401  (properties)

_VERSION = "1.0"  # DeepMind Lab's DEEPMIND_LAB_WRAPPER_VERSION

# Settings DeepMind Lab's Quake III engine consumes itself (its
# dmlab_connect.c) and never hands a level, which mean nothing on
# labenv's hosts: how it renders, logs, records, serves and caches. They
# are accepted and dropped, so that they do not reach a level's init (whose
# settings decorator refuses names it does not know).
_ENGINE_ONLY = frozenset([
    "server", "client", "port", "serverPort", "vmMode", "logToStdErr", "minimalUI",
    "reducedUI", "nativeApp", "record", "demo", "video", "demofiles", "use_pbos",
    "gpuDeviceIndex", "playerName", "hasAltCameras", "maxAltCameraWidth",
    "maxAltCameraHeight", "localLevelCache", "globalLevelCache", "levelDirectory",
])
# Those the dmlab host hands DeepMind Lab's engine (hosts/dmlab/dmlab_host.h).
_DMLAB_ENGINE = frozenset([
    "logToStdErr", "minimalUI", "reducedUI", "vmMode", "appendCommand", "playerName", "use_pbos",
    "hasAltCameras", "maxAltCameraWidth", "maxAltCameraHeight",
])
# DeepMind Lab's engine settings that would change the game: accepted at
# their defaults only, refused otherwise rather than silently ignored.
_DEFAULT_ONLY = {"appendCommand": ""}


def _engine_settings(config):
    """`config` without DeepMind Lab's engine-only settings; RuntimeError
    for one that would change the game here."""
    if not isinstance(config, dict):
        return config  # labenv names the bad type
    kept = {}
    for key, value in config.items():
        if key in _DEFAULT_ONLY:
            if value != _DEFAULT_ONLY[key]:
                raise RuntimeError(
                    "Failed to apply setting '{} = {}' - DeepMind Lab's engine setting {} is "
                    "supported here at its default {!r} only".format(
                        key, value, key, _DEFAULT_ONLY[key]))
        elif key not in _ENGINE_ONLY:
            kept[key] = value
    return kept
_runfiles = os.path.dirname(os.path.abspath(__file__))


def version():
    """The module's version, as DeepMind Lab's reports it."""
    return _VERSION


def runfiles_path():
    """Where levels and game scripts are looked up (set_runfiles_path)."""
    return _runfiles


def set_runfiles_path(path):
    """Looks levels up under `path`: a DeepMind Lab checkout (its
    game_scripts/) or runfiles tree (baselab/game_scripts/)."""
    global _runfiles
    if not isinstance(path, str):
        raise TypeError("set_runfiles_path takes a str, got {}".format(type(path).__name__))
    _runfiles = os.path.abspath(path)


def _game_scripts():
    for scripts in (os.path.join(_runfiles, "baselab", "game_scripts"),
                    os.path.join(_runfiles, "game_scripts")):
        if os.path.isdir(os.path.join(scripts, "levels")):
            return scripts
    return None


class Lab(labenv.Lab):
    """DeepMind Lab's Lab over labenv (see the module's docstring)."""

    def __init__(self, level, observations, config=None, renderer="software",
                 level_cache=None, temp_folder=None):
        # DeepMind Lab's engine writes compiled maps and logs under
        # temp_folder: so does the dmlab host's (dmlabTempFolder); the other
        # hosts write no files, so there it is only checked.
        if temp_folder is not None and not isinstance(temp_folder, str):
            raise TypeError("temp_folder must be str, not {}".format(type(temp_folder).__name__))
        scripts = _game_scripts()
        if scripts is not None and isinstance(level, str) and isinstance(config, (dict, type(None))):
            directory = (config or {}).get("levelDirectory") or ""
            if not isinstance(directory, str):
                directory = ""  # labenv's check below names the bad value
            path = os.path.join(scripts, "levels", directory, level + ".lua")
            if os.path.isfile(path):
                level = path
                config = dict(config or {})
                config.setdefault("gameScriptsDirectory", scripts)
        # With DeepMind Lab's engine built (./lab dmlab) and named by
        # DMLAB_LIBRARY, levels run on it (the dmlab host, docs/dmlab.md).
        library = os.environ.get("DMLAB_LIBRARY")
        if library and isinstance(config, (dict, type(None))) and "host" not in (config or {}):
            config = dict(config or {})
            config["host"] = "dmlab"
            config.setdefault("dmlabLibrary", library)
        if isinstance(config, dict) and config.get("host") == "dmlab":
            # DeepMind Lab's engine takes its own settings itself.
            kept = {key: value for key, value in config.items() if key in _DMLAB_ENGINE}
            if temp_folder is not None:
                kept["dmlabTempFolder"] = temp_folder
            config = dict(_engine_settings(config), **kept)
        else:
            config = _engine_settings(config)
        super().__init__(level, observations, config, renderer, level_cache)
