"""Small wgpu compute and rendering programs, each checked against numpy.

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
- `render [N]`: N frames (default 1) of: a dispatch writes a vertex
  buffer, an index buffer and indirect draw arguments; a texture uploaded
  once with `queue.write_texture` is sampled in the fragment shader; a
  first render pass clears a color and a depth attachment and draws one
  rectangle, a second one loads both and draws a second rectangle behind
  the first (depth test) with `draw_indexed_indirect`; the color and depth
  attachments are copied to buffers and read back.
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


RENDER_W, RENDER_H = 64, 32
# Rectangles in pixels (x0, y0, x1, y1) and their depths; the first is drawn
# in the first render pass, the second (behind it) in the second.
RECTS = [((8, 4, 40, 20), 0.5), ((24, 12, 56, 28), 0.75)]


def render(dev, count=1):
    w, h = RENDER_W, RENDER_H
    # The compute pass writes the two rectangles' vertices (clip space, at
    # pixel edges so rasterization is exact), their indices and the second
    # draw's indirect arguments.
    geometry = dev.create_shader_module(
        code="""
struct Rect { x0: f32, y0: f32, x1: f32, y1: f32, z: f32, pad0: f32, pad1: f32, pad2: f32 }
@group(0) @binding(0) var<storage, read> rects: array<Rect>;
@group(0) @binding(1) var<storage, read_write> vertices: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> indices: array<u32>;
@group(0) @binding(3) var<storage, read_write> indirect: array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let r = rects[id.x];
    let x0 = r.x0 / 32.0 - 1.0;
    let x1 = r.x1 / 32.0 - 1.0;
    let y0 = 1.0 - r.y0 / 16.0;
    let y1 = 1.0 - r.y1 / 16.0;
    let v = id.x * 4u;
    vertices[v] = vec4<f32>(x0, y0, r.z, 1.0);
    vertices[v + 1u] = vec4<f32>(x1, y0, r.z, 1.0);
    vertices[v + 2u] = vec4<f32>(x0, y1, r.z, 1.0);
    vertices[v + 3u] = vec4<f32>(x1, y1, r.z, 1.0);
    let i = id.x * 6u;
    indices[i] = v;
    indices[i + 1u] = v + 1u;
    indices[i + 2u] = v + 2u;
    indices[i + 3u] = v + 2u;
    indices[i + 4u] = v + 1u;
    indices[i + 5u] = v + 3u;
    if (id.x == 1u) {
        // index_count, instance_count, first_index, base_vertex, first_instance
        indirect[0] = 6u;
        indirect[1] = 1u;
        indirect[2] = 6u;
        indirect[3] = 0u;
        indirect[4] = 0u;
    }
}
"""
    )
    draw = dev.create_shader_module(
        code="""
struct Out { @builtin(position) pos: vec4<f32>, @location(0) @interpolate(flat) rect: u32 }
@vertex
fn vs(@location(0) p: vec4<f32>, @builtin(vertex_index) v: u32) -> Out {
    var o: Out;
    o.pos = p;
    o.rect = v / 4u;
    return o;
}
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@fragment
fn fs(i: Out) -> @location(0) u32 {
    let t = textureSample(tex, samp, i.pos.xy / vec2<f32>(64.0, 32.0));
    return 1000u * (i.rect + 1u) + u32(round(t.r * 255.0));
}
"""
    )
    rects = np.zeros((2, 8), dtype=np.float32)
    for k, ((x0, y0, x1, y1), z) in enumerate(RECTS):
        rects[k, :5] = (x0, y0, x1, y1, z)
    rect_buf = dev.create_buffer_with_data(data=rects.tobytes(), usage=wgpu.BufferUsage.STORAGE)
    vertices = dev.create_buffer(size=8 * 16, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.VERTEX)
    indices = dev.create_buffer(size=12 * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.INDEX)
    indirect = dev.create_buffer(size=5 * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.INDIRECT)
    p_geometry = dev.create_compute_pipeline(layout="auto", compute={"module": geometry, "entry_point": "main"})
    g_geometry = dev.create_bind_group(
        layout=p_geometry.get_bind_group_layout(0),
        entries=[
            {"binding": 0, "resource": {"buffer": rect_buf, "offset": 0, "size": rects.nbytes}},
            {"binding": 1, "resource": {"buffer": vertices, "offset": 0, "size": 8 * 16}},
            {"binding": 2, "resource": {"buffer": indices, "offset": 0, "size": 12 * 4}},
            {"binding": 3, "resource": {"buffer": indirect, "offset": 0, "size": 5 * 4}},
        ],
    )
    y, x = np.mgrid[0:h, 0:w].astype(np.uint32)
    shade = ((x * 3 + y * 5) % 256).astype(np.uint8)
    tex = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST,
    )
    texels = np.zeros((h, w, 4), dtype=np.uint8)
    texels[..., 0] = shade
    dev.queue.write_texture({"texture": tex}, texels.tobytes(), {"bytes_per_row": w * 4, "rows_per_image": h}, (w, h, 1))
    samp = dev.create_sampler(mag_filter="nearest", min_filter="nearest")
    color = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.r32uint,
        usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC,
    )
    depth = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.depth32float,
        usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC,
    )
    p_draw = dev.create_render_pipeline(
        layout="auto",
        vertex={
            "module": draw,
            "entry_point": "vs",
            "buffers": [{"array_stride": 16, "attributes": [{"format": "float32x4", "offset": 0, "shader_location": 0}]}],
        },
        primitive={"topology": "triangle-list"},
        depth_stencil={"format": "depth32float", "depth_write_enabled": True, "depth_compare": "less"},
        fragment={"module": draw, "entry_point": "fs", "targets": [{"format": "r32uint"}]},
    )
    g_draw = dev.create_bind_group(
        layout=p_draw.get_bind_group_layout(0),
        entries=[{"binding": 0, "resource": tex.create_view()}, {"binding": 1, "resource": samp}],
    )
    for _ in range(count):
        enc = dev.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(p_geometry)
        cpass.set_bind_group(0, g_geometry)
        cpass.dispatch_workgroups(1)
        cpass.end()
        for k, load in enumerate(("clear", "load")):
            rpass = enc.begin_render_pass(
                color_attachments=[
                    {"view": color.create_view(), "load_op": load, "store_op": "store", "clear_value": (0, 0, 0, 0)}
                ],
                depth_stencil_attachment={
                    "view": depth.create_view(),
                    "depth_load_op": load,
                    "depth_store_op": "store",
                    "depth_clear_value": 1.0,
                },
            )
            rpass.set_pipeline(p_draw)
            rpass.set_bind_group(0, g_draw)
            rpass.set_vertex_buffer(0, vertices)
            rpass.set_index_buffer(indices, "uint32")
            if k == 0:
                rpass.draw_indexed(6, 1, 0, 0, 0)
            else:
                rpass.draw_indexed_indirect(indirect, 0)
            rpass.end()
        dev.queue.submit([enc.finish()])
        want = np.zeros((h, w), dtype=np.uint32)
        want_depth = np.ones((h, w), dtype=np.float32)
        for k, ((x0, y0, x1, y1), z) in reversed(list(enumerate(RECTS))):
            # Drawn back to front here: the nearer first rectangle wins.
            want[y0:y1, x0:x1] = 1000 * (k + 1) + shade[y0:y1, x0:x1].astype(np.uint32)
            want_depth[y0:y1, x0:x1] = z
        got = np.frombuffer(
            dev.queue.read_texture({"texture": color}, {"bytes_per_row": w * 4, "rows_per_image": h}, (w, h, 1)),
            dtype=np.uint32,
        ).reshape(h, w)
        check("render (color)", got, want)
        got_depth = np.frombuffer(
            dev.queue.read_texture(
                {"texture": depth, "aspect": "depth-only"}, {"bytes_per_row": w * 4, "rows_per_image": h}, (w, h, 1)
            ),
            dtype=np.float32,
        ).reshape(h, w)
        check("render (depth)", got_depth, want_depth)
    print("ok render" + (f" {count}" if count > 1 else ""))


def main():
    workload = sys.argv[1] if len(sys.argv) > 1 else "uniform"
    dev = device()
    if workload == "uniform":
        uniform(dev)
    elif workload == "frames":
        frames(dev, int(sys.argv[2]) if len(sys.argv) > 2 else 100)
    elif workload == "textures":
        textures(dev)
    elif workload == "render":
        render(dev, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    else:
        print(f"unknown workload {workload}")
        sys.exit(2)


if __name__ == "__main__":
    main()
