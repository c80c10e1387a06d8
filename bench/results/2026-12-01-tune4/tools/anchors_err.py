import json, subprocess, sys
G = sys.argv[1] if len(sys.argv) > 1 else 'build/bin/gemmc'
def pred(spec, m, n, k):
    o = subprocess.run([G, "analyze", spec, "--shape", "%dx%dx%d" % (m, n, k), "--json"], capture_output=True, text=True)
    return json.loads(o.stdout)["shapes"][0]["time_s"]["predicted"]
rows = []
sbs = json.load(open('bench/results/2026-11-30-6813b10-side-by-side/side_by_side.json'))['rows']
for name in ['cube4096', 'cube8192', 'prefill_attn_out', 'prefill_mlp_up', 'skinny_seed1']:
    r = [x for x in sbs if x['shape'] == name and x['cubin'] == 'h200_bf16_128x256_coop' and x['status'] == 'ok'][0]
    rows.append((name, 'specs/h200_bf16_128x256_coop.yaml', r['m'], r['n'], r['k'], r['gemmc_ms'] * 1e-3))
m256 = {'decode_attn_out': 'specs/h200_bf16_decode_128x128_coop.yaml', 'decode_qkv': 'test/gpu/m256/m256_coop_128x160_mc.yaml',
        'decode_mlp_up': 'specs/h200_bf16_128x256_coop.yaml', 'decode_mlp_down': 'specs/h200_bf16_decode_128x128_coop.yaml'}
for r in json.load(open('bench/results/2026-11-30-session3/waves-m256.json'))['rows']:
    if r['shape'] in m256:
        rows.append((r['shape'], m256[r['shape']], r['m'], r['n'], r['k'], r['gemmc_ms'] * 1e-3))
# small-m-bench.txt (session 2): decode_m64 64x64 pingpong 225.4 TFLOP/s, decode_m16 swap_ab 16x128 stream-K 55.1
for name, spec, m, tf in (('decode_m64', 'test/gpu/small/pp_tn_64x64.yaml', 64, 225.4), ('decode_m16', 'test/gpu/small/swab_tn_16x128_sk.yaml', 16, 55.1)):
    rows.append((name, spec, m, 8192, 8192, 2.0 * m * 8192 * 8192 / (tf * 1e12)))
inside = 0
for name, spec, m, n, k, t in rows:
    p = pred(spec, m, n, k)
    ok = abs(t / p - 1) <= 0.10
    inside += ok
    print("%-18s %-45s measured %8.1f us  predicted %8.1f us  measured / predicted %.2f%s" % (name, spec, t * 1e6, p * 1e6, t / p, "" if ok else "  (outside 10%)"))
print("%d of %d within 10%%" % (inside, len(rows)))
