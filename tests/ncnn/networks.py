#!/usr/bin/env python3
"""Small ncnn networks, written here, run on ncnn's Vulkan path and on its
CPU path, outputs compared.

Each network is a `.param` text (ncnn's layer-per-line format: magic
7767517, layer and blob counts, then `Type name n_in n_out ins... outs...
key=value...`) and a `.bin` of random weights (per weighted layer: a
4-byte zero tag saying "float32 follows", the weights, then the raw float32
bias). The script writes both into a temporary directory, loads the network
twice (use_vulkan_compute off, then on), feeds the same random input and
compares the outputs with a tolerance that covers fp16 storage on the GPU.

Used by `vksync capture` (tests/ncnn/run.sh, docs/capture.md "Real ncnn"):
the Vulkan run is what the capture layer records.

Usage: networks.py [--only NAME[,NAME...]] [--list] [--gpu-only] [--repeat N]
                   [--destroy-gpu-instance]
Exit status 0 when every network matches, 1 on a mismatch, 2 when ncnn
sees no Vulkan device.
"""

import argparse
import os
import struct
import zlib
import sys
import tempfile

import numpy as np
import ncnn

MAGIC = 7767517


class Net:
    """A network under construction: param lines and weight bytes."""

    def __init__(self, name, c, h, w):
        self.name = name
        self.lines = []
        self.blobs = set()
        self.weights = bytearray()
        self.shape = (c, h, w)
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        self.layer("Input", "data", [], ["data"], {0: w, 1: h, 2: c})

    def layer(self, ty, name, ins, outs, params):
        kv = " ".join(f"{k}={v}" for k, v in params.items())
        self.lines.append(f"{ty} {name} {len(ins)} {len(outs)} {' '.join(ins + outs)} {kv}".rstrip())
        self.blobs.update(outs)

    def floats(self, n, tagged):
        if tagged:
            self.weights += struct.pack("<I", 0)
        data = self.rng.uniform(-0.5, 0.5, n).astype("<f4")
        self.weights += data.tobytes()

    def conv(self, name, src, dst, cin, cout, k=3, stride=1, pad=1, group=1):
        ty = "Convolution" if group == 1 else "ConvolutionDepthWise"
        size = cout * (cin // group) * k * k
        params = {0: cout, 1: k, 3: stride, 4: pad, 5: 1, 6: size}
        if group != 1:
            params[7] = group
        self.layer(ty, name, [src], [dst], params)
        self.floats(size, tagged=True)
        self.floats(cout, tagged=False)

    def param_text(self):
        return f"{MAGIC}\n{len(self.lines)} {len(self.blobs)}\n" + "\n".join(self.lines) + "\n"


def conv_relu():
    n = Net("conv_relu", 3, 16, 16)
    n.conv("conv1", "data", "c1", 3, 8)
    n.layer("ReLU", "relu1", ["c1"], ["r1"], {})
    n.conv("conv2", "r1", "c2", 8, 8)
    n.layer("ReLU", "relu2", ["c2"], ["out"], {})
    return n


def depthwise():
    n = Net("depthwise", 8, 16, 16)
    n.conv("dw1", "data", "d1", 8, 8, group=8)
    n.layer("ReLU", "relu1", ["d1"], ["r1"], {})
    n.conv("pw1", "r1", "out", 8, 16, k=1, pad=0)
    return n


def residual():
    n = Net("residual", 8, 16, 16)
    n.conv("conv1", "data", "c1", 8, 8)
    n.layer("Split", "split1", ["c1"], ["c1a", "c1b"], {})
    n.conv("conv2", "c1a", "c2", 8, 8)
    n.layer("ReLU", "relu2", ["c2"], ["r2"], {})
    n.layer("BinaryOp", "add", ["r2", "c1b"], ["out"], {0: 0})
    return n


def concat():
    n = Net("concat", 8, 16, 16)
    n.layer("Split", "split1", ["data"], ["da", "db"], {})
    n.conv("conva", "da", "ca", 8, 8)
    n.conv("convb", "db", "cb", 8, 8, k=1, pad=0)
    n.layer("Concat", "cat", ["ca", "cb"], ["out"], {0: 0})
    return n


def pooling():
    n = Net("pooling", 8, 16, 16)
    n.conv("conv1", "data", "c1", 8, 8)
    n.layer("Pooling", "maxpool", ["c1"], ["p1"], {0: 0, 1: 2, 2: 2})
    n.layer("Pooling", "avgpool", ["p1"], ["p2"], {0: 1, 1: 3, 2: 1, 3: 1})
    n.layer("Pooling", "gap", ["p2"], ["out"], {0: 1, 4: 1})
    return n


def block():
    """All of the above in one network: blobs recycled across layers."""
    n = Net("block", 4, 32, 32)
    n.conv("conv1", "data", "c1", 4, 16)
    n.layer("ReLU", "relu1", ["c1"], ["r1"], {})
    n.layer("Split", "split1", ["r1"], ["r1a", "r1b", "r1c"], {})
    n.conv("dw", "r1a", "d1", 16, 16, group=16)
    n.layer("ReLU", "relu2", ["d1"], ["r2"], {})
    n.conv("pw", "r2", "c2", 16, 16, k=1, pad=0)
    n.layer("BinaryOp", "add", ["c2", "r1b"], ["s1"], {0: 0})
    n.conv("side", "r1c", "c3", 16, 8, k=1, pad=0)
    n.layer("Concat", "cat", ["s1", "c3"], ["cat"], {0: 0})
    n.layer("Pooling", "pool", ["cat"], ["p1"], {0: 0, 1: 2, 2: 2})
    n.conv("head", "p1", "out", 24, 8)
    return n


NETWORKS = {f.__name__: f for f in (conv_relu, depthwise, residual, concat, pooling, block)}


def load(net, dirname, vulkan):
    """Writes `net`'s .param and .bin into `dirname` and loads them, on the
    Vulkan path or not."""
    param = os.path.join(dirname, net.name + ".param")
    binp = os.path.join(dirname, net.name + ".bin")
    with open(param, "w") as f:
        f.write(net.param_text())
    with open(binp, "wb") as f:
        f.write(bytes(net.weights))
    m = ncnn.Net()
    m.opt.use_vulkan_compute = vulkan
    m.opt.num_threads = 1
    if m.load_param(param) != 0 or m.load_model(binp) != 0:
        raise RuntimeError(f"{net.name}: ncnn could not load the network")
    return m


def infer(m, net, x):
    """One inference of a loaded network: its output `out`."""
    ex = m.create_extractor()
    ex.input("data", ncnn.Mat(x))
    ret, out = ex.extract("out")
    if ret != 0:
        raise RuntimeError(f"{net.name}: extract returned {ret}")
    y = np.array(out).copy()
    del ex
    return y


def run(net, dirname, vulkan, x):
    m = load(net, dirname, vulkan)
    y = infer(m, net, x)
    m.clear()
    return y


def timed(net, dirname, x, repeat):
    """Loads `net` on the Vulkan path once, then runs `repeat` inferences;
    returns the seconds per inference (load and pipeline creation left
    out)."""
    import time
    m = load(net, dirname, True)
    start = time.perf_counter()
    for _ in range(repeat):
        infer(m, net, x)
    seconds = (time.perf_counter() - start) / repeat
    m.clear()
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated network names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--gpu-only", action="store_true", help="skip the CPU run and the comparison")
    ap.add_argument("--repeat", type=int, default=0,
                    help="time N inferences of each network on the Vulkan path instead (load excluded)")
    ap.add_argument("--destroy-gpu-instance", action="store_true",
                    help="call ncnn.destroy_gpu_instance() before exiting (tests/gfxrecon/run.sh: "
                         "gfxreconstruct 0.9.18's layer crashes in vkDestroyInstance when ncnn "
                         "destroys its instance from an exit handler)")
    args = ap.parse_args()
    if args.list:
        print("\n".join(NETWORKS))
        return 0
    names = args.only.split(",") if args.only else list(NETWORKS)
    for name in names:
        if name not in NETWORKS:
            print(f"unknown network {name}; known: {', '.join(NETWORKS)}", file=sys.stderr)
            return 2
    gpus = ncnn.get_gpu_count()
    if gpus == 0:
        print("ncnn sees no Vulkan device", file=sys.stderr)
        return 2
    print(f"ncnn {ncnn.__version__}, Vulkan device: {ncnn.get_gpu_info(0).device_name()}")
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        for name in names:
            net = NETWORKS[name]()
            x = net.rng.uniform(-1, 1, net.shape).astype(np.float32)
            if args.repeat > 0:
                s = timed(net, d, x, args.repeat)
                print(f"{name}: {args.repeat} inferences, {s * 1e3:.3f} ms each")
                continue
            gpu = run(net, d, True, x)
            if args.gpu_only:
                print(f"{name}: gpu output {gpu.shape}")
                continue
            cpu = run(net, d, False, x)
            scale = max(float(np.abs(cpu).max()), 1e-6)
            err = float(np.abs(gpu - cpu).max()) / scale if gpu.shape == cpu.shape else float("inf")
            ok = err < 2e-2
            failed += not ok
            print(f"{name}: {len(net.lines)} layers, output {tuple(cpu.shape)}, "
                  f"max |gpu - cpu| / max |cpu| = {err:.2e}: {'OK' if ok else 'MISMATCH'}")
    if args.destroy_gpu_instance:
        ncnn.destroy_gpu_instance()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
