# cubins_common.sh: the common part of the round scripts bench/NAME/build_cubins.sh,
# sourced as their first step:
#   . "$(dirname "$0")/../../scripts/session/cubins_common.sh"
# It sets `root` (the worktree: two folders above the sourcing script) and cds there,
# and `gemmc` (this branch's compiler: GEMMC, default $root/build/bin/gemmc) and `main`
# (main's: GEMMC_MAIN, default /work/main/build/bin/gemmc); a script may set either
# again after sourcing. The functions below use `out`, the script's output folder.
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
gemmc=${GEMMC:-$root/build/bin/gemmc} main=${GEMMC_MAIN:-/work/main/build/bin/gemmc}

# cubins_fresh DIR [GLOB...]: make DIR and remove the cubins and manifests a previous
# run left there (and the files GLOB names, e.g. '*.txt').
cubins_fresh() {
  local dir=$1 glob
  shift
  mkdir -p "$dir"
  rm -f "$dir"/*.cubin "$dir"/*.json
  for glob in "$@"; do rm -f "$dir"/$glob; done
}

# round_out ROUND [GLOB...]: out=build/cubins-ROUND for a round's kernels, made fresh (cubins_fresh, with GLOB...)
# and given its ptx folder.
round_out() {
  out=build/cubins-$1
  shift
  cubins_fresh "$out" "$@"
  mkdir -p "$out/ptx"
}

# name SPEC: the spec's file name without .yaml.
name() { basename "$1" .yaml; }

# check REPORT NAME: fail (exit 1, the report printed) when the ptxas report REPORT has a
# spill or a C75xx warning; else print NAME and its register count, NAME padded to
# check_width (default 50) columns.
check() {
  if grep -q "C75[0-9][0-9]" "$1" || grep -Eq "[1-9][0-9]* bytes spill (stores|loads)" "$1"; then
    echo "$2: ptxas reports a spill or a C75xx warning:"; cat "$1"; exit 1
  fi
  printf "%-${check_width:-50}s %s\n" "$2" "$(grep -o 'Used [0-9]* registers' "$1" | head -1)"
}

# build GEMMC SPEC NAME: SPEC by GEMMC into $out/NAME.cubin (and its manifest), its
# ptxas report checked (check) and its PTX, both under $out/ptx. GEMMC failing ends
# the script, also where an `if` or `||` suspends set -e.
build() {
  "$1" "$2" -o "$out/$3.cubin" --ptxas-verbose 2>"$out/ptx/$3.ptxas.txt" || exit 1
  check "$out/ptx/$3.ptxas.txt" "$3"
  "$1" "$2" --emit=ptx -o "$out/ptx/$3.ptx" || exit 1
}

# ptx_differs GEMMC SPEC MAIN_NAME NAME: main's PTX of SPEC into $out/ptx/MAIN_NAME.ptx
# (main's diagnostics dropped) and GEMMC's into $out/ptx/NAME.ptx; true when they differ.
# Either compiler failing ends the script (as under set -e, which an `if` suspends).
ptx_differs() {
  "$main" "$2" --emit=ptx -o "$out/ptx/$3.ptx" 2>/dev/null || exit 1
  "$1" "$2" --emit=ptx -o "$out/ptx/$4.ptx" || exit 1
  ! cmp -s "$out/ptx/$3.ptx" "$out/ptx/$4.ptx"
}

# build_if_changed GEMMC SPEC LABEL NAME: when GEMMC's PTX of SPEC differs from main's
# (ptx_differs, main's as $out/ptx/main_LABEL.ptx), build SPEC as NAME (build) and
# return true; else print "LABEL: PTX as main's" and return false.
build_if_changed() {
  if ptx_differs "$1" "$2" "main_$3" "$4"; then
    build "$1" "$2" "$4"
    return 0
  fi
  echo "$3: PTX as main's"
  return 1
}

# bundles NAME...: gemmc bundle of each bench/bundles/NAME.yaml by $gemmc into $out/NAME (its specs compiled,
# dispatch.json beside them), what an earlier run left in $out/NAME removed first.
bundles() {
  local b
  for b in "$@"; do
    rm -rf "${out:?}/$b"
    "$gemmc" bundle "bench/bundles/$b.yaml" -o "$out/$b" >/dev/null || exit 1
  done
}

# reorder SPEC NAME RASTER GROUP: SPEC with its tile_scheduler's raster and group set to RASTER and GROUP and its name
# to NAME, written to $out/NAME.yaml (checked to hold the new order), for build or nreg.
reorder() {
  sed -E "s/raster: along_[mn], group: [0-9]+,/raster: $3, group: $4,/; s/^name: .*/name: $2/" "$1" >"$out/$2.yaml"
  grep -q "raster: $3, group: $4," "$out/$2.yaml" || { echo "$2: order not set in $1"; exit 1; }
}

# variant SPEC NAME EXPR...: SPEC with its name set to NAME and each sed -E expression EXPR applied in turn, written to
# $out/NAME.yaml for build or nreg (a round's one-field changes to a shipped spec, instead of a copied YAML); an EXPR
# that changes nothing ends the script, so a spec that moves on cannot silently leave a variant equal to it.
variant() {
  local spec=$1 name=$2 f=$out/$2.yaml e
  shift 2
  sed -E "s/^name: .*/name: $name/" "$spec" >"$f"
  for e in "$@"; do
    sed -E "$e" "$f" >"$f.next"
    if cmp -s "$f" "$f.next"; then echo "$name: '$e' changes nothing in $spec"; exit 1; fi
    mv "$f.next" "$f"
  done
}

# ordered SPEC NAME RASTER GROUP: reorder, then built into $out/NAME.cubin (build).
ordered() {
  reorder "$@"
  build "$gemmc" "$out/$2.yaml" "$2"
}

# nreg SPEC NAME DEC INC: SPEC's kernel by $gemmc with setmaxnreg.dec DEC (the producer) and setmaxnreg.inc INC
# (the consumers) in place of the lowering's, assembled as gemmc assembles (ptxas -O3 -v: -v changes the cubin) into
# $out/NAME.cubin and checked (check); the manifest is gemmc's (it names no register count). Sessions 43-44 read
# the 192x128 block-scaled kernel's register split this way.
nreg() {
  local ptx=$out/ptx/$2.ptx
  "$gemmc" "$1" -o "$out/$2.cubin" 2>/dev/null || exit 1
  "$gemmc" "$1" --emit=ptx -o "$ptx.orig" || exit 1
  sed -E -e "s/(setmaxnreg\.dec\.sync\.aligned\.u32[[:space:]]+)[0-9]+;/\1$3;/" \
    -e "s/(setmaxnreg\.inc\.sync\.aligned\.u32[[:space:]]+)[0-9]+;/\1$4;/" "$ptx.orig" >"$ptx"
  [ "$(grep -cE "setmaxnreg\.(dec|inc)\.sync\.aligned\.u32[[:space:]]+($3|$4);" "$ptx")" = 2 ] ||
    { echo "$2: setmaxnreg not set to $3 / $4"; exit 1; }
  /usr/local/cuda/bin/ptxas -arch=sm_90a -O3 -v "$ptx" -o "$out/$2.cubin" 2>"$out/ptx/$2.ptxas.txt" || exit 1
  check "$out/ptx/$2.ptxas.txt" "$2 (setmaxnreg $3 / $4)"
  rm "$ptx.orig"
}

# old_build SPEC [REV]: main's build ($main) of SPEC (as it was at commit REV, if given)
# into $out/old_<name>.cubin (the spec copied there for the build, then removed).
old_build() {
  local n
  n=old_$(name "$1")
  if [ -n "${2:-}" ]; then git show "$2:$1" >"$out/$n.yaml"; else cp "$1" "$out/$n.yaml"; fi
  "$main" "$out/$n.yaml" -o "$out/$n.cubin"
  rm -f "$out/$n.yaml"
}

# tune_sweep_shapes DIR SHAPE...: for each named shape of bench/suites/sweep.yaml, gemmc tune's top 4
# (tune__SHAPE_1..4; the ranking in $out/specs/SHAPE.txt, the specs in $out/specs/SHAPE) built into $out/DIR
# (DIR "." for $out), and the shape's line appended to $out/DIR/shapes.yaml: its own picks beside the shared
# candidates (cand__*.cubin).
tune_sweep_shapes() {
  local dir=$1 shape m n k y
  shift
  mkdir -p "$out/specs" "$out/$dir" "$out/ptx/$dir"
  for shape in "$@"; do
    read -r m n k < <(sed -n "s/^ *- {name: *$shape, *m: *\([0-9]*\), *n: *\([0-9]*\), *k: *\([0-9]*\)}.*/\1 \2 \3/p" \
      bench/suites/sweep.yaml)
    "$gemmc" tune --shape "${m}x${n}x${k}" --top 4 --name "tune__$shape" -o "$out/specs/$shape" >"$out/specs/$shape.txt"
    for y in "$out/specs/$shape"/tune__*.yaml; do build "$gemmc" "$y" "$dir/$(name "$y")"; done
    echo "  - {name: $shape, m: $m, n: $n, k: $k, cubins: [\"tune__${shape}_*.cubin\", \"cand__*.cubin\"]}" \
      >>"$out/$dir/shapes.yaml"
  done
}

# check_specs SPEC...: each spec through ptxas (no cubin kept: a bundle's specs, which gemmc bundle built), its
# report in $out/ptx/NAME.ptxas.txt checked (check).
check_specs() {
  local y
  for y in "$@"; do
    "$gemmc" "$y" -o /dev/null --ptxas-verbose 2>"$out/ptx/$(name "$y").ptxas.txt" || exit 1
    check "$out/ptx/$(name "$y").ptxas.txt" "$(name "$y")"
  done
}

# bundle_before GEMMC REV BUNDLE: bench/bundles/BUNDLE.yaml as it was at commit REV (the working tree's when REV
# is empty) built by GEMMC as the bundle BUNDLE_before into $out/BUNDLE_before: the "before" side of a round.
bundle_before() {
  local tmp=bench/bundles/.$3_before.yaml
  if [ -n "$2" ]; then git show "$2:bench/bundles/$3.yaml"; else cat "bench/bundles/$3.yaml"; fi |
    sed "s/^bundle: $3\$/bundle: $3_before/" >"$tmp"
  "$1" bundle "$tmp" -o "$out/$3_before" >/dev/null
  rm "$tmp"
}

# kernels NAME...: the shipped FP8 specs that issue 14's rounds (bench/lead46 on) time, each built (build) under its
# short name: pt_ per tensor, rc_ per row/column, bs block-scaled.
kernels() {
  local k spec
  for k in "$@"; do
    case $k in
      pt_pp128) spec=specs/h200_fp8_e4m3_128x128_pp.yaml ;;
      pt_pp192) spec=specs/h200_fp8_e4m3_128x192_pp.yaml ;;
      rc_pp128) spec=specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml ;;
      rc_pp192) spec=specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml ;;
      bs192) spec=specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml ;;
      bs256) spec=specs/h200_fp8_e4m3_blockscale_128x256_ws.yaml ;;
      *) echo "kernels: unknown kernel $k" >&2; exit 2 ;;
    esac
    build "$gemmc" "$spec" "$k"
  done
}
