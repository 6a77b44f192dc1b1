import sys, collections
cats = [
 ('thaw', ['thaw', 'Thaw']),
 ('freeze / yield', ['freeze', 'Freeze', 'Continuation.yield', 'yieldContinuation']),
 ('VT mount/unmount, JVMTI transitions', ['VirtualThread.mount', 'VirtualThread.unmount', 'notify_jvmti', 'VTMS']),
 ('thread end (afterDone, containers, pool live count)', ['VirtualThread.afterDone', 'ThreadContainer', 'CarrierPool.ended', 'LiveThreads']),
 ('the joiner after its park', ['JoinerStack', 'GpuFuture', 'FutureReports']),
 ('the harness body (latch, nanoTime)', ['CountDownLatch', 'ManyP.lambda', 'System.nanoTime']),
 ('between tasks (look)', ['CarrierCapture', 'lendTurns']),
 ('pool task wrapper (runTask, Spread, Run, tally)', ['ForkJoinCarriers', 'CarrierPool.runTask', 'CarrierTally', 'CarrierPool.taskDone']),
 ('VT park (LockSupport.park path)', ['VirtualThread.park', 'LockSupport.park']),
 ('VT runContinuation / Continuation.run', ['VirtualThread.runContinuation', 'Continuation.run', 'enterSpecial', 'Continuation.enter']),
 ('fork-join (scan, steal, idle park)', ['ForkJoinPool', 'ForkJoinTask', 'WorkQueue']),
]
def classify(fr):
    for f in reversed(fr[1:]):
        for name,keys in cats:
            if any(k in f for k in keys): return name
    return 'other'
def load(f):
    tot=0; c=collections.Counter()
    for line in open(f):
        st,n=line.rsplit(' ',1); n=int(n); fr=st.split(';')
        t=fr[0]
        if not (('gar-carrier' in t and 'watch' not in t) or 'ForkJoinPool-' in t): continue
        tot+=n; c[classify(fr)]+=n
    return tot,c
ta,ca=load(sys.argv[1]); tb,cb=load(sys.argv[2])
wa,wb=float(sys.argv[3]),float(sys.argv[4])
print(f"carriers' samples: {ta} and {tb}; scaled to each run's median carrier CPU a wake ({wa} and {wb} ms)")
print(f"{'JDK floor':>17} | {'reactor':>17} |")
for name,_ in cats+[('other',None)]:
    a=100*ca[name]/ta; b=100*cb[name]/tb
    print(f"{a:5.1f}% {wa*a/100:5.2f} ms | {b:5.1f}% {wb*b/100:5.2f} ms | {name}")
