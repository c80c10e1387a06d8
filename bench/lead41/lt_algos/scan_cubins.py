#!/usr/bin/env python3
"""Which GEMM kernels a cuBLASLt library carries for each GPU architecture (no GPU, no cuobjdump needed).

  bench/lead41/lt_algos/scan_cubins.py [LIB] [--pattern REGEX] [--arch 90] [--list]

LIB defaults to the libcublasLt.so.* that build/lead41/lt_algos links against (else /usr/local/cuda/lib*/).
Every zstd frame in the file (fatbinary entries and cuBLASLt's own kernel blobs) is decompressed with the zstd
command-line tool; the CUDA ELF images among them give the architecture (e_flags) and the kernel names
(.strtab). Prints, per architecture, how many distinct kernel names match --pattern (default: bf16 GEMMs,
"tn" layout), split into wgmma-style (sm90_xmma, cutlass3x_sm90) and mma.sync-style (sm80_xmma, ampere_,
cutlass_80 / cutlass_75, wmma) names; --list prints the names for --arch (default 90: what runs on an H100/H200).
An sm_80 cubin does not run on sm_90: only names found in sm_90 images can be launched on the H200.
"""
import argparse, collections, concurrent.futures as cf, glob, mmap, os, re, struct, subprocess, sys

ZSTD = b'\x28\xb5\x2f\xfd'
# Kernel names, also from inside mangled template names (cutlass::Kernel2<cutlass_80_...>):
NAME = re.compile(rb'(?:sm\d+a?_xmma|cutlass3x_sm\d+|cutlass_\d+|ampere|turing|volta|xmma)[A-Za-z0-9_]*')


def default_lib():
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, '..', '..', '..', 'build', 'lead41', 'lt_algos')
    if os.path.exists(exe):
        try:
            out = subprocess.run(['ldd', exe], capture_output=True, text=True).stdout
            m = re.search(r'libcublasLt\.so\S* => (\S+)', out)
            if m and os.path.exists(m.group(1)):
                return os.path.realpath(m.group(1))
        except OSError:
            pass
    for g in ('/usr/local/cuda/lib/libcublasLt.so.*', '/usr/local/cuda/lib64/libcublasLt.so.*'):
        c = sorted(glob.glob(g))
        if c:
            return os.path.realpath(c[-1])
    sys.exit('scan_cubins: no libcublasLt found; give its path')


def elf_arch(img):
    if img[:4] != b'\x7fELF' or len(img) < 0x34:
        return None
    ef = struct.unpack_from('<I', img, 0x30)[0]
    return (ef >> 8) & 0xff if ef >> 24 else ef & 0xff  # newer ABI keeps the SM in bits 8-15


def decompress(blob):
    r = subprocess.run(['zstd', '-d', '-c', '-q'], input=blob, capture_output=True)
    return r.stdout  # a decoded first frame comes out even when trailing bytes are not zstd


def style(n):
    if re.search(r'sm90|cutlass3x_sm9|gmma|nvjet', n):
        return 'wgmma'
    if re.search(r'sm80_|sm86_|sm75_|ampere_|turing_|cutlass_80|cutlass_75|s16816|s1688|wmma', n):
        return 'mma.sync'
    return 'other'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('lib', nargs='?')
    ap.add_argument('--pattern', default=r'bf16.*gemm.*_tn|gemm.*bf16.*_tn|bf16bf16_bf16f32_f32_tn',
                    help='regex over kernel names (default: bf16 GEMMs, TN layout)')
    ap.add_argument('--arch', type=int, default=90)
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 4)
    a = ap.parse_args()
    lib = a.lib or default_lib()
    pat = re.compile(a.pattern)
    f = open(lib, 'rb')
    m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    pos = []
    p = m.find(ZSTD)
    while p != -1:
        pos.append(p)
        p = m.find(ZSTD, p + 4)
    pos.append(len(m))
    chunks = [(s, min(e, s + (256 << 20))) for s, e in zip(pos, pos[1:])]
    print('# %s: %d zstd frames' % (lib, len(chunks)), file=sys.stderr)
    names = collections.defaultdict(set)
    images = collections.Counter()

    def work(se):
        img = decompress(bytes(m[se[0]:se[1]]))
        sm = elf_arch(img)
        if sm is None:
            return None
        return sm, {x.decode() for x in NAME.findall(img) if pat.search(x.decode())}

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for res in ex.map(work, chunks, chunksize=16):
            if res:
                images[res[0]] += 1
                names[res[0]] |= res[1]
    # uncompressed ELF images (older libraries) too
    p = m.find(b'\x7fELF\x02\x01\x01\x33')
    while p != -1:
        img = bytes(m[p:p + (64 << 20)])
        sm = elf_arch(img)
        if sm:
            images[sm] += 1
            names[sm] |= {x.decode() for x in NAME.findall(img[:8 << 20]) if pat.search(x.decode())}
        p = m.find(b'\x7fELF\x02\x01\x01\x33', p + 4)
    strip = lambda n: re.sub(r'(E+vNT_.*|_(execute|kernel)(_|$).*)$', '', n)  # mangled tail, xmma suffixes
    print('%-6s %7s %10s %10s %8s   (distinct kernel names matching /%s/)' % ('arch', 'images', 'mma.sync', 'wgmma',
                                                                               'other', a.pattern))
    for sm in sorted(images):
        c = collections.Counter(style(n) for n in {strip(n) for n in names[sm]})
        print('sm_%-3d %7d %10d %10d %8d' % (sm, images[sm], c['mma.sync'], c['wgmma'], c['other']))
    fam = collections.Counter()
    for n in {strip(n) for n in names.get(a.arch, ())}:
        if style(n) == 'mma.sync':
            fam[re.sub(r'_\d+x\d+(_\d+x\d+)?_', '_<tile>_', n)] += 1
    print('\nmma.sync-style families in sm_%d images (tile and stages as <tile>: count):' % a.arch)
    for k, v in sorted(fam.items()):
        print('  %-70s %d' % (k, v))
    if a.list:
        print('\nall matching names in sm_%d images:' % a.arch)
        for n in sorted({strip(n) for n in names.get(a.arch, ())}):
            print('  %-9s %s' % (style(n), n))


if __name__ == '__main__':
    main()
