"""labenv's wheel in a fresh virtual environment, outside the repository,
with no Bazel on PATH: pip installs it (with Gymnasium, from the package
index or pip's cache), and a program there imports labenv and deepmind_lab,
makes a registered maze level with gymnasium.make and steps a MuJoCo level.
The extension finds the libraries it links (Lua, MuJoCo, OSMesa, ...) in
the wheel, not in the system.
"""

import os
import shutil
import subprocess


PROGRAM = r"""
import os, sys
import numpy as np
import gymnasium
import labenv
import deepmind_lab

assert labenv.__file__.startswith(sys.prefix), labenv.__file__
assert deepmind_lab.Lab.__mro__[1] is labenv.Lab
env = gymnasium.make("labenv/demo_maze-v0", config={"width": "32", "height": "24"},
                     max_episode_steps=5)
observations, _ = env.reset(seed=0)
assert observations["RGB_INTERLEAVED"].shape == (24, 32, 3)
for _ in range(5):
    *_, truncated, _ = env.step(env.action_space.sample())
assert truncated
lab = labenv.Lab("cartpole_balance", ["QPOS"], {"width": "32", "height": "24"})
lab.reset(seed=1)
reward = lab.step(np.array([0.5]))
assert 0 <= reward <= 1 and lab.observations()["QPOS"].shape == (2,)
print("wheel ok", labenv.__version__)
"""

# Libraries a manylinux wheel may take from the system; every other one the
# extension links must resolve into the wheel's labenv.libs/.
_SYSTEM = ("linux-vdso", "libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
           "libstdc++.so", "libgcc_s.so", "ld-linux", "/lib64/ld-linux", "libz.so", "libexpat.so")


def _linked(extension, env):
    """{library: where it resolves} for `extension`, by ldd."""
    output = subprocess.run(["/usr/bin/ldd", extension], env=env, capture_output=True,
                            text=True, check=True).stdout
    linked = {}
    for line in output.splitlines():
        name, _, where = line.strip().partition(" => ")
        linked[name.split()[0]] = where.split(" (")[0]
    return linked


def _wheel():
    """The wheel Bazel built (LABENV_WHEEL, under the runfiles)."""
    return os.path.abspath(os.environ["LABENV_WHEEL"])


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    home = tmp_path / "venv"
    # Debian's interpreter, as a user's venv would be; never the test's own.
    subprocess.run(["/usr/bin/python3", "-m", "venv", str(home)], check=True)
    bin_dir = str(home / "bin")
    env = {"PATH": bin_dir, "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    # pip's cache (./lab sets it; .bazelrc passes it on): fetched once.
    if os.environ.get("PIP_CACHE_DIR"):
        env["PIP_CACHE_DIR"] = os.environ["PIP_CACHE_DIR"]
    assert shutil.which("bazel", path=env["PATH"]) is None
    install = subprocess.run(
        [os.path.join(bin_dir, "pip"), "install", "-q", "--disable-pip-version-check",
         _wheel() + "[gymnasium]"], env=env, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    run = subprocess.run([os.path.join(bin_dir, "python"), "-c", PROGRAM], env=env,
                         cwd=str(tmp_path), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "wheel ok" in run.stdout
    extension = subprocess.run(
        [os.path.join(bin_dir, "python"), "-c", "import labenv._labenv as e; print(e.__file__)"],
        env=env, cwd=str(tmp_path), capture_output=True, text=True, check=True).stdout.strip()
    linked = _linked(extension, env)
    for wanted in ("liblua5", "libmujoco", "libOSMesa", "libopenblas", "libpng16"):
        found = [name for name in linked if name.startswith(wanted)]
        assert found, "{} is not linked: {}".format(wanted, sorted(linked))
    outside = {name: where for name, where in linked.items()
               if "labenv.libs" not in where and not name.startswith(_SYSTEM)}
    assert not outside, "libraries from outside the wheel: {}".format(outside)
