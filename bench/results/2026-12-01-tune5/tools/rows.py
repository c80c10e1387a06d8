"""Stored gemmc-bench rows with this checkout's model (gemmc analyze --json), cached per (spec, shape) in
$CACHE (default /tmp/tune5-analyze-cache.json; delete it after a model change). Used by fit.py."""
import json, os, subprocess, sys
sys.path.insert(0, 'bench')
from miss_report import spec_for

G = os.environ.get('GEMMC', 'build/bin/gemmc')
CACHE = os.environ.get('CACHE', '/tmp/tune5-analyze-cache.json')
_cache = json.load(open(CACHE)) if os.path.exists(CACHE) else {}

SETS = {
    'tune3r2-sweep': ['bench/results/2026-12-01-tune3/r2/sweep-lo.json', 'bench/results/2026-12-01-tune3/r2/sweep-hi.json'],
    'tune4r2-sweep': ['bench/results/2026-12-01-tune4/r2/sweep-only.json'],
    'tune4r2-goal': ['bench/results/2026-12-01-tune4/r2/goal.json'],
    'tune4r1': ['bench/results/2026-12-01-tune4/r1/tune4.json'],
    'tune3r1': ['bench/results/2026-12-01-tune3/r1/tune3.json'],
    's6': ['bench/results/2026-12-01-tune4/s6/picks-s6.json'],
    'tune5r1': ['bench/results/2026-12-01-tune5/r1/short.json', 'bench/results/2026-12-01-tune5/r1/large.json'],
    'tune5r2': ['bench/results/2026-12-01-tune5/r2/picks.json'],
}
# Round 3's fresh bundle run (out of sample): not in SETS, read by r3check.py.
R3 = {'tune5r3-sweep': ['bench/results/2026-12-01-tune5/r3/sweep-lo.json', 'bench/results/2026-12-01-tune5/r3/sweep-hi.json'],
      'tune5r3-anchors': ['bench/results/2026-12-01-tune5/r3/anchors.json']}


def analyze(spec, m, n, k):
    key = '%s %dx%dx%d' % (spec, m, n, k)
    if key not in _cache:
        shape = (m, n, k)
        o = subprocess.run([G, 'analyze', spec, '--shape', '%dx%dx%d' % shape, '--json'], capture_output=True, text=True)
        if o.returncode and '[stride-alignment]' in o.stderr and m % 8:
            o = subprocess.run([G, 'analyze', spec, '--shape', '%dx%dx%d' % ((m + 7) // 8 * 8, n, k), '--json'],
                               capture_output=True, text=True)
        _cache[key] = json.loads(o.stdout)['shapes'][0] if o.returncode == 0 else None
    return _cache[key]


def save():
    json.dump(_cache, open(CACHE, 'w'))


def rows(name):
    out = []
    for p in SETS.get(name) or R3[name]:
        if not os.path.exists(p):
            continue
        for r in json.load(open(p))['rows']:
            if r['status'] != 'ok' or not r.get('gemmc_ms'):
                continue
            spec = spec_for(os.getcwd(), r['cubin'])
            if not spec:
                continue
            a = analyze(spec, r['m'], r['n'], r['k'])
            if a:
                out.append(dict(set=name, shape=r['shape'], cubin=r['cubin'], spec=spec, m=r['m'], n=r['n'], k=r['k'],
                                measured=r['gemmc_ms'] * 1e-3, cublas=(r.get('cublas_ms') or 0) * 1e-3, a=a))
    save()
    return out


def anchors():
    """The anchor suite's 11 bundle kernels (bench/results/2026-12-01-tune4/tools/anchors_err.py's rows)."""
    out = []
    sbs = json.load(open('bench/results/2026-11-30-6813b10-side-by-side/side_by_side.json'))['rows']
    for name in ['cube4096', 'cube8192', 'prefill_attn_out', 'prefill_mlp_up', 'skinny_seed1']:
        r = [x for x in sbs if x['shape'] == name and x['cubin'] == 'h200_bf16_128x256_coop' and x['status'] == 'ok'][0]
        out.append((name, 'specs/h200_bf16_128x256_coop.yaml', r['m'], r['n'], r['k'], r['gemmc_ms'] * 1e-3))
    m256 = {'decode_attn_out': 'specs/h200_bf16_decode_128x128_coop.yaml', 'decode_qkv': 'test/gpu/m256/m256_coop_128x160_mc.yaml',
            'decode_mlp_up': 'specs/h200_bf16_128x256_coop.yaml', 'decode_mlp_down': 'specs/h200_bf16_decode_128x128_coop.yaml'}
    for r in json.load(open('bench/results/2026-11-30-session3/waves-m256.json'))['rows']:
        if r['shape'] in m256:
            out.append((r['shape'], m256[r['shape']], r['m'], r['n'], r['k'], r['gemmc_ms'] * 1e-3))
    for name, spec, m, tf in (('decode_m64', 'test/gpu/small/pp_tn_64x64.yaml', 64, 225.4),
                              ('decode_m16', 'test/gpu/small/swab_tn_16x128_sk.yaml', 16, 55.1)):
        out.append((name, spec, m, 8192, 8192, 2.0 * m * 8192 * 8192 / (tf * 1e12)))
    res = [dict(set='anchors', shape=n, cubin=os.path.basename(s), spec=s, m=m, n=nn, k=k, measured=t, cublas=0,
                a=analyze(s, m, nn, k)) for n, s, m, nn, k, t in out]
    save()
    return res
