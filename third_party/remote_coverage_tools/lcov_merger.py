#!/usr/bin/env python3
"""Offline stand-in for Bazel 4's LcovMerger and CoverageOutputGenerator.

As :lcov_merger, collect_coverage.sh passes --coverage_dir, --output_file,
--filter_sources and --source_file_manifest: convert gcc's *.gcov.json.gz
(and merge any *.dat LCOV files) under the directory into one LCOV file.
As :coverage_report_generator, --reports_file lists LCOV files to merge.
"""
import collections
import glob
import gzip
import json
import os
import re
import sys

line_hits = collections.defaultdict(lambda: collections.defaultdict(int))
function_hits = collections.defaultdict(dict)  # file -> name -> [line, hits]


def add_function(source, name, line, hits):
    entry = function_hits[source].setdefault(name, [line, 0])
    entry[1] += hits


def read_gcov_json(path, filters, keep):
    with gzip.open(path, "rt") as handle:
        data = json.load(handle)
    for record in data.get("files", []):
        source = record["file"]
        if any(f.match(source) for f in filters) or (keep is not None and source not in keep):
            continue
        line_hits[source]
        for line in record.get("lines", []):
            line_hits[source][line["line_number"]] += line["count"]
        for fn in record.get("functions", []):
            add_function(source, fn["name"], fn["start_line"], fn["execution_count"])


def read_lcov(path):
    source, function_lines = None, {}
    for raw in open(path, errors="replace"):
        line = raw.strip()
        if line.startswith("SF:"):
            source, function_lines = line[3:], {}
            line_hits[source]
        elif source is None:
            continue
        elif line.startswith("DA:"):
            number, hits = line[3:].split(",")[:2]
            line_hits[source][int(number)] += int(float(hits))
        elif line.startswith("FN:"):
            number, name = line[3:].split(",", 1)
            function_lines[name] = int(number)
            add_function(source, name, int(number), 0)
        elif line.startswith("FNDA:"):
            hits, name = line[5:].split(",", 1)
            add_function(source, name, function_lines.get(name, 0), int(float(hits)))
        elif line == "end_of_record":
            source = None


def write_lcov(path):
    with open(path, "w") as out:
        for source in sorted(line_hits):
            out.write("SF:%s\n" % source)
            functions = sorted(function_hits[source].items(), key=lambda kv: kv[1][0])
            for name, (line, _) in functions:
                out.write("FN:%d,%s\n" % (line, name))
            for name, (_, hits) in functions:
                out.write("FNDA:%d,%s\n" % (hits, name))
            out.write("FNF:%d\nFNH:%d\n" % (len(functions), sum(1 for _, (_, h) in functions if h)))
            for line, hits in sorted(line_hits[source].items()):
                out.write("DA:%d,%d\n" % (line, hits))
            covered = sum(1 for hits in line_hits[source].values() if hits)
            out.write("LF:%d\nLH:%d\nend_of_record\n" % (len(line_hits[source]), covered))


def main(argv):
    options = collections.defaultdict(list)
    for arg in argv:
        if arg.startswith("--") and "=" in arg:
            key, value = arg[2:].split("=", 1)
            options[key].append(value)
    if not options["output_file"]:
        return 0
    filters = [re.compile(f) for f in options["filter_sources"]]
    keep = None
    for manifest in options["source_file_manifest"]:
        if os.path.exists(manifest):
            keep = {l.strip() for l in open(manifest) if l.strip()}
    for directory in options["coverage_dir"]:
        for path in glob.glob(os.path.join(directory, "**", "*.gcov.json.gz"), recursive=True):
            read_gcov_json(path, filters, keep)
        for path in glob.glob(os.path.join(directory, "**", "*.dat"), recursive=True):
            read_lcov(path)
    for reports in options["reports_file"]:
        for path in open(reports).read().split():
            if os.path.exists(path):
                read_lcov(path)
    write_lcov(options["output_file"][0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
