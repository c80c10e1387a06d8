"""Issue 14 (branch fp8l): the L2 traffic of each kernel of an ncu raw-page
CSV (ncu --import R --page raw --csv; scripts/gpu_fp8l.sh's "l2" run), split
by source unit and operation, in GB (sectors x 32 bytes; units of the CSV's
second row honoured). One table, one row a launch, in launch order (gemmc,
its cuBLASLt peer, ...), then every *.sum column of the report per kernel.

    python3 l2_split.py l2.csv
"""
import csv
import sys

SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def value(text, unit):
    try:
        x = float(text.replace(",", ""))
    except ValueError:
        return None
    for base, per in (("sector", 32.0), ("byte", 1.0)):
        if unit.endswith(base) and unit[: -len(base)] in SCALE:
            return x * SCALE[unit[: -len(base)]] * per / 1e9  # GB
    return x


rows = list(csv.reader(open(sys.argv[1])))
if len(rows) < 3:
    sys.exit("no kernel in the CSV")
head, units = rows[0], rows[1]
name = head.index("Kernel Name") if "Kernel Name" in head else 0


def get(r, metric):
    if metric not in head:
        return None
    i = head.index(metric)
    return value(r[i], units[i])


cols = [  # (title, metric); sectors and bytes in GB
    ("us", "gpu__time_duration.sum"),
    ("L2 all", "lts__t_bytes.sum"),
    ("tex rd", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("tex wr", "lts__t_sectors_srcunit_tex_op_write.sum"),
    ("tex atom", "lts__t_sectors_srcunit_tex_op_atom.sum"),
    ("tex red", "lts__t_sectors_srcunit_tex_op_red.sum"),
    ("tex", "lts__t_sectors_srcunit_tex.sum"),
    ("fabric", "lts__t_sectors_srcunit_ltcfabric.sum"),
    ("gcc", "lts__t_sectors_srcunit_gcc.sum"),
    ("all rd", "lts__t_sectors_op_read.sum"),
    ("all wr", "lts__t_sectors_op_write.sum"),
    ("miss", "lts__t_sectors_lookup_miss.sum"),
    ("tex miss", "lts__t_sectors_srcunit_tex_lookup_miss.sum"),
    ("fab miss", "lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum"),
    ("hit %", "lts__t_sector_hit_rate.pct"),
    ("DRAM rd", "dram__bytes_read.sum"),
    ("DRAM wr", "dram__bytes_write.sum"),
]
print("GB (sectors x 32 B) unless titled otherwise; '-' where this ncu gave no such metric")
print("| kernel | " + " | ".join(t for t, _ in cols) + " | sectors / tex request |")
print("|---" * (len(cols) + 2) + "|")
data = [r for r in rows[2:] if len(r) >= len(head)]
for r in data:
    cells = []
    for _, m in cols:
        v = get(r, m)
        cells.append("-" if v is None else f"{v:.3f}" if m != "gpu__time_duration.sum" else f"{v:.1f}")
    sec = get(r, "lts__t_sectors_srcunit_tex.sum")
    req = None
    if "lts__t_requests_srcunit_tex.sum" in head:
        i = head.index("lts__t_requests_srcunit_tex.sum")
        req = value(r[i], "")
    per = "-" if not sec or not req else f"{sec * 1e9 / 32 / req:.2f}"
    print(f"| {r[name][:60]} | " + " | ".join(cells) + f" | {per} |")
print()
for r in data:
    print(f"--- {r[name]}")
    for i, h in enumerate(head):
        if (h.endswith(".sum") or h.endswith(".pct") or h.startswith("launch__")) and r[i] not in ("", "n/a"):
            print(f"  {h}: {r[i]} {units[i]}")
