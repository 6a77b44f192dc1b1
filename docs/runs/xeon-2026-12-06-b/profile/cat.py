import collections,sys
def cats(f, pres, rps):
    c=collections.Counter(); tot=0
    for l in open(f):
        l=l.rstrip('\n')
        if not l: continue
        s,n=l.rsplit(' ',1); n=int(n); fr=s.split(';')
        if not any(p in fr[0] for p in pres): continue
        tot+=n
        leaf=fr[-1]; st=';'.join(fr)
        if leaf.endswith('_[k]') or 'syscall' in leaf or leaf in ('__futex_abstimed_wait_common','__GI___lll_lock_wake'):
            # kernel: by what the thread was doing
            if 'futex' in st and ('park' in st.lower() or 'Parker::park' in st or 'Unsafe_Park' in st): k='kernel: park (sleep/wake)'
            elif 'Unsafe_Unpark' in st or 'unpark' in st.lower() or 'futex_wake' in st: k='kernel: unpark (wake another)'
            elif 'write' in st or 'send' in st or 'tcp' in st: k='kernel: socket write/read'
            elif 'read' in st or 'recv' in st or 'epoll' in st: k='kernel: socket write/read'
            else: k='kernel: other'
        elif 'ServiceBench' in st and ('answer' in st or 'reply' in st or 'lambda$start' in st) or 'httpserver' in st:
            k='handler (HTTP, work launch, reply)'
        elif 'thaw' in leaf or 'freeze' in leaf or 'Continuation' in leaf or 'StackChunk' in leaf:
            k='continuation mount/unmount'
        elif 'dev/gpureactor' in leaf:
            k='reactor java (leaf in dev.gpureactor)'
        elif 'ForkJoin' in leaf or 'CompletableFuture' in leaf:
            k='FJP / CompletableFuture'
        else:
            k='other (JVM, JDK)'
        c[k]+=n
    us=200/(rps*10)
    return {k:v*us for k,v in c.items()}, tot*us
r,rt=cats('ap-r16.collapsed',['gar-parker','gar-carrier-'],4026)
w,wt=cats('ap-w16.collapsed',['ForkJoinPool-2','gar-service-watcher'],4046)
print(f"16 clients, waiting threads, us a request (under the profiler): reactor {rt:.1f}, watcher {wt:.1f}")
for k in sorted(set(r)|set(w), key=lambda k:-(r.get(k,0)-w.get(k,0))):
    print(f"{r.get(k,0):7.2f} {w.get(k,0):7.2f} {r.get(k,0)-w.get(k,0):+7.2f}  {k}")
r,rt=cats('ap-r512.collapsed',['gar-parker','gar-carrier-'],7479)
w,wt=cats('ap-w512.collapsed',['ForkJoinPool-2','gar-service-watcher'],7478)
print(f"512 clients: reactor {rt:.1f}, watcher {wt:.1f}")
for k in sorted(set(r)|set(w), key=lambda k:-(r.get(k,0)-w.get(k,0))):
    print(f"{r.get(k,0):7.2f} {w.get(k,0):7.2f} {r.get(k,0)-w.get(k,0):+7.2f}  {k}")
