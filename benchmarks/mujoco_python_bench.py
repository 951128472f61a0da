"""Steps per second of labenv on the MuJoCo host against the C++ loops.

    ./lab python benchmarks/mujoco_python_bench.py [--steps=20000] [--rounds=5]

On cartpole_balance (its reward in Lua every control step), with
mujoco_benchmark's control (0.5 sin(0.1 step)), it measures in one run, in turns:

  - C++ raw: mujoco_benchmark's Raw/skip:1, MuJoCo alone (mj_step);
  - C++ plugin: its Plugin/skip:1, the same level through the plugin;
  - labenv: Lab.step(u) with QPOS and QVEL read every step;
  - labenv + RGB: the same, with an 84x84 RGB_INTERLEAVED frame too.

Each figure is the best of --rounds; the Python figures are reported as
ratios to the C++ ones of the same run (ratios hold on a noisy machine).
Needs //benchmarks:mujoco_benchmark built -c opt (the script builds it).
"""

import argparse
import os
import re
import subprocess
import time

import numpy as np

import labenv

LEVEL = "cartpole_balance"


def cpp_steps_per_second(binary, name):
    """Steps per second of one mujoco_benchmark case (CPU time)."""
    output = subprocess.run(
        [binary, "--benchmark_filter=^%s$" % name, "--benchmark_min_time=1"],
        check=True, capture_output=True, text=True,
    ).stdout
    match = re.search(r"^%s\s+[\d.]+ ns\s+([\d.]+) ns" % re.escape(name), output, re.M)
    return 1e9 / float(match.group(1))


def labenv_steps_per_second(steps, observations):
    lab = labenv.Lab(LEVEL, observations)
    controls = [np.array([0.5 * np.sin(0.1 * step)]) for step in range(steps)]
    lab.reset(seed=1)
    started = time.process_time()
    for control in controls:
        if not lab.is_running():
            lab.reset(seed=1)
        lab.step(control)
        observed = lab.observations()
        for name in observations:
            observed[name]
    return steps / (time.process_time() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["bazel", "build", "-c", "opt", "//benchmarks:mujoco_benchmark"],
                   cwd=root, check=True, capture_output=True)
    binary = os.path.join(root, "bazel-bin", "benchmarks", "mujoco_benchmark")
    best = {}
    for _ in range(args.rounds):
        for name, measure in [
            ("C++ raw", lambda: cpp_steps_per_second(binary, "Raw/skip:1")),
            ("C++ plugin", lambda: cpp_steps_per_second(binary, "Plugin/skip:1")),
            ("labenv", lambda: labenv_steps_per_second(args.steps, ["QPOS", "QVEL"])),
            ("labenv + RGB", lambda: labenv_steps_per_second(
                args.steps // 20, ["QPOS", "QVEL", "RGB_INTERLEAVED"])),
        ]:
            best[name] = max(best.get(name, 0), measure())
    raw = best["C++ raw"]
    print("%-14s %12s %10s" % ("", "steps/s", "vs C++ raw"))
    for name, value in best.items():
        print("%-14s %12.0f %10.2f" % (name, value, value / raw))
    print("labenv vs C++ plugin: %.2f" % (best["labenv"] / best["C++ plugin"]))


if __name__ == "__main__":
    main()
