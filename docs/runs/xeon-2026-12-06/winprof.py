import sys,re,collections,subprocess
import os
F_OUT=os.environ.get('FOUT','w%s.out'); F_PERF=os.environ.get('FPERF','w%s.perf')
def prof(m, skip=3):
    wins=[tuple(int(x) for x in l.split()[1:3]) for l in open(F_OUT%m) if l.startswith('WIN')][skip:]
    out=subprocess.run(['perf','script','-i',F_PERF%m,'-F','comm,tid,time,ip,sym','--ns'],capture_output=True,text=True).stdout
    cnt=collections.Counter(); total=collections.Counter()
    for l in out.splitlines():
        m2=re.match(r'\s*(\S.*?)\s+(\d+)\s+(\d+)\.(\d+):\s+(.*)',l)
        if not m2: continue
        comm=m2.group(1); t=int(m2.group(3))*10**9+int(m2.group(4))
        if not any(a<=t<=b for a,b in wins): continue
        sym=m2.group(5).strip()
        sym=re.sub(r'^[0-9a-f]+\s+','',sym)[:100]
        g='carrier' if comm.startswith('gar-carrier-') and 'wat' not in comm else comm
        total[g]+=1
        if g=='carrier': cnt[sym]+=1
    return wins,total,cnt
a=prof('futures'); b=prof('floor')
print('windows',len(a[0]),len(b[0]))
print('futures groups',a[1].most_common(6)); print('floor groups',b[1].most_common(6))
keys=set(a[2])|set(b[2])
for k in sorted(keys,key=lambda k:-(a[2][k]-b[2][k]))[:40]: print(a[2][k],b[2][k],k)
