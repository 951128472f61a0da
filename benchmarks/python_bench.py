"""Steps per second of labenv against the C++ engine, and memory over a long run.

    ./lab python benchmarks/python_bench.py [--steps=20000] [--memory_steps=100000]

At 84x84 RGB on demo_maze (customObservations=false), with run_level's
random agent (a move held for 4 to 20 frames), it measures in one run:

  - C++: run_level -c opt, the engine alone (no observations read);
  - Lab + observations(): the zero-copy Python loop, every step;
  - Lab + copy: the same, each observation copied (np.array(copy=True)),
    as deepmind_lab does;
  - VectorLab with n = 2, 8, 32: total steps per second, and the same
    work done by n Labs in turn on one thread (its threading speed-up);
  - tracemalloc and RSS growth over --memory_steps Lab steps.

Each figure is the best of --rounds, taken in turns, and each Python figure
is reported as a ratio to the C++ one of the same run: ratios hold on a
noisy, shared machine, absolute figures do not. Run it with labenv built
-c opt (`./lab python` does).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import time
import tracemalloc

import numpy as np

import labenv

CONFIG = {"width": "84", "height": "84", "customObservations": "false"}
LEVEL = "demo_maze"
OBSERVATIONS = ["RGB_INTERLEAVED"]
TURN = 20
# run_level's RandomAgent moves: (look, strafe, move), forward favoured.
MOVES = [(0, 0, 1), (0, 0, 1), (-TURN, 0, 1), (TURN, 0, 1), (-TURN, 0, 0), (TURN, 0, 0),
         (0, -1, 0), (0, 1, 0), (0, 0, -1)]


class RandomAgent:
    """run_level's random agent: a random move held for 4 to 20 frames."""

    def __init__(self, seed):
        self._random = random.Random(seed)
        self._actions = [np.array([look, 0, strafe, move, 0, 0, 0], dtype=np.intc)
                         for look, strafe, move in MOVES]
        self._hold = 0
        self._current = self._actions[0]

    def __call__(self):
        if self._hold == 0:
            self._current = self._random.choice(self._actions)
            self._hold = self._random.randint(4, 20)
        self._hold -= 1
        return self._current


def cpp_steps_per_second(steps):
    """run_level's own figure, built -c opt."""
    quiet = ["--ui_event_filters=-info", "--noshow_progress"]
    subprocess.run(["bazel", "build", "-c", "opt"] + quiet + ["//hosts:run_level"],
                   check=True)
    bin_dir = subprocess.run(["bazel", "info", "-c", "opt", "bazel-bin"], check=True,
                             capture_output=True, text=True).stdout.strip()
    output = subprocess.run(
        [os.path.join(bin_dir, "hosts", "run_level"), "--level=" + LEVEL,
         "--steps=%d" % steps, "--seed=1", "--agent=random", "--width=84", "--height=84",
         "--setting=customObservations=false"],
        check=True, capture_output=True, text=True).stdout
    return float(re.search(r"steps_per_second ([0-9.]+)", output).group(1))


def lab_steps_per_second(steps, copy):
    lab = labenv.Lab(LEVEL, OBSERVATIONS, CONFIG)
    agent = RandomAgent(1)
    episode = 0
    lab.reset(episode=episode, seed=1)
    observations = lab.observations
    step = lab.step
    begin = time.perf_counter()
    for _ in range(steps):
        step(agent())
        if copy:
            observed = {name: np.array(value, copy=True) for name, value in observations().items()}
        else:
            observed = observations()
        if not lab.is_running():
            episode += 1
            lab.reset(episode=episode, seed=1 + episode)
    seconds = time.perf_counter() - begin
    del observed
    lab.close()
    return steps / seconds


def sequential_steps_per_second(n, steps):
    """VectorLab's work done by n Labs in turn on one thread: the same seeds
    (VectorLab's s + i + k * n), agents and observations, so the speed-up of
    VectorLab over it is its threading alone."""
    labs = [labenv.Lab(LEVEL, OBSERVATIONS, CONFIG) for _ in range(n)]
    agents = [RandomAgent(1 + i) for i in range(n)]
    episodes = [0] * n
    for i, lab in enumerate(labs):
        lab.reset(episode=0, seed=1 + i)
    rounds = max(1, steps // n)
    begin = time.perf_counter()
    for _ in range(rounds):
        for i, lab in enumerate(labs):
            if not lab.is_running():
                episodes[i] += 1
                lab.reset(episode=episodes[i], seed=1 + i + episodes[i] * n)
                continue
            lab.step(agents[i]())
            observed = lab.observations()
    seconds = time.perf_counter() - begin
    del observed
    for lab in labs:
        lab.close()
    return rounds * n / seconds


def vector_steps_per_second(n, steps):
    """Total env steps per second; each env gets its own random agent."""
    envs = labenv.VectorLab(n, LEVEL, OBSERVATIONS, CONFIG)
    agents = [RandomAgent(1 + i) for i in range(n)]
    envs.reset(seed=1)
    rounds = max(1, steps // n)
    actions = np.empty((n, 7), dtype=np.intc)
    begin = time.perf_counter()
    for _ in range(rounds):
        for i, agent in enumerate(agents):
            actions[i] = agent()
        observed, reward, terminated, truncated = envs.step(actions)
    seconds = time.perf_counter() - begin
    threads = envs.num_threads
    envs.close()
    return rounds * n / seconds, threads


def rss_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def memory_growth(steps):
    """tracemalloc and RSS after a warm-up tenth of the run, and at its end."""
    lab = labenv.Lab(LEVEL, OBSERVATIONS, CONFIG)
    agent = RandomAgent(2)
    episode = 0
    lab.reset(episode=episode, seed=2)
    tracemalloc.start()
    warm_up = steps // 10
    marks = {}
    for done in range(1, steps + 1):
        lab.step(agent())
        observed = lab.observations()
        if not lab.is_running():
            episode += 1
            lab.reset(episode=episode, seed=2 + episode)
        if done in (warm_up, steps):
            marks[done] = (tracemalloc.get_traced_memory()[0], rss_bytes())
    del observed
    tracemalloc.stop()
    frames = lab.read_property("engine.frameBuffersAllocated")
    lab.close()
    return marks[warm_up], marks[steps], frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--memory_steps", type=int, default=100000)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    steps = arguments.steps

    best = {}

    def keep(name, value):
        best[name] = max(best.get(name, 0.0), value)

    vector_threads = {}
    for round_index in range(arguments.rounds):
        print("round %d/%d" % (round_index + 1, arguments.rounds), file=sys.stderr)
        keep("cpp", cpp_steps_per_second(steps))
        keep("lab", lab_steps_per_second(steps, copy=False))
        keep("copy", lab_steps_per_second(steps, copy=True))
        for n in (2, 8, 32):
            value, vector_threads[n] = vector_steps_per_second(n, steps)
            keep("vector%d" % n, value)
            keep("sequential%d" % n, sequential_steps_per_second(n, steps))

    cpp = best["cpp"]
    print("84x84 RGB, %s, random agent, %d steps, best of %d rounds (%d CPUs)"
          % (LEVEL, steps, arguments.rounds, os.cpu_count()))
    print("%-34s %12s %10s" % ("", "steps/s", "ratio"))
    print("%-34s %12.0f %10s" % ("C++ run_level (engine only)", cpp, "1.00"))
    print("%-34s %12.0f %10.2f" % ("Lab + observations() (zero-copy)", best["lab"],
                                   best["lab"] / cpp))
    print("%-34s %12.0f %10.2f" % ("Lab + observations() + copy", best["copy"],
                                   best["copy"] / cpp))
    for n in (2, 8, 32):
        sequential = best["sequential%d" % n]
        print("%-34s %12.0f %10.2f" % ("n=%d Labs in turn, 1 thread" % n, sequential,
                                       sequential / cpp))
        name = "VectorLab n=%d (%d threads)" % (n, vector_threads[n])
        value = best["vector%d" % n]
        print("%-34s %12.0f %10.2f   x%.2f over the Labs in turn"
              % (name, value, value / cpp, value / sequential))
    print("zero-copy / copy: %.2f" % (best["lab"] / best["copy"]))

    (traced_start, rss_start), (traced_end, rss_end), frames = memory_growth(
        arguments.memory_steps)
    print("memory over %d Lab steps (from step %d to the end):"
          % (arguments.memory_steps, arguments.memory_steps // 10))
    print("  tracemalloc: %d -> %d bytes (%+d)" % (traced_start, traced_end,
                                                  traced_end - traced_start))
    print("  RSS: %.1f -> %.1f MiB (%+.2f MiB)" % (rss_start / 2**20, rss_end / 2**20,
                                                   (rss_end - rss_start) / 2**20))
    print("  engine frame buffers allocated: %s" % frames)


if __name__ == "__main__":
    main()
