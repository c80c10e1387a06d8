import json, subprocess, sys, math, os
sys.path.insert(0, 'bench')
from miss_report import spec_for, analyze
G = os.environ.get('GEMMC', 'build/bin/gemmc')
rows = []
for p in sys.argv[1:]:
    rows += [r for r in json.load(open(p))['rows'] if r['status'] == 'ok']
res = []
for r in rows:
    spec = spec_for(os.getcwd(), r['cubin'])
    a = analyze(G, spec, (r['m'], r['n'], r['k']))
    if not a: continue
    t = a['time_s']; meas = r['gemmc_ms'] * 1e-3
    res.append((r['shape'], r['cubin'], meas, t['predicted'], t['predicted'] - t.get('launch', 0), a['bottleneck']))
for label, idx in (('with launch', 3), ('without launch', 4)):
    logs = [math.log(x[2] / x[idx]) for x in res]
    g = math.exp(sum(logs) / len(logs)); rms = math.sqrt(sum(l * l for l in logs) / len(logs))
    within = sum(abs(x[2] / x[idx] - 1) <= 0.1 for x in res)
    print("%-15s n %d geomean %.3f rms %.3f within 10%%: %d" % (label, len(res), g, rms, within))
small = [x for x in res if x[2] < 60e-6]
for label, idx in (('with launch', 3), ('without launch', 4)):
    logs = [math.log(x[2] / x[idx]) for x in small]
    print("  < 60 us %-15s n %d geomean %.3f rms %.3f" % (label, len(small), math.exp(sum(logs)/len(logs)), math.sqrt(sum(l*l for l in logs)/len(logs))))
if '-v' in os.environ.get('V', ''):
    for x in res: print("%-24s %-36s %8.1f %8.1f %.2f %s" % (x[0], x[1], x[2]*1e6, x[3]*1e6, x[2]/x[3], x[5]))
