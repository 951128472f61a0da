#!/usr/bin/python3
"""Count the test CASES of `bazel test` runs and print `N passed, N failed`.

Why this exists: Bazel 4 only counts test *targets* ("Executed 3 out of 9
tests: ..."), and its --test_summary=testcase line leaves out cached targets.
CI and people want the number of gtest cases, with each failure named, and a
last line that a script can read. The per-case truth is in each target's
JUnit XML (bazel-testlogs/<package>/<target>/test.xml); the build event
protocol (BEP) file says which targets this invocation built, tested, took
from the cache, skipped or failed to build, and where their test.xml files
are, so stale XML from earlier runs is never read.

Usage (./lab test does this):
    bazel test --keep_going --build_event_json_file=BEP //... ; rc=$?
    /usr/bin/python3 tools/ci/test_summary.py BEP --bazel-exit-code=$rc
Several runs (./lab test --full: the default build, then the sanitizers)
are summed, each given as a name, its BEP file and its bazel exit code:
    tools/ci/test_summary.py --run default BEP1 0 --run asan+ubsan BEP2 3
Each failure and skip then names its run ("[asan+ubsan] //x:y_test ..."),
each run gets its own count line, and the last line is the sum.

Counting rules:
  * every <testcase> in the XML of each (run, shard), last attempt only:
    failed if it has <failure> or <error>; skipped if it has <skipped> or
    status="notrun" or result="skipped"/"suppressed" (GTEST_SKIP, DISABLED_);
    passed otherwise;
  * a test target that failed to build, or that Bazel reports failed/timed
    out with no failing case in its XML (a crash before gtest wrote the XML,
    a sanitizer report at exit, a non-zero exit code), adds one failed case;
  * a non-test target that failed to build adds one failed case, so that the
    final line says "0 failed" exactly when the exit code is 0;
  * targets Bazel SKIPPED (incompatible, e.g. CUDA-only without
    --config=cuda) are counted as skipped, never as failed;
  * Bazel exit code 4 (no test targets) is a failure with a message; any
    other non-zero exit code that no target explains adds one failed case.

Skipped counts and each failure are printed first; the LAST line is always
exactly `N passed, N failed`. Exit status: 0 iff nothing failed and Bazel
exited 0. Stdlib only, so it runs before anything is built.
"""

import argparse
import collections
import json
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree

# Bazel's per-attempt test statuses that count as a pass.
PASSING_STATUSES = ("PASSED", "FLAKY")

# Characters XML 1.0 forbids; a crashed test's log, which Bazel copies into
# the test.xml it writes for it, may contain them.
_INVALID_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


class Tally:
    def __init__(self):
        self.passed = 0
        self.failures = []  # (target, what)
        self.skipped_cases = 0
        self.skipped_targets = []
        self.flaky = []  # (target, attempt that passed)

    def fail(self, target, what):
        self.failures.append((target, what))


def label_of(event_id):
    kind, fields = next(iter(event_id.items()))
    return kind, fields.get("label") if isinstance(fields, dict) else None


def read_bep(path):
    """Returns the facts this summary needs from a BEP JSON file."""
    test_targets = set()
    other_targets = set()
    completed = {}  # label -> "OK" | "FAILED_TO_BUILD" | aborted reason
    failure_message = {}  # label -> why it failed to build
    results = collections.defaultdict(dict)  # label -> (run, shard) -> attempt
    summary = {}  # label -> overallStatus
    exit_code = None
    pattern_errors = []
    with open(path, encoding="utf-8") as bep:
        for line in bep:
            line = line.strip()
            if not line:
                continue
            event = json.loads(line)
            kind, label = label_of(event["id"])
            if "aborted" in event:
                aborted = event["aborted"]
                reason = aborted.get("reason", "ABORTED")
                if label:
                    completed[label] = reason
                    failure_message[label] = aborted.get("description", "")
                elif kind == "pattern":
                    pattern_errors.append(aborted.get("description") or reason)
                continue
            if kind == "targetConfigured":
                configured = event.get("configured", {})
                if "testSize" in configured or configured.get(
                        "targetKind", "").endswith("_test rule"):
                    test_targets.add(label)
                else:
                    other_targets.add(label)
            elif kind == "targetCompleted":
                done = event.get("completed", {})
                if done.get("success"):
                    completed[label] = "OK"
                else:
                    completed[label] = "FAILED_TO_BUILD"
                    failure_message[label] = done.get("failureDetail", {}).get(
                        "message", "")
            elif kind == "testResult":
                fields = event["id"]["testResult"]
                key = (fields.get("run", 1), fields.get("shard", 1))
                attempt = fields.get("attempt", 1)
                previous = results[label].get(key)
                if previous is None or attempt > previous["attempt"]:
                    result = event.get("testResult", {})
                    outputs = {o.get("name"): o.get("uri")
                               for o in result.get("testActionOutput", [])}
                    results[label][key] = {
                        "attempt": attempt,
                        "status": result.get("status", "NO_STATUS"),
                        "xml": outputs.get("test.xml"),
                        "log": outputs.get("test.log"),
                    }
            elif kind == "testSummary":
                summary[label] = event.get("testSummary", {}).get(
                    "overallStatus", "NO_STATUS")
            elif kind == "buildFinished":
                exit_code = event.get("finished", {}).get("exitCode", {}).get(
                    "code", 0)
    test_targets |= set(summary) | set(results)
    return {
        "tests": test_targets,
        "others": other_targets - test_targets,
        "completed": completed,
        "failure_message": failure_message,
        "results": results,
        "summary": summary,
        "exit_code": exit_code,
        "pattern_errors": pattern_errors,
    }


def path_of(uri):
    if not uri:
        return None
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme not in ("", "file"):
        return None
    return urllib.parse.unquote(parsed.path)


def parse_xml(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return ElementTree.fromstring(_INVALID_XML_CHARS.sub("?", text))


def is_bazel_generated(case, label):
    """Bazel writes a one-case test.xml when the test binary wrote none."""
    package, _, name = label.lstrip("/").partition(":")
    return case.get("name") == "%s/%s" % (package, name) and case.get(
        "classname") is None


def count_attempt(label, key, attempt, runs, shards, tally):
    status = attempt["status"]
    where = label
    if runs > 1:
        where += " (run %d)" % key[0]
    if shards > 1:
        where += " (shard %d)" % key[1]
    if attempt["attempt"] > 1 and status in PASSING_STATUSES:
        tally.flaky.append((where, attempt["attempt"]))
    xml_path = path_of(attempt["xml"])
    root = None
    if xml_path and os.path.exists(xml_path):
        try:
            root = parse_xml(xml_path)
        except (OSError, ElementTree.ParseError) as error:
            tally.fail(where, "%s; unreadable test.xml: %s" % (status, error))
            return
    if root is None:
        if status in PASSING_STATUSES:
            tally.passed += 1
        else:
            tally.fail(where, "%s without a test.xml" % status)
        return
    failed_here = 0
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        if case.get("classname"):
            name = "%s.%s" % (case.get("classname"), name)
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            failed_here += 1
            if is_bazel_generated(case, label):
                detail = problem.get("message") or status
                if status == "TIMEOUT":
                    detail = "TIMEOUT (%s)" % detail
                tally.fail(where, "%s before writing its own test.xml" % detail)
            else:
                tally.fail(where, name)
        elif (case.find("skipped") is not None or
              case.get("status") == "notrun" or
              case.get("result") in ("skipped", "suppressed")):
            tally.skipped_cases += 1
        else:
            tally.passed += 1
    if failed_here == 0 and status not in PASSING_STATUSES:
        # Every case passed but the binary still failed: a sanitizer report
        # at exit, a crash in a destructor, a non-zero return from main.
        tally.fail(where, "%s although no test case failed (see its test.log: %s)"
                   % (status, path_of(attempt["log"]) or "?"))


def summarise(bep, bazel_exit_code):
    tally = Tally()
    built_badly = 0  # failures that explain Bazel's exit code 1
    for label in sorted(bep["tests"]):
        completed = bep["completed"].get(label)
        attempts = bep["results"].get(label)
        if completed == "SKIPPED":
            tally.skipped_targets.append(label)
        elif attempts:
            runs = len({run for run, _ in attempts})
            shards = len({shard for _, shard in attempts})
            for key in sorted(attempts):
                count_attempt(label, key, attempts[key], runs, shards, tally)
        elif completed == "FAILED_TO_BUILD":
            built_badly += 1
            tally.fail(label, "failed to build")
        else:
            built_badly += 1
            status = bep["summary"].get(label) or completed or "NO_STATUS"
            tally.fail(label, "did not build or run (%s)" % status)
    for label in sorted(bep["others"]):
        completed = bep["completed"].get(label)
        if completed == "SKIPPED":
            continue  # Not a test; nothing to report.
        if completed not in (None, "OK"):
            built_badly += 1
            tally.fail(label, "failed to build (not a test)")
    for error in bep["pattern_errors"]:
        built_badly += 1
        tally.fail("(target pattern)", error)
    if bazel_exit_code is None:
        bazel_exit_code = bep["exit_code"]
    if bazel_exit_code == 4:
        tally.fail("(bazel)", "no test targets were found (exit code 4)")
    elif bazel_exit_code == 1 and not built_badly:
        # A BUILD file that does not load leaves no trace in the BEP file
        # beyond the exit code, even with --keep_going.
        tally.fail("(bazel)", "build failed (exit code 1) outside any target "
                   "listed here, e.g. a BUILD file that does not load; see "
                   "the ERROR lines above")
    elif bazel_exit_code == 3 and not tally.failures:
        tally.fail("(bazel)", "reported failed tests (exit code 3)")
    elif bazel_exit_code not in (0, 1, 3, None):
        tally.fail("(bazel)", "exited with code %d; see its errors above"
                   % bazel_exit_code)
    return tally, bazel_exit_code


def plural(n, noun):
    return "%d %s%s" % (n, noun, "" if n == 1 else "s")


def summarise_run(path, bazel_exit_code, prefix):
    """Prints one run's skips, flakes and failures; returns (tally, ok)."""
    try:
        bep = read_bep(path)
    except (OSError, ValueError) as error:
        tally = Tally()
        tally.fail(prefix + "(test_summary)", "cannot read %s: %s" % (path, error))
        print("FAILED   %s" % "  ".join(tally.failures[0]))
        return tally, False
    tally, bazel_exit_code = summarise(bep, bazel_exit_code)
    for label in tally.skipped_targets:
        print("SKIPPED  %s%s (not built for this configuration)" % (prefix, label))
    for target, attempt in tally.flaky:
        print("FLAKY    %s%s (passed on attempt %d; counted as passed)"
              % (prefix, target, attempt))
    for target, what in tally.failures:
        print("FAILED   %s%s  %s" % (prefix, target, what))
    return tally, not tally.failures and bazel_exit_code in (0, None)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bep", nargs="?",
                        help="file written by --build_event_json_file")
    parser.add_argument("--bazel-exit-code", type=int, default=None,
                        help="exit code of the bazel test command")
    parser.add_argument("--run", nargs=3, action="append", default=[],
                        metavar=("NAME", "BEP", "EXIT_CODE"),
                        help="one of several runs to sum (instead of BEP)")
    args = parser.parse_args(argv)
    if (args.bep is None) == (not args.run):
        parser.error("give either BEP or one or more --run NAME BEP EXIT_CODE")
    runs = [(None, args.bep, args.bazel_exit_code)]
    if args.run:
        try:
            runs = [(name, path, int(code)) for name, path, code in args.run]
        except ValueError as error:
            parser.error("--run: EXIT_CODE must be an integer (%s)" % error)

    passed = failed = skipped_cases = skipped_targets = 0
    all_ok = True
    for name, path, bazel_exit_code in runs:
        tally, ok = summarise_run(path, bazel_exit_code,
                                  "[%s] " % name if name else "")
        all_ok = all_ok and ok
        passed += tally.passed
        failed += len(tally.failures)
        skipped_cases += tally.skipped_cases
        skipped_targets += len(tally.skipped_targets)
        if name:
            print("%s: %d passed, %d failed" % (name, tally.passed,
                                                len(tally.failures)))
    if skipped_cases + skipped_targets:
        print("%d skipped (%s, %s)" % (
            skipped_cases + skipped_targets,
            plural(skipped_cases, "test case"),
            plural(skipped_targets, "target")))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
