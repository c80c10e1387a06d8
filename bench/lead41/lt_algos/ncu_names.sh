#!/usr/bin/env bash
# Kernel names and ncu durations of cuBLASLt configurations (lt_algos), on the GPU machine.
#
#   ncu_names.sh [BIN] configs [--shape M N K] [--epilogue relu] ID:TILE:STAGES:SWIZZLE[:CUSTOM] ...
#       one ncu process over `lt_algos M N K --run-list ...` (a marker kernel before each configuration);
#       per configuration: the kernel(s) it launched, their ncu duration (median / min of its 22 launches), TFLOP/s.
#   ncu_names.sh [BIN] top JSON [N]
#       the same for the N (default 40) fastest working configurations of a `lt_algos --json JSON` file.
#   ncu_names.sh [BIN] sm80 [SIZE ...]            (the default mode; SIZE = 4096 or 4096x4096x4096; default 4096 8192)
#       the whole enumeration under ncu, profiling only kernels whose name matches KREGEX (Ampere/Turing-style:
#       sm80_, ampere_, cutlass_80, ...), at most LAUNCH_COUNT of them; every distinct kernel (name, grid, block)
#       with its duration, fastest first, and a "FASTEST mma.sync-style kernel" line per size.
#
# BIN defaults to build/lead41/lt_algos. Environment: NCU (ncu binary), KREGEX, LAUNCH_COUNT (3000),
# SWEEP_SECONDS (30: lt_algos --max-seconds per size in sm80 mode), CHECK_SECONDS (8), ALGOS (lt_algos --algos),
# EPILOGUE (none|relu), KEEP (folder to copy ncu's CSV logs to; default: they stay in a /tmp folder).
# ncu runs with --clock-control none (the GPU's own clocks, as the timings without ncu).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
bin=$root/build/lead41/lt_algos
if [ $# -gt 0 ] && [ -f "$1" ] && [ -x "$1" ]; then
  bin=$1
  shift
fi
mode=${1:-sm80}
[ $# -gt 0 ] && shift
[ -x "$bin" ] || { echo "ncu_names.sh: no lt_algos binary at $bin (bench/lead41/lt_algos/build.sh)"; exit 2; }
ncu=${NCU:-$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -1)}
[ -n "$ncu" ] && [ -x "$ncu" ] || { echo "ncu_names.sh: ncu not found (set NCU=/path/to/ncu)"; exit 2; }
KREGEX=${KREGEX:-'sm80_|sm86_|sm75_|ampere_|turing_|cutlass_80|cutlass_75|s16816|s1688|wmma'}
tmp=$(mktemp -d /tmp/lt_ncu.XXXXXX)
epi=()
[ -n "${EPILOGUE:-}" ] && epi=(--epilogue "$EPILOGUE")
# Demangled names: CUTLASS 2.x kernels are cutlass::Kernel2<cutlass_80_...>, whose "function" name is just Kernel2.
common=(--clock-control none --csv --page raw --print-units base --kernel-name-base demangled
        --print-kernel-base demangled --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread)
echo "# ncu: $ncu ($("$ncu" --version 2>/dev/null | tail -1)); lt_algos: $bin; logs: $tmp"

# parse MODE CSV M N K [RUNLIST]: the CSV ncu wrote with --log-file.
parse() {
  python3 - "$@" <<'PY'
import csv, re, sys, statistics
mode, path, M, N, K = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
runlist = sys.argv[6].split(',') if len(sys.argv) > 6 and sys.argv[6] else []
flop = 2.0 * M * N * K
lines = open(path, errors='replace').read().splitlines()
start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
if start is None:
    print('no ncu CSV table in %s; its last lines:' % path)
    print('\n'.join(lines[-15:]))
    sys.exit(1)
rows = list(csv.reader(lines[start:]))
hdr = rows[0]
col = {h: i for i, h in enumerate(hdr)}
units = rows[1] if len(rows) > 1 and not rows[1][0].strip() else None
body = rows[2:] if units else rows[1:]
def need(name):
    if name not in col:
        print('column %r not in the ncu CSV (columns: %s)' % (name, ', '.join(hdr)))
        sys.exit(1)
    return col[name]
i_name, i_dur = need('Kernel Name'), need('gpu__time_duration.sum')
scale = {'ns': 1e-3, 'nsecond': 1e-3, 'us': 1, 'usecond': 1, 'ms': 1e3, 'msecond': 1e3, 's': 1e6, 'second': 1e6}
unit = units[i_dur].strip() if units else 'ns'
mult = scale.get(unit, 1e-3)
def num(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return float('nan')
def grid_of(r):
    if 'launch__grid_size' in col:
        g = num(r[col['launch__grid_size']])
        if g == g:
            return int(g), (r[col['Grid Size']] if 'Grid Size' in col else str(int(g)))
    if 'Grid Size' in col:
        xs = [int(x) for x in re.findall(r'\d+', r[col['Grid Size']])]
        p = 1
        for x in xs:
            p *= x
        return p, r[col['Grid Size']]
    return 0, '?'
def block_of(r):
    if 'Block Size' in col:
        return r[col['Block Size']]
    if 'launch__block_size' in col:
        return r[col['launch__block_size']]
    return '?'
def style(n):
    if any(h in n for h in ('sm90_', 'sm90a_', 'cutlass3x_sm90', 'cutlass_90', 'gmma', 'nvjet')):
        return 'wgmma'
    if any(a in n for a in ('sm80_', 'sm86_', 'sm75_', 'ampere_', 'turing_', 'cutlass_80', 'cutlass_75', 's16816',
                            's1688', 'tensor16x8x16', 'tensor16x8x8', 'wmma')):
        return 'mma.sync'
    return 'other'
def short(n):  # void cutlass::Kernel2<NAME>(NAME::Params) -> NAME; else without "void " and parameters
    m = re.search(r'cutlass::Kernel\w*<([A-Za-z0-9_]+)', n)
    if m:
        return m.group(1)
    n = n[5:] if n.startswith('void ') else n
    return n.split('(')[0]
def tf(us):
    return flop / (us * 1e-6) / 1e12 if us > 0 else 0
recs = []
for r in body:
    if len(r) < len(hdr):
        continue
    g, gs = grid_of(r)
    recs.append((short(r[i_name]), num(r[i_dur]) * mult, g, gs, block_of(r)))
print('# %d profiled kernels, durations in us (ncu gpu__time_duration.sum, unit %s)' % (len(recs), unit))
if mode == 'configs':
    cur, per = None, {}
    for name, us, g, gs, bs in recs:
        if 'lt_algos_marker' in name:
            cur = None if g >= 65535 else g - 1
            continue
        if 'lt_algos_' in name or cur is None:
            continue
        per.setdefault(cur, {}).setdefault(name, []).append((us, gs, bs))
    print('%-22s %10s %10s %8s  %-9s %s' % ('# config (id:T:S:W)', 'median_us', 'min_us', 'TFLOP/s', 'style', 'kernel (count, grid, block)'))
    for i, c in enumerate(runlist):
        ks = per.get(i)
        if not ks:
            print('%-22s %10s %10s %8s  %-9s %s' % (c, '-', '-', '-', '-', '(no kernel: AlgoCheck or launch failed; see lt_algos output)'))
            continue
        main = max(ks, key=lambda n: sum(u for u, _, _ in ks[n]))
        for n in sorted(ks, key=lambda n: n != main):
            us = [u for u, _, _ in ks[n]]
            med, mn = statistics.median(us), min(us)
            print('%-22s %10.1f %10.1f %8.1f  %-9s %s (x%d, grid %s, block %s)' % (
                c if n == main else '  +', med, mn, tf(med) if n == main else 0, style(n), n, len(us), ks[n][-1][1], ks[n][-1][2]))
else:
    groups = {}
    for name, us, g, gs, bs in recs:
        if 'lt_algos_' in name:
            continue
        groups.setdefault((name, gs, bs), []).append(us)
    rows = sorted(((statistics.median(v), min(v), len(v), k) for k, v in groups.items()), key=lambda x: x[0])
    print('%10s %10s %8s %5s  %-9s %s' % ('median_us', 'min_us', 'TFLOP/s', 'count', 'style', 'kernel (grid, block)'))
    for med, mn, cnt, (name, gs, bs) in rows:
        print('%10.1f %10.1f %8.1f %5d  %-9s %s (grid %s, block %s)' % (med, mn, tf(med), cnt, style(name), name, gs, bs))
    best = next((x for x in rows if style(x[3][0]) == 'mma.sync'), None)
    if best:
        print('FASTEST mma.sync-style kernel at %dx%dx%d: %s  median %.1f us (min %.1f) = %.1f TFLOP/s (grid %s, block %s)' % (
            M, N, K, best[3][0], best[0], best[1], tf(best[0]), best[3][1], best[3][2]))
    else:
        print('FASTEST mma.sync-style kernel at %dx%dx%d: none profiled (no kernel name matched the filter)' % (M, N, K))
PY
}

keep() { [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$@" "$KEEP"/; return 0; }

run_configs() {  # run_configs M N K CFG...
  local M=$1 N=$2 K=$3
  shift 3
  local list
  list=$(IFS=,; echo "$*")
  [ -n "$list" ] || { echo "ncu_names.sh configs: no configurations given"; exit 1; }
  local log=$tmp/configs-${M}x${N}x${K}.csv
  echo "# $M x $N x $K: $# configurations under ncu"
  "$ncu" "${common[@]}" --log-file "$log" "$bin" "$M" "$N" "$K" --no-cupti "${epi[@]}" --run-list "$list" \
    >"$tmp/configs.out" 2>&1
  echo "# ncu exit $?; lt_algos said:"
  grep -E "^(single|#)|status=|fatal" "$tmp/configs.out" | sed 's/^/  /'
  parse configs "$log" "$M" "$N" "$K" "$list"
  keep "$log" "$tmp/configs.out"
}

case $mode in
configs)
  M=4096 N=4096 K=4096
  cfgs=()
  while [ $# -gt 0 ]; do
    case $1 in
    --shape) M=$2 N=$3 K=$4; shift 4 ;;
    --epilogue) epi=(--epilogue "$2"); shift 2 ;;
    *) cfgs+=("$1"); shift ;;
    esac
  done
  run_configs "$M" "$N" "$K" "${cfgs[@]}"
  ;;
top)
  json=${1:?top JSON [N]}
  n=${2:-40}
  read -r M N K E CFGS < <(python3 - "$json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
res = [r for r in d['results'] if r['status'] == 'ok' and r['median_ms'] > 0]
res.sort(key=lambda r: r['median_ms'])
cfgs = [r.get('run') or '%d:%d:%d:%d:%d' % (r['algo'], r['tile'], r['stages'], r['swizzle'], r['custom'])
        for r in res[:n]]
m = d['meta']
print(m['M'], m['N'], m['K'], m.get('epilogue', 'none'), ' '.join(cfgs))
PY
)
  [ -n "${CFGS:-}" ] || { echo "ncu_names.sh top: no working configuration in $json"; exit 1; }
  epi=(--epilogue "$E")
  # shellcheck disable=SC2086
  run_configs "$M" "$N" "$K" $CFGS
  ;;
sm80)
  sizes=("$@")
  [ ${#sizes[@]} -gt 0 ] || sizes=(4096 8192)
  algos=()
  [ -n "${ALGOS:-}" ] && algos=(--algos "$ALGOS")
  for s in "${sizes[@]}"; do
    IFS=x read -r M N K <<<"$s"
    N=${N:-$M} K=${K:-$M}
    log=$tmp/sweep-${M}x${N}x${K}.csv
    echo "# sweep $M x $N x $K: kernels matching /$KREGEX/, at most ${LAUNCH_COUNT:-3000} profiled"
    "$ncu" "${common[@]}" --kernel-name "regex:$KREGEX" --launch-count "${LAUNCH_COUNT:-3000}" --log-file "$log" \
      "$bin" "$M" "$N" "$K" --no-cupti "${epi[@]}" "${algos[@]}" --reps 1 --top 0 --heur-count 1 \
      --max-seconds "${SWEEP_SECONDS:-30}" --check-seconds "${CHECK_SECONDS:-8}" >"$tmp/sweep-$s.out" 2>&1
    echo "# ncu exit $?; lt_algos said:"
    grep -E "^(enumeration|checks|timing|heur|STOPPED)|fatal" "$tmp/sweep-$s.out" | sed 's/^/  /'
    parse sweep "$log" "$M" "$N" "$K"
    keep "$log" "$tmp/sweep-$s.out"
  done
  ;;
*)
  sed -n '2,20p' "$0"
  exit 1
  ;;
esac
