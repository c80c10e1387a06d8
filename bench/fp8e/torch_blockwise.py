"""Issue 14's block-scaled peer through PyTorch (run by scripts/gpu_fp8e.sh on
the GPU machine, when it has torch): torch._scaled_mm with 1x128 scales on A
and 128x128 on B (DeepSeek-V3's blocks, f32 scales), bf16 out, no fast
accumulation (PyTorch refuses it with block scales). Prints torch's and
cuBLAS's versions, then per shape each scale layout tried and the exact
answer; a layout that runs is timed (CUDA events, 20 runs after 3, median).
A (M, K) row-major; B (K, N) column-major (the transpose of an (N, K)
row-major tensor), as gemmc's K-major FP8 operands."""
import sys

try:
    import torch
except Exception as e:  # no torch on the machine: that is the answer
    print(f"torch: not importable: {type(e).__name__}: {e}")
    sys.exit(0)

print(f"torch {torch.__version__}, CUDA {torch.version.cuda}")
if not torch.cuda.is_available():
    print("torch: no CUDA device")
    sys.exit(0)
print(f"device {torch.cuda.get_device_name(0)}, sm_{''.join(map(str, torch.cuda.get_device_capability(0)))}")
if not hasattr(torch, "_scaled_mm"):
    print("torch: no torch._scaled_mm")
    sys.exit(0)

shapes = [(a, int(m), int(n), int(k)) for a, m, n, k in (s.split(":") for s in sys.argv[1:])] or \
    [("cube4096", 4096, 4096, 4096)]


def cdiv(x, y):
    return (x + y - 1) // y


for name, m, n, k in shapes:
    a = (torch.rand(m, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    b = (torch.rand(n, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn).t()
    kb, nb = cdiv(k, 128), cdiv(n, 128)
    # scale_a: (M, K/128) M-major; scale_b: its transpose is (N/128, K/128)
    # K-major, K blocks unpadded or padded to 4 (PyTorch versions differ).
    sa = torch.rand(kb, m, device="cuda").add(0.5).t()
    layouts = {}
    for pad in (kb, cdiv(kb, 4) * 4):
        sbt = torch.rand(nb, pad, device="cuda").add(0.5)[:, :kb]
        layouts[f"scale_b K blocks padded to {pad}"] = sbt.t()
    for what, sb in layouts.items():
        try:
            out = torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=False)
            torch.cuda.synchronize()
        except Exception as e:
            msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
            print(f"{name} {m}x{n}x{k} {what}: refused: {type(e).__name__}: {msg}")
            continue
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        times = []
        for i in range(23):
            ev[0].record()
            torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=False)
            ev[1].record()
            torch.cuda.synchronize()
            if i >= 3:
                times.append(ev[0].elapsed_time(ev[1]))
        t = sorted(times)[len(times) // 2]
        print(f"{name} {m}x{n}x{k} {what}: ok, median {t * 1e3:.1f} us, {2.0 * m * n * k / t / 1e9:.1f} TFLOP/s")
        break
