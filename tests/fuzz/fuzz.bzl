"""fuzz_target: a libFuzzer target that also replays its corpus as a test.

fuzz_target(name = "x", srcs = [...], deps = [...], data = [...]) defines
  x_fuzzer       under --config=fuzz (clang, -fsanitize=fuzzer,address,undefined):
                 the libFuzzer binary that `./lab fuzz x SECONDS` runs; in
                 the default build, the same code with replay_main, which
                 reruns the files given as arguments (a crash reproducer);
  x_corpus_test  a cc_test that replays every file of corpus/x/ (seeds and
                 crash reproducers alike) as one GoogleTest case each, in
                 every `./lab test` run, sanitizer runs included.
srcs define LLVMFuzzerTestOneInput.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def fuzz_target(name, srcs, deps = [], data = []):
    cc_library(
        name = name + "_input",
        srcs = srcs,
        deps = deps,
        # Under libFuzzer nothing but the fuzzer's main refers to it.
        alwayslink = True,
    )
    cc_binary(
        name = name + "_fuzzer",
        testonly = bool(data),
        data = data,
        deps = [":" + name + "_input"] + select({
            ":libfuzzer": [],
            "//conditions:default": [":replay_main"],
        }),
        linkopts = select({
            ":libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
    )
    cc_test(
        name = name + "_corpus_test",
        size = "small",
        # Tests run at the root of the workspace's runfiles.
        args = ["%s/corpus/%s" % (native.package_name(), name)],
        data = native.glob(["corpus/%s/**" % name]) + data,
        deps = [":" + name + "_input", ":replay_main"],
    )
