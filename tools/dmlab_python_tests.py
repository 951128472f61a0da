"""Runs DeepMind Lab's own python/tests against this project's deepmind_lab.

    ./lab python tools/dmlab_python_tests.py --lab=/path/to/deepmind/lab [TEST ...]

--lab is a DeepMind Lab checkout (its python/ and game_scripts/; nothing of
it enters this repository). Each test file runs in its own interpreter with
deepmind_lab's runfiles path set to the checkout, as DeepMind Lab's Bazel
runfiles would set it, and with the checkout on sys.path for its
`python.tests.utils`. Prints one row per test case (pass, fail or error,
with the first line of why) and a count per file, from absltest's JUnit XML.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

_RUN = """
import runpy, sys
import deepmind_lab
deepmind_lab.set_runfiles_path({lab!r})
sys.argv = [{test!r}, '--xml_output_file={xml}']
runpy.run_path({test!r}, run_name='__main__')
"""


def _why(element):
    """The first line of the exception's message (a Lua error's traceback
    follows it)."""
    text = (element.get("message") or element.text or "").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:200] if lines else element.tag


def run_file(lab, test, timeout):
    """[(case, outcome, why)] of one test file."""
    with tempfile.TemporaryDirectory() as scratch:
        xml = os.path.join(scratch, "result.xml")
        # TEST_TMPDIR: Bazel's test runner sets it, and the tests use it.
        env = dict(os.environ, TEST_TMPDIR=scratch, PYTHONPATH=os.pathsep.join(
            [lab, os.path.join(lab, "python"), os.environ.get("PYTHONPATH", "")]))
        try:
            result = subprocess.run(
                [sys.executable, "-c", _RUN.format(lab=lab, test=test, xml=xml)],
                capture_output=True, text=True, timeout=timeout, env=env, cwd=scratch)
        except subprocess.TimeoutExpired:
            return [("(file)", "error", "timed out after {} s".format(timeout))]
        if not os.path.exists(xml):
            lines = [line for line in result.stderr.splitlines() if line.strip()]
            return [("(file)", "error", lines[-1][:160] if lines else "no result")]
        rows = []
        for case in ElementTree.parse(xml).iter("testcase"):
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            outcome = "pass" if problem is None else problem.tag
            rows.append((case.get("name"), outcome, "" if problem is None else _why(problem)))
        return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", required=True, help="a DeepMind Lab checkout")
    parser.add_argument("--timeout", type=int, default=300, help="seconds a file may run")
    parser.add_argument("tests", nargs="*", help="test files (default: all of python/tests)")
    args = parser.parse_args()
    lab = os.path.abspath(args.lab)
    tests = args.tests or sorted(glob.glob(os.path.join(lab, "python", "tests", "*_test.py")))
    totals = {"pass": 0, "failure": 0, "error": 0}
    for test in tests:
        rows = run_file(lab, os.path.abspath(test), args.timeout)
        counts = {outcome: sum(row[1] == outcome for row in rows) for outcome in totals}
        for outcome, count in counts.items():
            totals[outcome] += count
        print("{}: {pass} passed, {failure} failed, {error} errors".format(
            os.path.basename(test), **counts))
        for case, outcome, why in rows:
            if outcome != "pass":
                print("  {} {}: {}".format(outcome, case, why))
        sys.stdout.flush()
    print("total: {pass} passed, {failure} failed, {error} errors".format(**totals))


if __name__ == "__main__":
    main()
