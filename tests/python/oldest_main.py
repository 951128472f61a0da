"""Runs test files under the oldest Gymnasium labenv supports.

Bazel's py_test runs this in the project's venv; it runs pytest on the
files named in argv in .venv-oldest's interpreter (OLDEST_PYTHON: Gymnasium
0.29.1, numpy 1.26), with labenv from the runfiles on its path, and JUnit
XML where Bazel asks for it.
"""

import os
import subprocess
import sys

if __name__ == "__main__":
    arguments = [os.environ["OLDEST_PYTHON"], "-m", "pytest"] + sys.argv[1:] + [
        "-q", "-p", "no:cacheprovider"]
    xml = os.environ.get("XML_OUTPUT_FILE")
    if xml:
        arguments.append("--junitxml=" + xml)
    # The runfiles' entries only: not this venv's packages, nor the stdlib.
    installed = (sys.prefix, sys.base_prefix)
    path = os.pathsep.join(entry for entry in sys.path
                           if entry and not entry.startswith(installed))
    sys.exit(subprocess.run(arguments, env=dict(os.environ, PYTHONPATH=path)).returncode)
