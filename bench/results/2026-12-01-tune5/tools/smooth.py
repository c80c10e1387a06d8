"""Offline: the mainloop as a p-norm of its parts (fed math, HBM, TMA fills) instead of their max, with the
launch cost L outside the efficiency e; rms log error and within-10% per stored set."""
import sys, math, os
sys.path.insert(0, os.path.dirname(__file__))
import rows as R, fit

def parts(r):
    t = r['a']['time_s']; cov = r['a']['latency']['coverage'] or 1
    return [t['math'] / cov + t['stream_k_refill'] + t['issue_gap'], t['memory'], t['tma_fill']]

def form(e, L, q):
    def pred(r):
        ps = [p for p in parts(r) if p > 0]
        m = max(ps)
        main = m if q is None else m * sum((p / m) ** q for p in ps) ** (1.0 / q)
        return fit.cap((main + r['a']['time_s']['overhead']) / e, r['a']['flops']) + L
    return pred

if __name__ == '__main__':
    fit.WINDOW = float(os.environ.get('WINDOW', '1.44e-3'))
    sets = {s: R.rows(s) for s in R.SETS}
    sets['anchors'] = R.anchors()
    for q in (None, 12, 10, 8, 6):
        for e in (0.87, 0.89, 0.91, 0.93):
            L = 3.8e-6
            st = {s: fit.stats(rs, form(e, L, q)) for s, rs in sets.items()}
            allr = [r for rs in sets.values() for r in rs]
            a = fit.stats(allr, form(e, L, q))
            print('q %-4s e %.2f: all %.3f/%.3f/%d  ' % (q, e, a['geo'], a['rms'], a['within']) +
                  ' '.join('%s %.3f/%.3f/%d' % (s[:9], x['geo'], x['rms'], x['within']) for s, x in st.items()))
