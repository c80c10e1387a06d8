import json, subprocess, sys, os
G = sys.argv[2] if len(sys.argv) > 2 else 'build/bin/gemmc'
d = json.load(open(sys.argv[1]))
dirs = ["test/gpu/tune4", "test/gpu/tune3", "test/gpu/tune2", "test/gpu/small", "test/gpu/m256", "specs", "test/gpu/specs"]
def spec(c):
    for x in dirs:
        p = os.path.join(x, c + ".yaml")
        if os.path.exists(p): return p
def pred(c, m, n, k):
    p = spec(c)
    o = subprocess.run([G, "analyze", p, "--shape", "%dx%dx%d" % (m, n, k), "--json"], capture_output=True, text=True)
    if o.returncode and m % 8:
        o = subprocess.run([G, "analyze", p, "--shape", "%dx%dx%d" % ((m + 7) // 8 * 8, n, k), "--json"], capture_output=True, text=True)
    if o.returncode: return None
    return json.loads(o.stdout)["shapes"][0]
rows = [r for r in d["rows"] if r["status"] == "ok"]
for r in rows:
    a = pred(r["cubin"], r["m"], r["n"], r["k"])
    p = a["time_s"]["predicted"] if a else float('nan')
    print("%-20s %-30s %5dx%5dx%5d  gemmc %9.1f us  cuBLAS %9.1f us  ratio %.3f  pred %9.1f us  meas/pred %.3f  %s" % (
        r["shape"], r["cubin"], r["m"], r["n"], r["k"], r["gemmc_ms"] * 1e3, r["cublas_ms"] * 1e3, r["ratio"], p * 1e6,
        r["gemmc_ms"] * 1e-3 / p, a["bottleneck"] if a else ""))
