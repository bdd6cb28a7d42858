#!/usr/bin/env python3
"""A timeline chain through three queues, for timing `vksync check`
(docs/cli.md): N batches, each of K (default 8) fills or copies over 16
buffers of 4 KiB with a barrier after each, submitted round-robin to
queues a, b, c, each waiting (ALL_COMMANDS) for the value the one before
signalled.

    scripts/chain-trace.py N [K] > chain.trace   (seeded: the same N and K, the same trace)
"""
import random
import sys

n = int(sys.argv[1])
per_batch = int(sys.argv[2]) if len(sys.argv) > 2 else 8
random.seed(1)
lines = ["queue a", "queue b", "queue c", "semaphore s timeline"]
lines += [f"buffer b{i} 4096" for i in range(16)]
for batch in range(n):
    for k in range(per_batch):
        i, j = random.randrange(16), random.randrange(16)
        if random.random() < 0.5 or i == j:
            lines.append(f"fill b{i} {k}")
        else:
            lines.append(f"copy b{i} -> b{j}")
        lines.append("barrier COPY|CLEAR:TRANSFER_WRITE -> COPY|CLEAR:TRANSFER_READ|TRANSFER_WRITE")
    wait = f" wait s:{batch}@ALL_COMMANDS" if batch > 0 else ""
    lines.append(f"submit {'abc'[batch % 3]}{wait} signal s:{batch + 1}")
lines.append("wait")
print("\n".join(lines))
