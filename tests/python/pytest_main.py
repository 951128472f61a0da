"""Runs pytest on the test files named in argv, for Bazel's py_test.

Bazel asks for JUnit XML in $XML_OUTPUT_FILE; ./lab test counts the test
cases from it (tools/ci/test_summary.py). Outside Bazel, run the files with
`./lab python -m pytest tests/python` instead.
"""

import os
import sys

import pytest

# Guarded: processes started with multiprocessing's spawn (Dask's workers,
# distributed_test.py) import this file again, as __mp_main__.
if __name__ == "__main__":
    arguments = sys.argv[1:] + ["-q", "-p", "no:cacheprovider"]
    xml = os.environ.get("XML_OUTPUT_FILE")
    if xml:
        arguments.append("--junitxml=" + xml)
    sys.exit(pytest.main(arguments))
