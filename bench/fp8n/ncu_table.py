"""Issue 14 (branch fp8n): the metrics scripts/gpu_fp8n.sh's ncu run asked
for, one row a profiled launch, from the raw page (ncu --import R --page raw
--csv > R.csv):

    python3 bench/fp8n/ncu_table.py prof.csv

Per launch: time, cycles (max over SMs), clock, the tensor pipe's active
share (all tensor ops, and hmma/hgmma/qgmma), wgmma instructions, shared
memory's pipe activity, its LSU wavefronts (all, wgmma operand reads), their
bank conflicts, the L1TEX throughput and TMA's bytes from L2. Counts are
totals of the launch: compare kernels at the same shape.
"""
import csv
import sys

WANTED = [
    ("time us", "gpu__time_duration.sum", 1e3),
    ("cycles", "sm__cycles_elapsed.max", 1),
    ("GHz", "sm__cycles_elapsed.avg.per_second", 1),
    ("tensor %", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", 1),
    ("qgmma %", "sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.avg.pct_of_peak_sustained_active", 1),
    ("gmma inst", "sm__inst_executed_pipe_tensor_op_gmma.sum", 1),
    ("shared pipe %", "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active", 1),
    ("smem wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1),
    ("gmma wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", 1),
    ("smem wf % peak", "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed", 1),
    ("gmma conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum", 1),
    ("l1tex %", "l1tex__throughput.avg.pct_of_peak_sustained_active", 1),
    ("TMA bytes", "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", 1),
]


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return None


rows = list(csv.reader(open(sys.argv[1], newline="")))
head, units, data = rows[0], rows[1], rows[2:]
col = {n: i for i, n in enumerate(head)}
print("launch | kernel | " + " | ".join(w[0] for w in WANTED))
for j, r in enumerate(data):
    cells = []
    for label, name, scale in WANTED:
        i = col.get(name)
        v = num(r[i]) if i is not None and i < len(r) else None
        if v is None:
            cells.append("-")
            continue
        # gpu__time_duration comes in the unit ncu chose (ms or us).
        if name == "gpu__time_duration.sum":
            u = units[i]
            v = v * {"ms": 1e3, "us": 1, "usecond": 1, "msecond": 1e3, "ns": 1e-3, "nsecond": 1e-3}.get(u, 1)
        cells.append(f"{v:.4g}" if abs(v) < 1e6 else f"{v:.4e}")
    print(f"{j} | {r[col['Kernel Name']]} | " + " | ".join(cells))
