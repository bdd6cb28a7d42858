"""Random multi-queue programs, mostly synchronized: a chain of batches, each
waiting for the previous with a random (often narrow or TOP/BOTTOM) stage
mask, synchronization-1 and -2 set/wait pairs around the waits, release and
acquire of an exclusive buffer, host operations (review18, sixteenth
session). Each queue signals a timeline of its own (`t_qa`, ...), as real
programs do: signals of one timeline on two queues must execute in value
order (VUID-VkSubmitInfo2-semaphore-03882), which a wait with a narrow or
TOP/BOTTOM mask does not give. `prog(seed)` returns a trace."""
import random
# mostly synchronized multi-queue programs: a chain of batches, each waiting for the previous with a
# random (often narrow) stage mask; sync1/sync2 events around the waits; ownership; host ops.
ST = ['COPY','CLEAR','COMPUTE_SHADER','ALL_COMMANDS','ALL_TRANSFER','COPY|CLEAR','TOP_OF_PIPE','BOTTOM_OF_PIPE']
S1 = ['TRANSFER','COMPUTE_SHADER','TRANSFER|COMPUTE_SHADER','ALL_COMMANDS']
def acc_for(st, r, write):
    opts = []
    for s in st.split('|'):
        if s in ('COPY','ALL_TRANSFER','TRANSFER'): opts += (['TRANSFER_WRITE'] if write else ['TRANSFER_READ'])
        if s == 'CLEAR': opts += (['TRANSFER_WRITE'] if write else [])
        if s == 'COMPUTE_SHADER': opts += (['SHADER_WRITE','SHADER_STORAGE_WRITE'] if write else ['SHADER_READ','SHADER_STORAGE_READ'])
        if s == 'ALL_COMMANDS': opts += (['MEMORY_WRITE'] if write else ['MEMORY_READ'])
    if not opts or r.random()<0.2: return 'NONE'
    return '|'.join(sorted(set(r.sample(opts, r.randint(1,len(opts))))))
def acc1(st, r, write):
    a = acc_for(st, r, write)
    return a.replace('SHADER_STORAGE_WRITE','SHADER_WRITE').replace('SHADER_STORAGE_READ','SHADER_READ')
BUF = ['a','b']
def reg(r):
    return r.choice(['a','b','a[0..32]','b[32..64]','x'])
def cmd(r):
    k = r.random()
    src = r.choice(['a','b','x']); dst = r.choice([z for z in ['a','b','x'] if z!=src])
    if k<0.3: return f'copy {src} -> {dst}'
    if k<0.55: return f'fill {r.choice(["a","b","x","a[0..32]"])} {r.randint(1,9)}'
    return f'dispatch k {r.choice(["read","write","rw"])} {src} {r.choice(["read","write"])} {dst}'
def bar(r, allow_host=True):
    s1 = r.choice(ST[:6]); s2 = r.choice(ST[:6])
    if allow_host and r.random()<0.1: return f'barrier {s1}:{acc_for(s1,r,True)} -> HOST:HOST_READ'
    return f'barrier {s1}:{acc_for(s1,r,True)} -> {s2}:{acc_for(s2,r,False)}' + (f' {r.choice(["a","b","x"])}' if r.random()<0.3 else '')
def prog(seed):
    r = random.Random(seed)
    qs = ['qa','qb','qc'][:r.choice([2,3])]
    fam = {'qa':0,'qb':1,'qc':r.choice([0,1,2])}
    L = [f'queue {q} family {fam[q]}' for q in qs]
    L += [f'semaphore t_{q} timeline' for q in qs]
    # An event per queue: device commands of one event on two queues must
    # be ordered (a set on one between the other's reset and set makes it
    # a no-op), which the narrow chains here often leave unordered.
    L += ['semaphore s'] + [f'event {k}_{q}' for q in qs for k in 'ef'] + ['buffer a 64','buffer b 64','buffer x 64 exclusive']
    # The value each queue's timeline last got, and the batch before's
    # (queue, value).
    tv = {q: 0 for q in qs}
    prev = None
    owner = None; released = None
    nb = r.randint(2,5)
    ev_open = {}
    for i in range(nb):
        q = r.choice(qs)
        body = []
        for _ in range(r.randint(1,4)):
            k = r.random()
            if k < 0.45: body.append(cmd(r))
            elif k < 0.7: body.append(bar(r))
            elif k < 0.8:
                # sync1 set/wait pair in the same batch, possibly with a command between
                st = r.choice(S1)
                body.append(f'set-event1 f_{q} {st}')
                if r.random()<0.5: body.append(cmd(r))
                d = r.choice(['TRANSFER','COMPUTE_SHADER','ALL_COMMANDS'])
                body.append(f'wait-events1 f_{q} {st}:{acc1(st,r,True)} -> {d}:{acc1(d,r,False)}')
                body.append(f'reset-event f_{q}')
            elif k < 0.9:
                s1 = r.choice(ST[:6]); s2 = r.choice(ST[:6])
                dep = f'{s1}:{acc_for(s1,r,True)} -> {s2}:{acc_for(s2,r,False)}'
                body.append(f'set-event e_{q} {dep}')
                if r.random()<0.5: body.append(cmd(r))
                body.append(f'wait-events e_{q} {dep}')
                body.append(f'reset-event e_{q}')
            else:
                # ownership release of x from this queue's family to another
                f2 = r.choice([fam[z] for z in qs if fam[z]!=fam[q]] or [fam[q]])
                if f2 != fam[q]:
                    body.append(f'barrier {r.choice(["ALL_COMMANDS:MEMORY_WRITE","COPY:TRANSFER_WRITE","CLEAR:TRANSFER_WRITE"])} -> NONE:NONE x ownership {fam[q]}->{f2}')
                    released = (fam[q], f2)
        # acquire at start if released to this family
        if released and released[1]==fam[q] and r.random()<0.8:
            body.insert(0, f'barrier NONE:NONE -> {r.choice(["ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE","COPY:TRANSFER_READ","COMPUTE_SHADER:SHADER_STORAGE_READ"])} x ownership {released[0]}->{released[1]}')
            released = None
        pre = []
        if r.random()<0.25: pre.append(f'host-write {r.choice(["a","b","x"])} {r.randint(1,9)}')
        sub = f'submit {q}'
        if prev and r.random()<0.85:
            sub += f' wait t_{prev[0]}:{prev[1]}@{r.choice(ST)}'
        tv[q] += 1
        prev = (q, tv[q])
        sub += f' signal t_{q}:{tv[q]}' + (f'@{r.choice(ST)}' if r.random()<0.5 else '')
        L += pre + body + [sub]
        k = r.random()
        if k<0.15: L.append(f'host-wait t_{q} {tv[q]}')
        elif k<0.25: L.append(f'wait {q}')
        elif k<0.3: L.append('wait')
        if r.random()<0.3: L.append(f'host-read {r.choice(["a","b"])}')
        if r.random()<0.2: L.append(f'host-write {r.choice(["a","b"])} 3')
    if r.random()<0.5: L += ['wait', f'host-read {r.choice(["a","b"])}']
    return '\n'.join(L)+'\n'
