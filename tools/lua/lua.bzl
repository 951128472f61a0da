"""Builds Lua-facing C++ twice: against Lua 5.1 and against LuaJIT 2.1.

lua_cc_library(name = "x", ...) defines
  x          against //tools/lua:lua (Lua 5.1, or LuaJIT under --config=luajit)
  x_luajit   against LuaJIT, always
Dependencies inside //lua_api get the same suffix, so a whole tree of
libraries has a LuaJIT twin, and one `bazel test //...` runs both.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def _luajit_deps(deps):
    return [d + "_luajit" if d.startswith(":") or d.startswith("//lua_api") else d for d in deps]

def _twin(rule, name, deps, **kwargs):
    rule(name = name, deps = deps + ["//tools/lua:lua"], **kwargs)
    rule(name = name + "_luajit", deps = _luajit_deps(deps) + ["@luajit"], **kwargs)

def lua_cc_library(name, deps = [], **kwargs):
    _twin(cc_library, name, deps, **kwargs)

def lua_cc_binary(name, deps = [], **kwargs):
    _twin(cc_binary, name, deps, **kwargs)

def lua_cc_test(name, deps = [], **kwargs):
    _twin(cc_test, name, deps, **kwargs)
