import sys,re,collections
a={l.split('|')[0]:l.strip().split('|') for l in open(sys.argv[1]+'.a')}
b={l.split('|')[0]:l.strip().split('|') for l in open(sys.argv[1]+'.b')}
span=float(sys.argv[2]); req=float(sys.argv[3])
g=collections.defaultdict(lambda:[0,0,0,0])
for k,v in b.items():
    if not v[2]: continue
    o=a.get(k,[k,v[1],'0','0','0'])
    name=v[1]
    d=[int(v[2])-int(o[2] or 0),int(v[3])-int(o[3] or 0),int(v[4])-int(o[4] or 0)]
    x=g[name]; x[0]+=d[0];x[1]+=d[1];x[2]+=d[2];x[3]+=1
tot=[0,0,0]
for n,x in sorted(g.items(),key=lambda kv:-kv[1][0]):
    if x[0]==0 and x[2]==0: continue
    print(f"{n:22s} thr={x[3]:4d} vol/s={x[0]/span:9.0f} vol/req={x[0]/span/req:6.2f} invol/s={x[1]/span:7.0f} cpu={x[2]/100/span:6.3f}")
    tot[0]+=x[0];tot[2]+=x[2]
print(f"TOTAL vol/s={tot[0]/span:.0f} vol/req={tot[0]/span/req:.2f} cpu={tot[2]/100/span:.3f}")
