"""Runs every DeepMind Lab level script on the dmlab host for a whole
episode and prints a Markdown table: whether it runs, its steps, its
return under a random walk, and its steps per second (docs/dmlab.md).

    ./lab dmlab --lab=DIR
    ./lab python tools/dmlab/run_levels.py [--dmlab=.dmlab] [--max_steps=20000] [LEVEL...]

LEVEL is a path below game_scripts/levels/ without '.lua'
(contributed/dmlab30/explore_goal_locations_small); by default, all of
them. Each level runs in a process of its own, so that one that ends its
process (the engine does on some errors) costs only its row.
"""

import argparse
import multiprocessing
import os
import time

import numpy as np


def run_level(args):
    """One episode of `level`: ('runs', steps, return, fps) or ('error', message)."""
    level, dmlab, max_steps, seed = args
    import labenv  # pylint: disable=import-outside-toplevel

    scripts = os.path.join(dmlab, "run", "baselab", "game_scripts")
    # allowHoldOutLevels: the evaluation levels refuse to run without it;
    # this runs every level, as an evaluation does.
    config = {"host": "dmlab", "dmlabLibrary": os.path.join(dmlab, "libdmlab_engine.so"),
              "gameScriptsDirectory": scripts, "width": "84", "height": "84",
              "allowHoldOutLevels": "true"}
    try:
        lab = labenv.Lab(os.path.join(scripts, "levels", level + ".lua"), ["RGB_INTERLEAVED"],
                         config)
        lab.reset(seed=seed)
        rng = np.random.default_rng(seed)
        # The engine's seven, then the level's own (left at 0).
        action = np.zeros(len(lab.action_spec()), np.intc)
        total, steps = 0.0, 0
        began = time.perf_counter()
        while lab.is_running() and steps < max_steps:
            if steps % 8 == 0:
                action[:] = 0
                action[0] = rng.integers(-30, 31)
                action[3] = 1 if rng.random() < 0.8 else -1
                action[2] = rng.integers(-1, 2)
            total += lab.step(action)
            lab.observations()
            steps += 1
        seconds = time.perf_counter() - began
        ended = "ended" if not lab.is_running() else "cut at %d" % max_steps
        lab.close()
        return ("runs", steps, total, steps / seconds if seconds > 0 else 0.0, ended)
    except Exception as error:  # pylint: disable=broad-except
        return ("error", str(error).splitlines()[0][:160])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dmlab", default=".dmlab", help="what ./lab dmlab made")
    parser.add_argument("--max_steps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("levels", nargs="*")
    flags = parser.parse_args()
    dmlab = os.path.abspath(flags.dmlab)
    root = os.path.join(dmlab, "run", "baselab", "game_scripts", "levels")
    levels = flags.levels or sorted(
        os.path.relpath(os.path.join(folder, name), root)[:-len(".lua")]
        for folder, _, names in os.walk(root) for name in names
        # factories/ below levels/ hold the levels' makers, not levels.
        if name.endswith(".lua") and "factories" not in os.path.relpath(folder, root).split(os.sep))
    print("| Level | Result | Steps | Return | Steps/s |")
    print("|---|---|---|---|---|")
    counts = {"runs": 0, "error": 0, "crashed": 0}
    context = multiprocessing.get_context("spawn")
    for level in levels:
        with context.Pool(1) as pool:
            pending = pool.apply_async(run_level, ((level, dmlab, flags.max_steps, flags.seed),))
            try:
                result = pending.get(timeout=600)
            except multiprocessing.TimeoutError:
                result = ("error", "timed out after 600 s")
            except Exception as error:  # pylint: disable=broad-except
                result = ("crashed", str(error)[:160])
        if result[0] == "runs":
            _, steps, total, fps, ended = result
            print("| %s | runs (%s) | %d | %g | %.0f |" % (level, ended, steps, total, fps),
                  flush=True)
        else:
            print("| %s | %s: %s | | | |" % (level, result[0], result[1].replace("|", "/")),
                  flush=True)
        counts[result[0]] += 1
    print("\n%d levels: %d run, %d errors, %d crashed" % (
        len(levels), counts["runs"], counts["error"], counts["crashed"]))


if __name__ == "__main__":
    main()
