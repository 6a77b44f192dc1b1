import re,collections,sys
def load(f, groups):
    leaf=collections.Counter(); incl=collections.Counter(); tot=collections.Counter()
    for l in open(f):
        l=l.rstrip('\n'); 
        if not l: continue
        stack,n=l.rsplit(' ',1); n=int(n)
        fr=stack.split(';'); th=fr[0]
        g=None
        for pre,name in groups:
            if pre in th: g=name;break
        if g is None: continue
        tot[g]+=n
        leaf[fr[-1][:120]]+=n
        for x in set(fr[1:]): incl[x[:120]]+=n
    return leaf,incl,tot
R=load('ap-r512.collapsed',[('gar-parker','parker'),('gar-carrier-','carrier')])
W=load('ap-w512.collapsed',[('ForkJoinPool-2','jdk'),('gar-service-watcher','watcher')])
rr=7479*10; wr=7478*10; us=200
print('reactor groups us/req', {k:round(v*us/rr,1) for k,v in R[2].items()}, 'total', round(sum(R[2].values())*us/rr,1))
print('watcher groups us/req', {k:round(v*us/wr,1) for k,v in W[2].items()}, 'total', round(sum(W[2].values())*us/wr,1))
mode=sys.argv[1] if len(sys.argv)>1 else 'leaf'
i=0 if mode=='leaf' else 1
keys=set(R[i])|set(W[i])
rows=sorted(keys,key=lambda k:-(R[i][k]*us/rr - W[i][k]*us/wr))
N=int(sys.argv[2]) if len(sys.argv)>2 else 35
print('--- reactor more')
for k in rows[:N]: print(f"{R[i][k]*us/rr:7.2f} {W[i][k]*us/wr:7.2f}  {k}")
print('--- watcher more')
for k in rows[-15:]: print(f"{R[i][k]*us/rr:7.2f} {W[i][k]*us/wr:7.2f}  {k}")
