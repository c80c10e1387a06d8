"""gemmc-bench's progress lines ("  SHAPE CUBIN ok T TFLOP/s (cuBLAS C)") as its JSON rows, for a run whose JSON
was not written (a time-out): tune4 r2's goal-large.txt. Shapes from bench/suites/anchors.yaml; dtype and B layout
from the cubin's name (f16 / bf16; _nn_ = B row-major). Times from the TFLOP/s (3 significant digits).
  python3 progress_to_json.py IN.txt OUT.json"""
import json, re, sys
shapes = {m.group(1): tuple(int(x) for x in m.group(2, 3, 4)) for m in re.finditer(
    r"name: *(\w+), *m: *(\d+), *n: *(\d+), *k: *(\d+)", open("bench/suites/anchors.yaml").read())}
rows = []
for line in open(sys.argv[1]):
    m = re.match(r"\s+(\S+)\s+(\S+)\s+ok ([\d.]+) TFLOP/s \(cuBLAS ([\d.]+)\)", line)
    if not m:
        continue
    shape, cubin, g, c = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
    mm, n, k = shapes[shape]
    f = 2.0 * mm * n * k
    rows.append(dict(shape=shape, cubin=cubin, kernel="gemm_" + cubin.replace("h200_", ""), status="ok",
                     dtype="bf16" if "bf16" in cubin else "f16", layout="row/row" if "_nn_" in cubin else "row/col",
                     m=mm, n=n, k=k, gemmc_ms=f / g / 1e9, cublas_ms=f / c / 1e9, gemmc_tflops=g, cublas_tflops=c,
                     ratio=g / c, note="from the progress line (no JSON written)"))
json.dump(dict(source=sys.argv[1], rows=rows), open(sys.argv[2], "w"), indent=1)
print(len(rows), "rows")
