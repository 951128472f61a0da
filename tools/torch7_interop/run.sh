#!/usr/bin/env bash
# Checks .t7 files both ways between Torch7 and dmlab.system.torch, and that
# torch.serialize gives the same bytes in both.
#
#   tools/torch7_interop/run.sh TH LUA_RUN
#     TH       Torch7's interpreter (../shared/anchors/build_torch7.sh makes
#              /tmp/anchors/torch7/th)
#     LUA_RUN  this project's, e.g. bazel-bin/lua_api/lua_run
# Prints "read torch7: all values agree", "read ours: all values agree" and
# "serialize: identical bytes", or fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
th=$1
ours=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$th" "$here/write.lua" torch7 "$dir" >/dev/null
"$ours" "$here/write.lua" ours "$dir" >/dev/null
"$ours" "$here/read.lua" torch7 "$dir"
"$th" "$here/read.lua" ours "$dir"
cmp "$dir/bytes_torch7.txt" "$dir/bytes_ours.txt"
echo "serialize: identical bytes"
