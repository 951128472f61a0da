#!/bin/sh
# Runs one Lua suite for lua_test (tools/lua/lua_test.bzl):
#   lua_test_runner.sh LUA_RUN TESTING_LUA SUITE [ARGS...]
# testing.lua's directory goes first on LUA_PATH (";;" keeps Lua's default
# path after it), so suites in any package can `require 'testing'`. The
# environment, XML_OUTPUT_FILE included, passes through to the interpreter.
set -eu
lua_run=$1
testing_dir=$(dirname "$2")
shift 2
LUA_PATH="$testing_dir/?.lua;;"
export LUA_PATH
exec "$lua_run" "$@"
