#!/usr/bin/env python3
"""bench/lead41/ptx_early_release.py IN.ptx OUT.ptx: a one-part block-scaled K loop (fold_group 1, fold_columns =
BLOCK_N, one stage a K tile) as gemmc emits it releases each K tile's stage at the next loop top, after its fold;
DeepGEMM releases it right after the wgmmas' wait, before the fold. This edit of gemmc's PTX moves the release there
(the scales are read from the stage before the wgmmas are issued, and the fold reads registers only, so the stage is
free once wait_group 0 returns), drops the loop-top release and the one after the loop. Each step asserts the PTX it
expects, so a kernel of another shape fails loudly instead of being edited wrongly. Round p6's kernels only: a probe
of where DeepGEMM's lead comes from, not a lowering."""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()


def one(pattern, where=text, what=''):
    found = re.findall(pattern, where, re.M)
    assert len(found) == 1, f'{what or pattern}: {len(found)} matches'
    return found[0]


# The loop top: "setp.eq %pF, %step, 0; or.pred %pS, %pNotLeader, %pF; @%pS bra BODY; ... mbarrier.arrive ... [%rdE];
# bra.uni BODY" with the empty barrier at base + EMPTY.
top = one(r'^\$(L__BB0_\d+):\n\tsetp\.eq\.b32 \t(%p\d+), %r\d+, 0;\n\tor\.pred \t(%p\d+), (%p\d+), \2;\n'
          r'\t@\3 bra \t\$(L__BB0_\d+);\n((?:\t[^\n]*\n){1,6}?)\tmbarrier\.arrive\.shared\.b64 \t%rd\d+, \[%rd\d+\];\n'
          r'\tbra\.uni \t\$\5;', what='loop-top release')
top_label, not_leader, body = top[0], top[3], top[4]
empty_off = int(one(r'add\.s64 \t%rd\d+, %rd\d+, (\d+);', top[5], 'empty barrier offset'))
# The body: the full barrier's 32-bit address (base + FULL) and the wait on it.
body_text = text[text.index(f'${body}:\n'):]
full_reg, full_off = one(r'\tadd\.s32 \t(%r\d+), %r\d+, (\d+);\n\t// begin inline asm\n\t\{\n\t\.reg \.pred       P1; ',
                         body_text[:4000], 'full barrier address')
full_off = int(full_off)
assert 0 < empty_off - full_off <= 64, (full_off, empty_off)
# The first wait_group 0 after the body's label: insert the release after it.
wait = '\twgmma.wait_group.sync.aligned \t0;'
at = text.index(f'${body}:\n')
w = text.index(wait, at)
release = (f'\n\t{{\n\t.reg .b32 ea;\n\tadd.s32 ea, {full_reg}, {empty_off - full_off};\n'
           f'\t@!{not_leader} mbarrier.arrive.shared.b64 _, [ea];\n\t}}')
text = text[:w + len(wait)] + release + text[w + len(wait):]
# Drop the loop-top release: branch straight to the body.
old_top = f'\t@{top[2]} bra \t${body};'
assert text.count(old_top) == 1
text = text.replace(old_top, f'\tbra.uni \t${body};')
# Drop the release after the loop: "wait_group 0; ...; @%pNotLeader bra SKIP; ... mbarrier.arrive ...; SKIP:".
after = re.search(r'(\twgmma\.wait_group\.sync\.aligned \t0;\n(?:\t[^\n]*\n){0,3}?)\t@' + re.escape(not_leader) +
                  r' bra \t\$(L__BB0_\d+);\n((?:\t[^\n]*\n){1,8}?)\tmbarrier\.arrive\.shared\.b64 \t%rd\d+, \[%rd\d+\];\n\$\2:',
                  text[text.index(f'${top_label}:\n'):])
assert after, 'the release after the loop'
skip = after.group(2)
old_after = f'\t@{not_leader} bra \t${skip};'
start = text.index(f'${top_label}:\n')
pos = text.index(old_after, start)
text = text[:pos] + f'\tbra.uni \t${skip};' + text[pos + len(old_after):]
open(dst, 'w').write(text)
print(f'{src} -> {dst}: release after the wait (full {full_reg} + {empty_off - full_off}); loop top {top_label} and '
      f'the release after the loop dropped')
