"""lua_test: a Lua test suite, run by //lua_api:lua_run and by its LuaJIT twin.

lua_test(name = "x_test", src = "x_test.lua") defines
  x_test          run by //lua_api:lua_run (Lua 5.1)
  x_test_luajit   run by //lua_api:lua_run_luajit (LuaJIT 2.1)
Each is an sh_test of tools/lua/lua_test_runner.sh, which puts
tests/lua/testing.lua on LUA_PATH (so `require 'testing'` works from any
package) and execs the interpreter on the suite. Bazel's XML_OUTPUT_FILE
reaches testing.run(), which writes one <testcase> per case, so ./lab test
counts Lua cases like gtest cases. `data` is added to both tests' runfiles,
`args` go to the suite as its `...`; `interpreters`, a list of
(suffix, label), replaces the two (a suite of a host's Lua modules runs
under an interpreter that loads them as the host does); extra keyword
arguments (size, tags, ...) go to every sh_test.
"""

_TESTING = "//tests/lua:testing.lua"

_INTERPRETERS = [("", "//lua_api:lua_run"), ("_luajit", "//lua_api:lua_run_luajit")]

def lua_test(name, src, data = [], args = [], interpreters = _INTERPRETERS, **kwargs):
    kwargs.setdefault("size", "small")
    for suffix, interpreter in interpreters:
        native.sh_test(
            name = name + suffix,
            srcs = ["//tools/lua:lua_test_runner.sh"],
            args = [
                "$(location %s)" % interpreter,
                "$(location %s)" % _TESTING,
                "$(location %s)" % src,
            ] + args,
            data = [interpreter, _TESTING, src] + data,
            **kwargs
        )
