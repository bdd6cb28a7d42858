"""Random multi-queue programs, mixed: 2-3 queues of mixed families, binary
and timeline semaphores (waits before signals, older values), host signals
and waits, fences, host reads and writes, synchronization-1 and -2 events,
ownership transfers, random masks (review18, sixteenth session). `prog(seed)`
returns a trace; many are invalid on purpose (the driver counts them)."""
import random

STAGES_ACC = {
 'COPY': ['TRANSFER_READ','TRANSFER_WRITE'],
 'CLEAR': ['TRANSFER_WRITE'],
 'COMPUTE_SHADER': ['SHADER_STORAGE_READ','SHADER_STORAGE_WRITE','SHADER_READ','SHADER_WRITE'],
 'ALL_COMMANDS': ['MEMORY_READ','MEMORY_WRITE'],
 'ALL_TRANSFER': ['TRANSFER_READ','TRANSFER_WRITE'],
}
SIG_STAGES = ['ALL_COMMANDS','COPY','CLEAR','COMPUTE_SHADER','COPY|CLEAR','ALL_TRANSFER','TOP_OF_PIPE','BOTTOM_OF_PIPE','COMPUTE_SHADER|COPY']

def side(r, dst=False):
    st = r.choice(['COPY','CLEAR','COMPUTE_SHADER','ALL_COMMANDS','COPY|COMPUTE_SHADER','ALL_TRANSFER'])
    accs = set()
    for s in st.split('|'):
        for a in STAGES_ACC[s]:
            if r.random() < 0.35: accs.add(a)
    if r.random() < 0.15: accs = set()
    if dst and r.random() < 0.12:
        return 'HOST:HOST_READ' if r.random()<0.7 else 'HOST:HOST_READ|HOST_WRITE'
    if not dst and r.random() < 0.05:
        return 'HOST:HOST_WRITE'
    return st + ':' + ('|'.join(sorted(accs)) if accs else 'NONE')

BUFS = ['a','b','c']
def region(r):
    b = r.choice(BUFS)
    k = r.random()
    if k < 0.5: return f'{b}[0..64]'
    if k < 0.75: return f'{b}[0..32]'
    return f'{b}[32..64]'

def prog(seed, nq=None):
    r = random.Random(seed)
    nq = nq or r.choice([2,2,3])
    qs = ['qa','qb','qc'][:nq]
    fams = {'qa':0,'qb':r.choice([0,1]),'qc':r.choice([1,2])}
    own = r.random() < 0.3
    lines = []
    for q in qs: lines.append(f'queue {q} family {fams[q]}')
    lines.append('semaphore s'); lines.append('semaphore s2')
    lines.append('semaphore t timeline'); lines.append('semaphore u timeline')
    use_events = r.random() < 0.4
    if use_events:
        lines.append('event e'); lines.append('event f')
    for b in BUFS:
        ex = ' exclusive' if (own and b=='c') else ''
        lines.append(f'buffer {b} 64{ex}')
    nbatch = r.randint(2,5)
    tval = {'t':0,'u':0}
    bin_pending = {'s':False,'s2':False}
    cmds = 0
    ev_set = {}   # event -> (queue, text) pending wait
    for bi in range(nbatch):
        q = r.choice(qs)
        body = []
        for _ in range(r.randint(1,4)):
            k = r.random()
            if k < 0.18:
                src = region(r); dst = region(r)
                if src.split('[')[0]==dst.split('[')[0]:
                    dst = dst.replace(dst.split('[')[0], [x for x in BUFS if x!=src.split('[')[0]][0],1)
                # sizes equal
                def sz(x):
                    a,b_ = x.split('[')[1].rstrip(']').split('..'); return int(b_)-int(a)
                if sz(src)!=sz(dst): dst = dst.split('[')[0]+src[src.index('['):]
                body.append(f'copy {src} -> {dst}')
            elif k < 0.32:
                body.append(f'fill {region(r)} {r.randint(1,9)}')
            elif k < 0.45:
                bind = r.choice(['read','write','rw'])
                b2 = r.choice(['read','write'])
                x = region(r); y = region(r)
                if x.split('[')[0]==y.split('[')[0]: y = x
                body.append(f'dispatch k {bind} {x}' + ('' if y==x else f' {b2} {y}'))
            elif k < 0.68:
                reg = (' '+region(r)) if r.random()<0.3 else ''
                if own and r.random()<0.4:
                    reg = ' c[0..64]'
                    fa = r.choice([0,1,2]); fb = r.choice([0,1,2])
                    reg += f' ownership {fa}->{fb}'
                    body.append(f'barrier {side(r)} -> {side(r,True).replace("HOST:HOST_READ|HOST_WRITE","COPY:TRANSFER_READ").replace("HOST:HOST_READ","COPY:TRANSFER_READ")}{reg}')
                else:
                    body.append(f'barrier {side(r)} -> {side(r,True)}{reg}')
            elif k < 0.78 and use_events:
                ev = 'e'
                if ev in ev_set and ev_set[ev][0]==q:
                    body.append(f'wait-events e {ev_set[ev][1]}')
                    body.append('reset-event e')
                    del ev_set[ev]
                elif ev not in ev_set:
                    s1 = side(r); s2 = side(r,True)
                    if 'HOST' in s1 or 'HOST' in s2: s1='COPY:TRANSFER_WRITE'; s2='COMPUTE_SHADER:SHADER_STORAGE_READ'
                    reg = (' '+region(r)) if r.random()<0.3 else ''
                    txt = f'{s1} -> {s2}{reg}'
                    body.append(f'set-event e {txt}')
                    ev_set[ev] = (q, txt)
            elif k < 0.86 and use_events:
                S1 = ['TRANSFER','COMPUTE_SHADER','ALL_COMMANDS']
                if 'f' in ev_set and ev_set['f'][0]==q:
                    st = ev_set['f'][1]
                    acc = r.choice(['NONE','TRANSFER_WRITE','SHADER_WRITE','MEMORY_WRITE'])
                    if acc=='TRANSFER_WRITE' and st=='COMPUTE_SHADER': acc='NONE'
                    if acc=='SHADER_WRITE' and st=='TRANSFER': acc='NONE'
                    dst = r.choice(['TRANSFER:TRANSFER_READ','COMPUTE_SHADER:SHADER_READ','TRANSFER:TRANSFER_WRITE','ALL_COMMANDS:MEMORY_READ','TRANSFER:NONE'])
                    body.append(f'wait-events1 f {st}:{acc} -> {dst}')
                    if r.random()<0.5:
                        body.append('reset-event f'); del ev_set['f']
                elif 'f' not in ev_set:
                    st = r.choice(S1)
                    body.append(f'set-event1 f {st}')
                    ev_set['f'] = (q, st)
            else:
                # rewrite: more commands
                body.append(f'fill {region(r)} {r.randint(1,9)}')
        # host ops before the submit occasionally
        pre = []
        if r.random()<0.2:
            pre.append(f'host-write {region(r)} {r.randint(1,9)}')
        waits=[]; sigs=[]
        if r.random()<0.5:
            # wait on something
            if bin_pending['s'] and r.random()<0.5:
                waits.append(f'wait s@{r.choice(SIG_STAGES)}'); bin_pending['s']=False
            elif tval['t']>0 and r.random()<0.7:
                v = r.randint(1,tval['t'])
                waits.append(f'wait t:{v}@{r.choice(SIG_STAGES)}')
            elif r.random()<0.2:
                # wait before signal
                waits.append(f'wait u:{tval["u"]+1}@{r.choice(SIG_STAGES)}')
        if r.random()<0.6:
            if not bin_pending['s'] and r.random()<0.4:
                sigs.append(f'signal s@{r.choice(SIG_STAGES)}' if r.random()<0.6 else 'signal s'); bin_pending['s']=True
            else:
                tval['t'] += r.randint(1,2)
                st = r.choice(SIG_STAGES)
                sigs.append(f'signal t:{tval["t"]}@{st}' if r.random()<0.6 else f'signal t:{tval["t"]}')
        if any(w.startswith('wait u:') for w in waits):
            pass
        lines += body + pre
        lines.append(' '.join([f'submit {q}'] + waits + sigs))
        # host-side ops
        for _ in range(r.randint(0,2)):
            k = r.random()
            if k < 0.2: lines.append('wait')
            elif k < 0.4: lines.append(f'wait {r.choice(qs)}')
            elif k < 0.55 and tval['t']>0: lines.append(f'host-wait t {r.randint(1,tval["t"])}')
            elif k < 0.75: lines.append(f'host-read {region(r)}')
            elif k < 0.9: lines.append(f'host-write {region(r)} {r.randint(1,9)}')
            elif any(w.startswith('wait u:') for l in lines for w in [l.split(' ',2)[-1]] if 'wait u:' in l):
                tval['u'] += 1
                lines.append(f'host-signal u {tval["u"]}')
    # satisfy pending u waits
    if any('wait u:' in l for l in lines):
        need = max(int(l.split('wait u:')[1].split('@')[0]) for l in lines if 'wait u:' in l)
        if tval['u'] < need:
            if r.random()<0.5:
                lines.append(f'host-signal u {need}')
            else:
                lines.append(f'submit {r.choice(qs)} signal u:{need}')
    if r.random()<0.5:
        lines.append('wait')
        lines.append(f'host-read {region(r)}')
    return '\n'.join(lines)+'\n'
