import re,collections,sys
def load(f, grp):
    c=collections.Counter(); leaf=collections.Counter(); tot=0
    for line in open(f):
        st,n=line.rsplit(' ',1); n=int(n)
        fr=st.split(';')
        if not re.match(grp, fr[0]): continue
        tot+=n; seen=set()
        for x in fr[1:]:
            x=re.sub(r'\$\$Lambda.*','$$Lambda',x)
            if x in seen: continue
            seen.add(x); c[x]+=n
        leaf[re.sub(r'\$\$Lambda.*','$$Lambda',fr[-1])]+=n
    return tot,c,leaf
f,grp,k=sys.argv[1],sys.argv[2],int(sys.argv[3])
tot,c,leaf=load(f,grp)
print('total',tot)
for x,v in c.most_common(k): print('%6d %5.1f%% %s'%(v,100*v/tot,x))
print('-- leaves')
for x,v in leaf.most_common(25): print('%6d %5.1f%% %s'%(v,100*v/tot,x))
