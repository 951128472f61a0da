#!/usr/bin/env bash
# Checks .t7 files both ways between Torch7 and dmlab.system.torch, and that
# torch.serialize gives the same bytes in both, in the binary and the ascii
# formats.
#
#   tools/torch7_interop/run.sh TH LUA_RUN
#     TH       Torch7's interpreter (../shared/anchors/build_torch7.sh makes
#              /tmp/anchors/torch7/th)
#     LUA_RUN  this project's, e.g. bazel-bin/lua_api/lua_run
# Prints, per format, "read torch7 (FORMAT): all values agree", "read ours
# (FORMAT): all values agree" and "serialize (FORMAT): identical bytes", or
# fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
th=$1
ours=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for format in binary ascii; do
  "$th" "$here/write.lua" torch7 "$dir" $format >/dev/null
  "$ours" "$here/write.lua" ours "$dir" $format >/dev/null
  "$ours" "$here/read.lua" torch7 "$dir" $format
  "$th" "$here/read.lua" ours "$dir" $format
  cmp "$dir/bytes_torch7_$format.txt" "$dir/bytes_ours_$format.txt"
  echo "serialize ($format): identical bytes"
done
