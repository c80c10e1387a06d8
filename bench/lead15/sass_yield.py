#!/usr/bin/env python3
"""Session 15 experiment: let long runs of FFMA (or FMUL) in a cubin yield.

The block-scaled FP8 kernel folds each K block's MMA accumulator into the f32
sum with 64 FFMAs a half in a row, while the other warpgroup waits to issue
its wgmmas on the same schedulers. ptxas marks such runs with operand-reuse
flags, and an instruction that keeps an operand in the reuse cache does not
let its scheduler switch warps. DeepSeek's DeepGEMM reports 10%+ on its
fine-grained-scaling kernels from clearing the reuse flag and setting the
yield hint on part of each run (their README, "FFMA SASS interleaving").
This script measures the same idea on gemmc's cubins. It needs cuobjdump
(the GPU machine has it; this machine does not).

Each 128-bit sm_90 instruction is two little-endian 64-bit words; in the high
word bits 58-61 are the four operand-reuse flags and bit 45 the yield hint
(the bits DeepGEMM flips). The patched bytes are located through the ELF
section `.text.<kernel>` (offset + the instruction's address) and checked
against cuobjdump's hex before they are written.

  sass_yield.py IN.cubin OUT.cubin [--ops FFMA] [--min-run 8] [--part 0.5625]
                [--mode chain|all] [--stats FILE]

  --mode chain: within the first PART of each run of >= MIN_RUN instructions
      of OPS, an instruction whose reuse flag is set loses it and toggles its
      yield bit where its reused register starts a chain here or continues the
      previous instruction's (a register met again after a break keeps reuse).
  --mode all: every such instruction with a reuse flag in the run's first PART.
"""
import argparse
import re
import struct
import subprocess
import sys

REUSE_MASK = 0xF << 58
YIELD_BIT = 1 << 45
INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\*\s*(0x[0-9a-f]{16})\s*\*/")
HIGH = re.compile(r"^\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx][4]
    out = {}
    for h in heads:
        end = data.index(b"\0", strtab + h[0])
        out[data[strtab + h[0]:end].decode()] = (h[4], h[5])
    return out


def disassemble(path):
    """[(function, [(addr, mnemonic, text, low, high)])] from cuobjdump -sass."""
    text = subprocess.run(["cuobjdump", "-sass", path], check=True, capture_output=True,
                          text=True).stdout.splitlines()
    funcs, cur, pending = [], None, None
    for line in text:
        if "Function :" in line:
            cur = (line.split("Function :")[1].strip(), [])
            funcs.append(cur)
            continue
        m = INSTR.search(line)
        if m and cur:
            pending = m
            continue
        h = HIGH.match(line)
        if h and pending:
            body = pending.group(2)
            words = body.split()
            if words and words[0].startswith("@"):
                words = words[1:]
            mnem = words[0].split(".")[0] if words else ""
            cur[1].append((int(pending.group(1), 16), mnem, body, int(pending.group(3), 16),
                           int(h.group(1), 16)))
            pending = None
    return funcs


def registers(body):
    return re.findall(r"\bR\d+\b", re.sub(r"/\*.*?\*/", "", body))


def runs(instrs, ops, min_run):
    i = 0
    while i < len(instrs):
        j = i
        while j < len(instrs) and instrs[j][1] in ops:
            j += 1
        if j - i >= min_run:
            yield i, j
        i = max(j, i + 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("inp")
    p.add_argument("out")
    p.add_argument("--ops", default="FFMA")
    p.add_argument("--min-run", type=int, default=8)
    p.add_argument("--part", type=float, default=9 / 16)
    p.add_argument("--mode", choices=["chain", "all"], default="chain")
    p.add_argument("--stats")
    a = p.parse_args()
    ops = set(a.ops.split(","))
    data = bytearray(open(a.inp, "rb").read())
    secs = sections(bytes(data))
    stats, changed = [], 0
    for name, instrs in disassemble(a.inp):
        base = secs[".text." + name][0]
        opcodes = {}
        for _, mnem, _, low, high in instrs:
            opcodes.setdefault(mnem, set()).add(low & 0xFFF)
        n_runs = n_changed = 0
        for i, j in runs(instrs, ops, a.min_run):
            n_runs += 1
            last_reused, last_reg, seen = False, None, set()
            for k in range(i, i + int((j - i) * a.part)):
                addr, mnem, body, low, high = instrs[k]
                regs = registers(body)
                reg = regs[2] if len(regs) > 2 else None  # operand b of FFMA / FMUL
                reused = bool(high & REUSE_MASK)
                if reused and (a.mode == "all" or reg not in seen or
                               (last_reused and reg == last_reg)):
                    at = base + addr
                    old = struct.pack("<QQ", low, high)
                    assert bytes(data[at:at + 16]) == old, (name, hex(addr))
                    high = (high & ~REUSE_MASK) ^ YIELD_BIT
                    data[at:at + 16] = struct.pack("<QQ", low, high)
                    reused = False
                    n_changed += 1
                seen.add(reg)
                last_reused, last_reg = reused, reg
        changed += n_changed
        stats.append(f"{name}: {len(instrs)} instructions, {n_runs} runs of {a.ops} >= "
                     f"{a.min_run}, {n_changed} changed; opcodes (low 12 bits) "
                     + ", ".join(f"{m}={sorted(hex(v) for v in opcodes[m])}"
                                 for m in ("FFMA", "FMUL", "FADD", "HMMA", "HGMMA") if m in opcodes))
    open(a.out, "wb").write(data)
    print("\n".join(stats))
    if a.stats:
        open(a.stats, "a").write(f"{a.inp} -> {a.out} ({a.mode}, {a.ops}): \n" + "\n".join(stats) + "\n")
    return 0 if changed else 3


if __name__ == "__main__":
    sys.exit(main())
