import json,sys,math
rows={}
for name in ['bf16_tn','bf16_auto','bf16_autosplit']:
    for r in json.load(open(f'{sys.argv[1] if len(sys.argv)>1 else "."}/{name}.json'))['rows']:
        if r['status']!='ok': continue
        rows.setdefault(r['shape'],{})[name]=(r['ratio'],r['kernel'],r['m'],r['n'],r['k'])
cnt={'tn>=auto':0,'split>=auto':0,'split>=tn':0}
bands={}
gm={k:[] for k in ['bf16_tn','bf16_auto','bf16_autosplit']}
for s,d in rows.items():
    t,a,sp=d['bf16_tn'][0],d['bf16_auto'][0],d['bf16_autosplit'][0]
    m,n,k=d['bf16_tn'][2:]
    for kk in gm: gm[kk].append(math.log(d[kk][0]))
    cnt['tn>=auto']+= t>=a*0.99
    cnt['split>=auto']+= sp>=a*0.99
    cnt['split>=tn']+= sp>=t*0.99
    band='M<=16' if m<=16 else 'M<=64' if m<=64 else 'M<=128' if m<=128 else 'M<=512' if m<=512 else 'M<=1024' if m<=1024 else 'M>1024'
    b=bands.setdefault(band,{kk:[] for kk in gm}); 
    for kk in gm: b[kk].append(math.log(d[kk][0]))
    print(f"{s:24s} {m:6d}x{n:6d}x{k:6d} tn {t:.3f} auto {a:.3f} split {sp:.3f}  {d['bf16_autosplit'][1]}")
print(len(rows), cnt)
for kk,v in gm.items(): print(kk, 'geomean', round(math.exp(sum(v)/len(v)),3))
for band,b in bands.items(): print(band, len(b['bf16_tn']), ' '.join(f"{kk}={math.exp(sum(v)/len(v)):.3f}" for kk,v in b.items()))
