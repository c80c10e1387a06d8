"""Measured / predicted (time_s.predicted of this checkout's gemmc) per stored set: geomean, rms log error,
rows within 10%. GEMMC=... for another build; CACHE=... for its cache."""
import sys, math, os
sys.path.insert(0, os.path.dirname(__file__))
import rows as R, fit
sets = {s: R.rows(s) for s in R.SETS}
sets['anchors'] = R.anchors()
pred = lambda r: r['a']['time_s']['predicted']
allr = [r for rs in sets.values() for r in rs]
for s, rs in list(sets.items()) + [('all', allr)]:
    x = fit.stats(rs, pred)
    print('%-14s n %3d  measured/predicted geomean %.3f  rms log error %.3f  within 10%%: %d' % (s, x['n'], x['geo'], x['rms'], x['within']))
if os.environ.get('V'):
    for r in allr:
        print('%-13s %-22s %-34s %9.1f %9.1f %.2f' % (r['set'], r['shape'][:22], r['cubin'][:34], r['measured'] * 1e6, pred(r) * 1e6, r['measured'] / pred(r)))
