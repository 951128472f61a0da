#!/bin/bash
# The plugin/host line (DESIGN.md): nothing in engine_plugin/ includes a
# header of hosts/ or names a target there. $@ are the plugin's files.
set -u
found=0
for file in "$@"; do
  # Comments may name hosts/ (where the hosts are); code may not.
  if grep -nE '^[[:space:]]*#include[[:space:]]+"hosts/|"//hosts[/:]' "$file"; then
    echo "layering_test: $file reaches into hosts/" >&2
    found=1
  fi
done
[ "$#" -gt 20 ] || { echo "layering_test: only $# files given" >&2; exit 1; }
exit "$found"
