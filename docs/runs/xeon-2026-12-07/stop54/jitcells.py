# Per cell of a `gar service` run recorded with jdk.Compilation and jdk.Deoptimization:
# compilations, their compiler time, deoptimisations; then the C2 compilations of the parker's loop
# and the traps that threw it away. Usage: jfr print --json --events jdk.Compilation,jdk.Deoptimization R.jfr > R.json;
# python3 jitcells.py R.json service-output.txt
import json, re, sys, collections, datetime
ev = json.load(open(sys.argv[1]))['recording']['events']
t = lambda e: datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp()
t0 = min(t(e) for e in ev)
cells = [(int(m.group(1)), m.group(3)) for m in (re.match(r'gar service:\s+(\d+)s \[(\d+)/\d+\] (.*?): ', l) for l in open(sys.argv[2])) if m]
def cell_of(x):  # a cell ends at its progress line's second (rounded down), so allow one second
    for i, (end, _) in enumerate(cells):
        if x <= end + 1.0: return i
    return len(cells)
dur = lambda v: float(re.match(r'PT([\d.]+)S', v['duration']).group(1)) if re.match(r'PT([\d.]+)S', v['duration']) else 0.0
name = lambda m: m['type']['name'].split('/')[-1] + '.' + m['name']
comp, deopt = collections.defaultdict(lambda: [0, 0.0]), collections.Counter()
ids = {}
for e in ev:
    v, c = e['values'], cell_of(t(e) - t0)
    if e['type'] == 'jdk.Compilation':
        comp[c][0] += 1; comp[c][1] += dur(v); ids[v['compileId']] = name(v['method'])
    else:
        deopt[c] += 1
print('cell  what                                   compilations  compiler s  deopts')
for i in range(len(cells)):
    print(f'{i + 1:4}  {cells[i][1]:38} {comp[i][0]:12} {comp[i][1]:11.2f} {deopt[i]:7}')
print('\nThe parker loop (LineParker.loop) compiled by C2, and the traps in code compiled into it:')
for e in sorted(ev, key=t):
    v = e['values']
    if e['type'] == 'jdk.Compilation' and name(v['method']) == 'LineParker.loop' and v['compileLevel'] == 4:
        print(f'  {t(e) - t0:6.1f} s  C2 compile, {dur(v):.3f} s, {v["codeSize"]} bytes of code')
    if e['type'] == 'jdk.Deoptimization' and ids.get(v['compileId']) == 'LineParker.loop':
        print(f'  {t(e) - t0:6.1f} s  trap: {v["reason"]} at {name(v["method"])} line {v["lineNumber"]}, {v["action"]}')
