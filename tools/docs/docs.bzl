"""doc_examples_test: compiles and runs the ```cpp examples of a Markdown file."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def doc_examples_test(name, doc, deps = []):
    source = name + "_examples.cc"
    native.genrule(
        name = name + "_extract",
        srcs = [doc],
        outs = [source],
        cmd = "/usr/bin/python3 $(location //tools/docs:extract_examples.py) $(location %s) $@" % doc,
        tools = ["//tools/docs:extract_examples.py"],
    )
    cc_test(
        name = name,
        srcs = [source],
        deps = deps + ["@com_google_googletest//:gtest_main"],
    )
