#!/usr/bin/env python3
"""Extracts the ```cpp blocks of a Markdown file into one test source.

Usage: extract_examples.py DOC.md OUT.cc

Each block becomes the body of its own GoogleTest case, so every example in
the documentation is compiled and run by `./lab test`. A block may use
ASSERT_*/EXPECT_* to state what it shows. Lines of a block that start with
`#include` are hoisted to the top of the file. A block whose first line is
`// At file scope.` is not a case: it goes before the cases, as written
(a class, a function the cases use).
"""
import re
import sys


def main(doc_path, out_path):
    text = open(doc_path).read()
    blocks = re.findall(r"```cpp\n(.*?)```", text, re.S)
    if not blocks:
        sys.exit("%s has no ```cpp examples" % doc_path)
    includes, file_scope, bodies = [], [], []
    for block in blocks:
        body = []
        for line in block.splitlines():
            (includes if line.startswith("#include") else body).append(line)
        (file_scope if body and body[0] == "// At file scope." else bodies).append(body)
    with open(out_path, "w") as out:
        out.write("// Generated from %s by tools/docs/extract_examples.py.\n" % doc_path)
        for line in sorted(set(includes)) + ['#include "gtest/gtest.h"']:
            out.write(line + "\n")
        out.write("\nnamespace {\nusing namespace ::tensor;\n\n")
        for body in file_scope:
            out.write("".join("%s\n" % line for line in body[1:]) + "\n")
        for number, body in enumerate(bodies, 1):
            out.write("TEST(DocExample, Example%d) {\n" % number)
            out.write("".join("  %s\n" % line if line else "\n" for line in body))
            out.write("}\n\n")
        out.write("}  // namespace\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
