//! Images on the `Tracker`: each frame the host fills a staging buffer,
//! a copy uploads it into both layers of image `src`, a storage-image
//! dispatch scales `src` into image `dst`, one layer of `dst` is copied
//! out and the host reads it. The runtime names, for each command, the
//! subresources it uses and the layout it needs them in; the tracker
//! answers with the layout transitions (image memory barriers with their
//! scopes), the other barriers, and the submits and fence waits the host
//! accesses need. From the second frame on, `src` goes back from
//! `GENERAL` to `TRANSFER_DST_OPTIMAL` with an empty first scope: the
//! fence wait before the previous frame's host read completed the
//! dispatch that read it.
//!
//! The example prints what the runtime records as a trace and checks it:
//! the text parsed into a `Program` (the model's layout rules: every use
//! in its subresources' current layout) and given to `vksync::check` must
//! have no hazard (it exits 1 otherwise).
//!
//! ```text
//! cargo run -p vksync --example tracker_images -- [FRAMES [TRACE]]
//! ```
//! (default: 2 frames). With `TRACE`, the trace is also written there;
//! `vksync run TRACE` (or the runtime's `run_trace` example) runs it on a
//! device with the validation layer and compares the bytes read back with
//! the CPU reference. The kernel is the runtime's `image_scale_add`.

use vksync::{
    AccessFlags2 as A, AspectMask, Format, ImageLayout as L, Needs, PipelineStageFlags2 as S,
    SubresourceRange, TrackedAccess, TrackedId, TrackedImageInfo, Tracker, TrackerError,
};

const EXTENT: u32 = 16;

struct Runtime {
    tracker: Tracker,
    names: Vec<&'static str>,
    lines: Vec<String>,
    barriers: usize,
    image_barriers: usize,
}

impl Runtime {
    /// Records what `needs` asks for, then the command `line`.
    fn record(&mut self, needs: Needs, line: String) {
        let names = &self.names;
        if let Some(barrier) = needs.barrier_line(|o| names[o.0 as usize].to_string()) {
            self.lines.push(barrier);
        }
        self.barriers += needs.barriers.len();
        self.image_barriers += needs.image_barriers.len();
        if needs.submit_and_wait {
            self.lines.push("submit".into());
            self.lines.push("wait".into());
        }
        self.lines.push(line);
    }
}

fn layers(first: u32, count: u32) -> SubresourceRange {
    SubresourceRange {
        aspects: AspectMask(1),
        base_mip: 0,
        mip_count: Some(1),
        base_layer: first,
        layer_count: Some(count),
    }
}

fn run(frames: u32) -> Result<Runtime, TrackerError> {
    let mut tracker = Tracker::new();
    let r32 = Format::parse("R32_UINT").expect("a format the model knows");
    let staging = tracker.buffer(2048)?;
    let out = tracker.buffer(1024)?;
    let src = tracker.image(TrackedImageInfo::new(r32, [EXTENT, EXTENT, 1]).layers(2))?;
    let dst = tracker.image(TrackedImageInfo::new(r32, [EXTENT, EXTENT, 1]).layers(2))?;
    let mut rt = Runtime {
        tracker,
        names: vec!["staging", "out", "src", "dst"],
        lines: vec![
            "buffer staging 2048".into(),
            "buffer out 1024".into(),
            format!("image src R32_UINT {EXTENT}x{EXTENT} layers 2"),
            format!("image dst R32_UINT {EXTENT}x{EXTENT} layers 2"),
        ],
        barriers: 0,
        image_barriers: 0,
    };
    let image = |id: TrackedId, r: SubresourceRange, layout: L, stage: S, access: A| {
        TrackedAccess::image(id, r, layout, stage, access)
    };
    for frame in 0..frames {
        let n = rt
            .tracker
            .command(&[TrackedAccess::whole(staging, S::HOST, A::HOST_WRITE)])?;
        rt.record(n, format!("host-write staging {}", 1000 + frame));
        let n = rt.tracker.command(&[
            TrackedAccess::whole(staging, S::COPY, A::TRANSFER_READ),
            image(
                src,
                layers(0, 2),
                L::TRANSFER_DST_OPTIMAL,
                S::COPY,
                A::TRANSFER_WRITE,
            ),
        ])?;
        rt.record(
            n,
            format!("copy-buffer-to-image staging -> src TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0..2 imageExtent={EXTENT},{EXTENT},1"),
        );
        let n = rt.tracker.command(&[
            image(
                src,
                layers(0, 2),
                L::GENERAL,
                S::COMPUTE_SHADER,
                A::SHADER_STORAGE_READ,
            ),
            image(
                dst,
                layers(0, 2),
                L::GENERAL,
                S::COMPUTE_SHADER,
                A::SHADER_STORAGE_WRITE,
            ),
        ])?;
        rt.record(
            n,
            format!(
                "dispatch image_scale_add(3,{}) image-read src COLOR:0:0..2 image-write dst COLOR:0:0..2",
                frame + 1
            ),
        );
        let layer = frame % 2;
        let n = rt.tracker.command(&[
            image(
                dst,
                layers(layer, 1),
                L::TRANSFER_SRC_OPTIMAL,
                S::COPY,
                A::TRANSFER_READ,
            ),
            TrackedAccess::whole(out, S::COPY, A::TRANSFER_WRITE),
        ])?;
        rt.record(
            n,
            format!("copy-image-to-buffer dst TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:{layer} imageExtent={EXTENT},{EXTENT},1"),
        );
        let n = rt
            .tracker
            .command(&[TrackedAccess::whole(out, S::HOST, A::HOST_READ)])?;
        rt.record(n, "host-read out".into());
    }
    Ok(rt)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let frames: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let rt = match run(frames) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tracker: {e}");
            std::process::exit(2);
        }
    };
    let text = rt.lines.join("\n") + "\n";
    println!("# what the runtime records ({frames} frames), as a trace");
    print!("{text}");
    let program = match vksync::trace::parse(&text) {
        Ok(p) => p.program,
        Err(e) => {
            eprintln!("the model refuses what the runtime recorded: {e}");
            std::process::exit(1);
        }
    };
    let hazards = match vksync::check(&program) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("vksync::check: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "# vksync::check: {} hazards; {} image barriers (layout transitions), {} other barriers",
        hazards.len(),
        rt.image_barriers,
        rt.barriers
    );
    if let Some(path) = args.next() {
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
    if !hazards.is_empty() {
        std::process::exit(1);
    }
}
