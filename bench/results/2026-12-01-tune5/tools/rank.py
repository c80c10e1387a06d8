"""Offline: is the measured best of each shape (one run) in the top 3 of a prediction form? (rerank_sweep.py's
check, with twins within 0.5% counted as one rank.)"""
import sys, os, math
sys.path.insert(0, os.path.dirname(__file__))
import rows as R, fit, smooth

def top3(rs, pred):
    by = {}
    for r in rs:
        by.setdefault(r['shape'], []).append(r)
    hits = 0; n = 0; miss = []
    for shape, cands in by.items():
        if len(cands) < 2: continue
        n += 1
        best = min(cands, key=lambda r: r['measured'])
        p = sorted(pred(r) for r in cands)
        ranks = []  # distinct predicted values (twins within 0.5%)
        for x in p:
            if not ranks or x > ranks[-1] * 1.005: ranks.append(x)
        rank = sum(1 for x in ranks if x < pred(best) / 1.005) + 1
        if rank <= 3: hits += 1
        else: miss.append((shape, best['cubin'], rank))
    return hits, n, miss

if __name__ == '__main__':
    fit.WINDOW = 1.44e-3
    for s in ('tune3r1', 'tune4r1'):
        rs = R.rows(s)
        for label, pr in (('max e.87', smooth.form(0.87, 3.8e-6, None)), ('q8 e.89', smooth.form(0.89, 3.8e-6, 8)),
                          ('q10 e.88', smooth.form(0.88, 3.8e-6, 10)), ('q6 e.91', smooth.form(0.91, 3.8e-6, 6))):
            h, n, miss = top3(rs, pr)
            print(s, label, '%d/%d' % (h, n), miss)
