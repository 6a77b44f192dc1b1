# alloc.py NAME...: allocation samples of OUT.collapsed (apalloc.diff's script) per 1,000 requests (rps read
# from OUT.txt, a 10 s recording), less the load generator's and the simulated device's threads: by thread group, class, site.
import collections,sys,re
def load(f):
    grp=collections.Counter(); cls=collections.Counter(); site=collections.Counter()
    for l in open(f):
        st,n=l.rstrip('\n').rsplit(' ',1); n=int(n); fr=st.split(';'); th=fr[0]
        if 'gar-load' in th or 'gar-sim' in th: continue
        g=re.sub(r' tid=\d+\]','',th).strip('[')
        g=re.sub(r'-?\d+$','',g)
        grp[g]+=n; cls[fr[-1]]+=n
        # allocation site: deepest non-JDK frame
        s=None
        for x in reversed(fr[1:-1]):
            if x.startswith('dev/gpureactor') : s=x; break
        site[(s or '-')+' -> '+fr[-1]]+=n
    return grp,cls,site
rps={'r16':4209,'w16':None}
for name in sys.argv[1:]:
    txt=open(name+'.txt').read()
    m=re.findall(r'^\S+\s+\d+\s+(\d+)\s',txt,re.M)
    r=int(m[-1]); req=r*10
    g,c,s=load(name+'.collapsed')
    print('==',name,'rps',r,'allocation samples per 1,000 requests (server threads):',round(sum(g.values())*1000/req,2))
    for k,v in g.most_common(8): print('  %8.2f %s'%(v*1000/req,k))
    for k,v in c.most_common(15): print('  %8.2f %s'%(v*1000/req,k))
    for k,v in s.most_common(20): print('  %8.2f %s'%(v*1000/req,k))
