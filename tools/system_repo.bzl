"""Repository rules that expose Debian's installed libraries to Bazel.

system_repo symlinks only the listed folders (never all of /usr/include):
Bazel adds `-iquote external/<repo>` for each dependency, and glibc's own
`#include "linux/close_range.h"` would otherwise resolve into the repository
and break unsandboxed builds with "undeclared inclusion(s)".
"""

def _system_repo_impl(rctx):
    for name, source in rctx.attr.symlinks.items():
        if not rctx.path(source).exists:
            if rctx.attr.optional:
                continue
            fail("system_repo %s: %s is missing (run ./lab setup to install the -dev package)" %
                 (rctx.name, source))
        rctx.symlink(source, name)
    rctx.symlink(rctx.attr.build_file, "BUILD.bazel")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)

system_repo = repository_rule(
    implementation = _system_repo_impl,
    attrs = {
        "symlinks": attr.string_dict(doc = "repository-relative name -> absolute system path"),
        "build_file": attr.label(allow_single_file = True, mandatory = True),
        "optional": attr.bool(default = False, doc = "skip missing paths instead of failing"),
    },
    local = True,
)

_PYTHON_BUILD = """
load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

package(default_visibility = ["//visibility:public"])

# Headers for extension modules. Extensions never link libpython.
cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
)

cc_library(
    name = "numpy_headers",
    hdrs = glob(["numpy_include/numpy/**/*.h"]),
    includes = ["numpy_include"],
    deps = [":python_headers"],
)

# py_binary and py_test run the project's virtual environment. The stub
# runs under Debian's python3 (Debian has no `python` for the default
# shebang) and starts the venv's interpreter, which finds its packages.
py_runtime(
    name = "venv_py3",
    interpreter_path = "%s",
    python_version = "PY3",
    stub_shebang = "#!/usr/bin/python3",
)

py_runtime_pair(
    name = "venv_py_pair",
    py3_runtime = ":venv_py3",
)

toolchain(
    name = "toolchain",
    toolchain = ":venv_py_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)
"""

def _python_repo_impl(rctx):
    workspace = rctx.path(Label("@//:WORKSPACE")).dirname
    interpreter = "%s/%s/bin/python3" % (workspace, rctx.attr.venv)
    if not rctx.path(interpreter).exists:
        fail("python_repo: %s is missing (./lab makes the virtual environment)" % interpreter)
    result = rctx.execute([
        interpreter,
        "-c",
        "import os, platform, sys, sysconfig, numpy; print(sysconfig.get_paths()['include']); " +
        "print(numpy.get_include()); print('cp%d%d' % sys.version_info[:2]); " +
        "print('manylinux_%s_%s' % (os.confstr('CS_GNU_LIBC_VERSION').split()[1].replace('.', '_'), " +
        "platform.machine()))",
    ])
    if result.return_code != 0:
        fail("python_repo: %s cannot report its include folders (needs python3-dev, and numpy in the venv):\n%s" %
             (interpreter, result.stderr))
    python_include, numpy_include, python_tag, platform_tag = result.stdout.strip().splitlines()
    rctx.symlink(python_include, "python_include")
    rctx.symlink(numpy_include, "numpy_include")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD.bazel", _PYTHON_BUILD % interpreter)
    oldest = "%s/%s/bin/python3" % (workspace, rctx.attr.oldest_venv)
    if not rctx.path(oldest).exists:
        fail("python_repo: %s is missing (./lab makes the virtual environment)" % oldest)
    rctx.file("defs.bzl", "\n".join([
        "# The interpreter's wheel tag (PEP 425).",
        'PYTHON_TAG = "%s"' % python_tag,
        "# The wheel's platform: manylinux for this machine's glibc.",
        'PLATFORM_TAG = "%s"' % platform_tag,
        "# The venv with the oldest Gymnasium labenv supports.",
        'OLDEST_PYTHON = "%s"' % oldest,
        "",
    ]))

# The project's Python (the venv ./lab makes from Debian's python3): its
# headers, numpy's, the toolchain that runs py_binary and py_test, and its
# wheel tags (defs.bzl's PYTHON_TAG, cp311 for Debian 12's, and
# PLATFORM_TAG, manylinux_2_36_x86_64 for its glibc), and the
# interpreter of the oldest-Gymnasium venv (OLDEST_PYTHON).
python_repo = repository_rule(
    implementation = _python_repo_impl,
    attrs = {
        "venv": attr.string(default = ".venv", doc = "the venv's folder in the workspace"),
        "oldest_venv": attr.string(
            default = ".venv-oldest",
            doc = "the venv of the oldest supported Gymnasium",
        ),
    },
    local = True,
)
