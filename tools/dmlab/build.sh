#!/usr/bin/env bash
# build.sh LAB OUT: DeepMind Lab's engine for the project's DeepMind Lab
# host (hosts/dmlab/), from the DeepMind Lab checkout LAB, into OUT:
#   OUT/libdmlab_engine.so  the engine with hosts/dmlab/context_link.c in
#                           DeepMind's context's place (Makefile)
#   OUT/q3map2, OUT/bspc    its map tools, which compile text levels
#   OUT/run/                its runfiles: baselab/ with the game's virtual
#                           machines (vm.pk3), the assets' pk3s, the
#                           compiled maps and game_scripts/
# Run by `./lab dmlab --lab=LAB [--out=OUT]`, which installs the Debian
# packages it needs first. Steps that are up to date are skipped. Nothing
# is written into LAB. The engine, its game code and the level scripts are
# GPLv2+ and the assets CC-BY 4.0 (docs/dmlab.md); the library is GPL.
set -euo pipefail
LAB=$(cd "$1" && pwd)
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
PROJECT=$(cd "$(dirname "$0")/../.." && pwd)
JOBS=${JOBS:-$(nproc)}
CODE=$LAB/engine/code

for needed in engine/code/deepmind/dmlab_connect.c deepmind/include/deepmind_hooks.h BUILD q3map2 \
              game_scripts assets; do
  if [ ! -e "$LAB/$needed" ]; then
    echo "build.sh: '$LAB' is not a DeepMind Lab checkout: it has no $needed" >&2
    exit 2
  fi
done

# 1. The interface: hosts/dmlab/dmlab_abi.h against this checkout's headers.
g++ -std=c++20 -fsyntax-only -I"$LAB" -I"$PROJECT" "$PROJECT/tools/dmlab/abi_check.cc"
echo "interface: dmlab_abi.h matches $LAB"

# 2. The game's virtual machines (cgame, qagame, ui): DeepMind Lab's own
# lcc and q3asm, then its game code, as its BUILD lists it.
TOOLS=$OUT/tools
mkdir -p "$TOOLS"
tool() {  # tool NAME SOURCES... : builds OUT/tools/NAME unless present
  local name=$1
  shift
  [ -x "$TOOLS/$name" ] || gcc -O1 -w "$@" -o "$TOOLS/$name"
}
tool lburg "$CODE"/tools/lcc/lburg/*.c
[ -f "$TOOLS/dagcheck.c" ] || "$TOOLS/lburg" "$CODE/tools/lcc/src/dagcheck.md" > "$TOOLS/dagcheck.c"
tool q3rcc -I"$CODE/tools/lcc/src" "$CODE"/tools/lcc/src/*.c "$TOOLS/dagcheck.c"
tool q3cpp "$CODE"/tools/lcc/cpp/*.c
tool q3lcc -DARCH_STRING=\"x86_64\" "$CODE/tools/lcc/etc/bytecode.c" "$CODE/tools/lcc/etc/lcc.c"
tool q3asm -DARCH_STRING=\"x86_64\" -DSTANDALONE "$CODE"/tools/asm/*.c

# The three lists of the checkout's BUILD (CGAME_QVM_ASMS, ...), as
# "cgame|game/bg_misc ..." lines.
vm_lists() {
  /usr/bin/python3 - "$LAB/BUILD" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for vm, name in (("cgame", "CGAME"), ("qagame", "QAGAME"), ("ui", "Q3UI")):
    body = re.search(name + r"_QVM_ASMS = \[(.*?)\]", text, re.S).group(1)
    print(vm + "|" + " ".join(re.findall(r'"([^"]+)"', body)))
PY
}
ASM=$OUT/asm
mkdir -p "$OUT/vm"
while IFS='|' read -r vm units; do
  asms=()
  for unit in $units; do
    if [ -f "$CODE/$unit.asm" ]; then  # the system call stubs are written in assembly
      asms+=("$CODE/$unit.asm")
      continue
    fi
    mkdir -p "$ASM/$(dirname "$unit")"
    if [ ! -f "$ASM/$unit.asm" ]; then
      (cd "$TOOLS" && ./q3lcc -DSTANDALONE "$CODE/$unit.c" -o "$ASM/$unit.asm")
    fi
    asms+=("$ASM/$unit.asm")
  done
  [ -f "$OUT/vm/$vm.qvm" ] || "$TOOLS/q3asm" -m -o "$OUT/vm/$vm.qvm" "${asms[@]}"
done < <(vm_lists)
echo "virtual machines: $(ls "$OUT/vm"/*.qvm | wc -l)"

# 3. The engine library.
make -s -f "$PROJECT/tools/dmlab/Makefile" LAB="$LAB" OUT="$OUT" PROJECT="$PROJECT" -j"$JOBS" \
  --no-print-directory
echo "engine: $OUT/libdmlab_engine.so"

# 4. Its map tools, q3map2 and bspc, beside it (where the host looks for
# them: the dmlabTools setting's default), for the text levels.
make -s -f "$PROJECT/tools/dmlab/Makefile" LAB="$LAB" OUT="$OUT" PROJECT="$PROJECT" -j"$JOBS" \
  --no-print-directory tools
echo "map tools: $OUT/q3map2, $OUT/bspc"

# 5. The runfiles: what DeepMind Lab's Bazel build lays out beside its
# library. Binary assets missing from a checkout are left out (the engine
# draws their surfaces in its default texture and says so in its log).
RUN=$OUT/run
BASE=$RUN/baselab
mkdir -p "$BASE/maps"
pk3() {  # pk3 NAME FOLDER ENTRIES...: a zip of ENTRIES of FOLDER, unless present
  local name=$1 folder=$2
  shift 2
  [ -f "$BASE/$name" ] || (cd "$folder" && zip -q -r "$BASE/$name" -- "$@")
}
(cd "$OUT" && rm -f "$BASE/vm.pk3" && zip -q -r "$BASE/vm.pk3" vm)
pk3 assets.pk3 "$LAB/assets" scripts gfx icons menu models textures
pk3 assets_oa.pk3 "$LAB/assets_oa" scripts
pk3 assets_bots.pk3 "$LAB/assets_oa" scripts/bots.txt botfiles
for map in "$LAB"/assets/maps/built/*.bsp "$LAB"/assets/maps/built/*.aas; do
  [ -s "$map" ] && ln -sf "$map" "$BASE/maps/"
done
ln -sfn "$LAB/game_scripts" "$BASE/game_scripts"
cp -f "$LAB/assets/default.cfg" "$LAB/assets/q3config.cfg" "$BASE/"
echo "runfiles: $RUN ($(ls "$BASE/maps" | wc -l) compiled maps)"
