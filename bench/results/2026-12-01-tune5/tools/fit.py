"""Measured / predicted over stored rows for alternative forms of the prediction (offline, no GPU):
pred = cap(model / e) + L, with model = time_s.model (the roofs), cap = docs/model.md 7b's power cap.
  python3 fit.py [SET ...]   (sets: rows.SETS; default all)"""
import math, sys, os
sys.path.insert(0, os.path.dirname(__file__))
import rows as R

WINDOW, SUSTAINED = 2.6e-3, 697e12


def cap(sec, flops):
    if sec <= WINDOW:
        return sec
    return max(sec, WINDOW + flops * (1 - WINDOW / sec) / SUSTAINED)


def stats(rs, pred):
    logs = [math.log(r['measured'] / pred(r)) for r in rs]
    n = len(logs)
    return dict(n=n, geo=math.exp(sum(logs) / n), rms=math.sqrt(sum(l * l for l in logs) / n),
                within=sum(abs(r['measured'] / pred(r) - 1) <= 0.10 for r in rs))


def form(e, L):
    return lambda r: cap(r['a']['time_s']['model'] / e, r['a']['flops']) + L


if __name__ == '__main__':
    sets = sys.argv[1:] or list(R.SETS)
    allrows = {s: R.rows(s) for s in sets}
    for e, L in [(0.80, 0), (0.80, 3.8e-6), (0.85, 2e-6), (0.85, 3e-6), (0.85, 3.8e-6), (0.87, 3e-6), (0.87, 3.8e-6),
                 (0.90, 3.8e-6)]:
        line = ' '.join('%s %.3f/%.3f/%d' % (s, *(lambda x: (x['geo'], x['rms'], x['within']))(stats(allrows[s], form(e, L))))
                        for s in sets)
        print('e %.2f L %.1f us: %s' % (e, L * 1e6, line))
