"""Small taichi programs on its Vulkan backend, each checked against numpy.

Run as `python app.py`; prints one `ok NAME` line per program whose
results match numpy and exits 1 on the first mismatch (or 2 when taichi
cannot start its Vulkan backend). tests/taichi/run.sh runs it under
`vksync capture`.

- `fields`: a field filled by one kernel, scaled by a second, reduced by a
  third (atomics), read back with `to_numpy`.
- `ndarray`: an ndarray written from numpy, transformed in place by a kernel
  several times, read back.
"""

import sys

import numpy as np
import taichi as ti

try:
    ti.init(arch=ti.vulkan, offline_cache=False, log_level=ti.WARN)
except Exception as e:  # noqa: BLE001 - any failure to start is reported the same way
    print(f"taichi cannot start its Vulkan backend: {e}")
    sys.exit(2)
if ti.lang.impl.current_cfg().arch != ti.vulkan:
    print("taichi fell back from Vulkan")
    sys.exit(2)

N = 4096


def check(name, got, want):
    if not np.array_equal(got, want):
        bad = int(np.sum(got != want))
        print(f"MISMATCH {name}: {bad} of {np.size(want)} values differ")
        sys.exit(1)
    print(f"ok {name}")


def fields():
    x = ti.field(ti.i32, shape=N)
    total = ti.field(ti.i32, shape=())

    @ti.kernel
    def fill():
        for i in x:
            x[i] = i * 3 + 1

    @ti.kernel
    def scale(k: ti.i32):
        for i in x:
            x[i] = x[i] * k

    @ti.kernel
    def reduce():
        for i in x:
            total[None] += x[i] % 7

    fill()
    scale(5)
    reduce()
    want = (np.arange(N, dtype=np.int64) * 3 + 1) * 5
    check("fields", x.to_numpy(), want.astype(np.int32))
    check("fields (reduction)", np.int64(total[None]), np.int64(np.sum(want % 7)))


def ndarray():
    a = ti.ndarray(ti.i32, shape=N)

    @ti.kernel
    def step(arr: ti.types.ndarray(), k: ti.i32):
        for i in arr:
            arr[i] = arr[i] * 2 + k

    data = np.arange(N, dtype=np.int32)
    a.from_numpy(data)
    want = data.astype(np.int64)
    for k in range(5):
        step(a, k)
        want = want * 2 + k
    check("ndarray", a.to_numpy(), want.astype(np.int32))


fields()
ndarray()
