"""Small wgpu compute programs, each checked against numpy.

Run as `python app.py WORKLOAD [N]`; prints one `ok WORKLOAD ...` line per
program whose results match numpy, and exits 1 on the first mismatch.
Workloads (tests/wgpu/run.sh runs each under `vksync capture`):

- `uniform`: a uniform buffer of three parameter blocks uploaded with
  `queue.write_buffer` (a staging copy), read by three dispatches at
  dynamic offsets 0, 256 and 512.
- `frames N`: N frames of `write_buffer` / dispatch / `read_buffer`.
- `textures`: a dispatch writes a storage texture, a second one reads it
  with `textureLoad` (a sampled texture binding) into a storage buffer; the
  texture is also copied to a buffer; both read back.
"""

import sys

import numpy as np
import wgpu

N = 1024


def device():
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    return adapter.request_device_sync()


def check(name, got, want):
    if not np.array_equal(got, want):
        bad = int(np.sum(got != want))
        print(f"MISMATCH {name}: {bad} of {want.size} values differ")
        sys.exit(1)


def uniform(dev):
    shader = dev.create_shader_module(
        code="""
struct Params { scale: u32, add: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    dst[id.x] = dst[id.x] + src[id.x] * params.scale + params.add;
}
"""
    )
    layout = dev.create_bind_group_layout(
        entries=[
            {"binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
             "buffer": {"type": wgpu.BufferBindingType.uniform, "has_dynamic_offset": True, "min_binding_size": 8}},
            {"binding": 1, "visibility": wgpu.ShaderStage.COMPUTE,
             "buffer": {"type": wgpu.BufferBindingType.read_only_storage}},
            {"binding": 2, "visibility": wgpu.ShaderStage.COMPUTE,
             "buffer": {"type": wgpu.BufferBindingType.storage}},
        ]
    )
    pipeline = dev.create_compute_pipeline(
        layout=dev.create_pipeline_layout(bind_group_layouts=[layout]),
        compute={"module": shader, "entry_point": "main"},
    )
    params = dev.create_buffer(size=768, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
    blocks = np.zeros(192, dtype=np.uint32)
    for i, (scale, add) in enumerate([(2, 1), (3, 5), (7, 11)]):
        blocks[i * 64] = scale
        blocks[i * 64 + 1] = add
    dev.queue.write_buffer(params, 0, blocks.tobytes())
    src_data = np.arange(N, dtype=np.uint32)
    src = dev.create_buffer_with_data(data=src_data, usage=wgpu.BufferUsage.STORAGE)
    dst = dev.create_buffer(size=N * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    group = dev.create_bind_group(
        layout=layout,
        entries=[
            {"binding": 0, "resource": {"buffer": params, "offset": 0, "size": 8}},
            {"binding": 1, "resource": {"buffer": src, "offset": 0, "size": N * 4}},
            {"binding": 2, "resource": {"buffer": dst, "offset": 0, "size": N * 4}},
        ],
    )
    enc = dev.create_command_encoder()
    cpass = enc.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    for offset in (0, 256, 512):
        cpass.set_bind_group(0, group, [offset])
        cpass.dispatch_workgroups(N // 64)
    cpass.end()
    dev.queue.submit([enc.finish()])
    got = np.frombuffer(dev.queue.read_buffer(dst), dtype=np.uint32)
    want = src_data * (2 + 3 + 7) + (1 + 5 + 11)
    check("uniform", got, want.astype(np.uint32))
    print("ok uniform")


def frames(dev, count):
    shader = dev.create_shader_module(
        code="""
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = data[id.x] * 2u + 1u;
}
"""
    )
    pipeline = dev.create_compute_pipeline(layout="auto", compute={"module": shader, "entry_point": "main"})
    buf = dev.create_buffer(
        size=N * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.COPY_SRC
    )
    group = dev.create_bind_group(
        layout=pipeline.get_bind_group_layout(0),
        entries=[{"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": N * 4}}],
    )
    for frame in range(count):
        data = (np.arange(N, dtype=np.uint32) + frame * 7).astype(np.uint32)
        dev.queue.write_buffer(buf, 0, data.tobytes())
        enc = dev.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(pipeline)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(N // 64)
        cpass.end()
        dev.queue.submit([enc.finish()])
        got = np.frombuffer(dev.queue.read_buffer(buf), dtype=np.uint32)
        check(f"frame {frame}", got, (data * 2 + 1).astype(np.uint32))
    print(f"ok frames {count}")


def textures(dev):
    w, h = 64, 32
    write = dev.create_shader_module(
        code="""
@group(0) @binding(0) var img: texture_storage_2d<rgba32uint, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    textureStore(img, vec2<i32>(id.xy), vec4<u32>(id.x, id.y, id.x * id.y, 7u));
}
"""
    )
    read = dev.create_shader_module(
        code="""
@group(0) @binding(0) var img: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = textureLoad(img, vec2<i32>(id.xy), 0);
    out[id.y * 64u + id.x] = t.x + t.y * 100u + t.z * 10000u + t.w;
}
"""
    )
    tex = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.rgba32uint,
        usage=wgpu.TextureUsage.STORAGE_BINDING | wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_SRC,
    )
    out = dev.create_buffer(size=w * h * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    p_write = dev.create_compute_pipeline(layout="auto", compute={"module": write, "entry_point": "main"})
    p_read = dev.create_compute_pipeline(layout="auto", compute={"module": read, "entry_point": "main"})
    g_write = dev.create_bind_group(
        layout=p_write.get_bind_group_layout(0), entries=[{"binding": 0, "resource": tex.create_view()}]
    )
    g_read = dev.create_bind_group(
        layout=p_read.get_bind_group_layout(0),
        entries=[
            {"binding": 0, "resource": tex.create_view()},
            {"binding": 1, "resource": {"buffer": out, "offset": 0, "size": w * h * 4}},
        ],
    )
    enc = dev.create_command_encoder()
    for pipeline, group in ((p_write, g_write), (p_read, g_read)):
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(pipeline)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(w // 8, h // 8)
        cpass.end()
    dev.queue.submit([enc.finish()])
    got = np.frombuffer(dev.queue.read_buffer(out), dtype=np.uint32).reshape(h, w)
    y, x = np.mgrid[0:h, 0:w].astype(np.uint32)
    check("textures (textureLoad)", got, (x + y * 100 + x * y * 10000 + 7).astype(np.uint32))
    texels = np.frombuffer(
        dev.queue.read_texture({"texture": tex}, {"bytes_per_row": w * 16, "rows_per_image": h}, (w, h, 1)),
        dtype=np.uint32,
    ).reshape(h, w, 4)
    check("textures (copy)", texels, np.stack([x, y, x * y, np.full_like(x, 7)], axis=-1))
    print("ok textures")


def main():
    workload = sys.argv[1] if len(sys.argv) > 1 else "uniform"
    dev = device()
    if workload == "uniform":
        uniform(dev)
    elif workload == "frames":
        frames(dev, int(sys.argv[2]) if len(sys.argv) > 2 else 100)
    elif workload == "textures":
        textures(dev)
    else:
        print(f"unknown workload {workload}")
        sys.exit(2)


if __name__ == "__main__":
    main()
