"""Round 3 (out of sample): measured / predicted on the fresh bundle run with this checkout's model and with main's
form (efficiency 0.80, no launch, the max of the parts, window 2.6 ms; bf16 rows, so no f16 clock)."""
import sys, os
sys.path.insert(0, os.path.dirname(__file__))
import rows as R, fit, smooth
for name in R.R3:
    rs = R.rows(name)
    if not rs:
        print(name, 'no rows'); continue
    new = fit.stats(rs, lambda r: r['a']['time_s']['predicted'])
    fit.WINDOW = 2.6e-3
    old = fit.stats(rs, smooth.form(0.80, 0, None))
    print('%-16s n %3d  this model: geomean %.3f rms %.3f within 10%% %d | main form: geomean %.3f rms %.3f within 10%% %d' % (
        name, new['n'], new['geo'], new['rms'], new['within'], old['geo'], old['rms'], old['within']))
