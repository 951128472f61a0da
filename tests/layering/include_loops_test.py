"""No loop between the files of a layer: lua_api/, tensor/ and hosts/.

A file is its header and its source together (x.h with x.cc or x.cu); x
uses y when either includes y.h. A loop (x uses y and y uses x, or a
longer ring) means neither can be read, built or tested without the
other, as torch_index and torch_flavour once were (each called the
other's functions). The arguments are the files to check.
"""

import collections
import re
import sys
import unittest

INCLUDE = re.compile(r'^#include "([^"]+)\.h"', re.M)


def uses(paths):
    """{file: the files it uses}, files named by their path without suffix."""
    graph = collections.defaultdict(set)
    for path in paths:
        if not path.endswith((".h", ".cc", ".cu")):
            continue
        node = path.rsplit(".", 1)[0]
        graph[node]
        with open(path, encoding="utf-8") as source:
            for used in INCLUDE.findall(source.read()):
                if used != node:
                    graph[node].add(used)
    return graph


def loops(graph):
    """The strongly connected groups of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for used in graph.get(node, ()):
            if used not in graph:
                continue  # outside the files checked
            if used not in index:
                visit(used)
                low[node] = min(low[node], low[used])
            elif used in on_stack:
                low[node] = min(low[node], index[used])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for node in list(graph):
        if node not in index:
            visit(node)
    return found


class IncludeLoopsTest(unittest.TestCase):
    def test_the_checker_sees_a_loop(self):
        self.assertEqual(loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}),
                         [["a", "b", "c"]])
        self.assertEqual(loops({"a": {"b"}, "b": set()}), [])

    def test_no_loop_between_files(self):
        graph = uses(PATHS)
        self.assertGreater(len(graph), 100, "too few files given")
        self.assertEqual(loops(graph), [])


if __name__ == "__main__":
    PATHS = sys.argv[1:]
    unittest.main(argv=sys.argv[:1])
