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
"""

def _python_repo_impl(rctx):
    result = rctx.execute([
        rctx.attr.interpreter,
        "-c",
        "import sysconfig, numpy; print(sysconfig.get_paths()['include']); print(numpy.get_include())",
    ])
    if result.return_code != 0:
        fail("python_repo: %s cannot report its include folders (needs python3-dev and python3-numpy):\n%s" %
             (rctx.attr.interpreter, result.stderr))
    python_include, numpy_include = result.stdout.strip().splitlines()
    rctx.symlink(python_include, "python_include")
    rctx.symlink(numpy_include, "numpy_include")
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD.bazel", _PYTHON_BUILD)

python_repo = repository_rule(
    implementation = _python_repo_impl,
    attrs = {"interpreter": attr.string(default = "/usr/bin/python3")},
    local = True,
)
