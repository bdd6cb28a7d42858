//! The benchmark workload: batched inference with residual blocks.
//!
//! `batch` independent chains (batch items) each run `layers` residual
//! blocks. A block over its input `x` is
//!
//! ```text
//! a = scale_add(3,1)(x)        branch A, compute
//! s = copy(x)                  shortcut branch, transfer
//! scale(5)(a) in place         branch A, compute (rw)
//! b = slow(iters)(a); free a   branch A, compute
//! y = add(b, s); free b, s, x  merge, compute
//! ```
//!
//! Every intermediate is a blob allocated from one shared pool (ncnn's
//! `VkBlobAllocator` model) and freed as soon as it is dead, so memory is
//! recycled inside the command buffer, also across batch items. Commands are
//! emitted stage-major (stage 1 of every item, then stage 2 of every item,
//! ...), as a batched executor does, so the items' commands are independent
//! within a stage and a planner can serve a whole stage with one barrier.
//! Each chain starts with a `fill` of its input and ends with a copy of its
//! result into `out`. The program has no barriers: the planners add them.

use vksync::{Binding, BindingAccess, Command, ObjectId, Program, Region};

/// Workload shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub batch: usize,
    pub layers: usize,
    /// Bytes per activation buffer (a multiple of 4).
    pub size: u64,
    /// Iterations of the `slow` kernel per element.
    pub slow_iters: u32,
    /// Recycle blobs through the pool (`free` after last use). Without it
    /// every blob gets fresh memory, so only data dependencies remain.
    pub reuse: bool,
}

/// Pool alignment: blob offsets stay multiples of every device's
/// `minStorageBufferOffsetAlignment` (at most 256 by the spec).
pub const POOL_ALIGN: u64 = 256;

fn bind(access: BindingAccess, region: Region) -> Binding {
    Binding { access, region }
}

fn dispatch(kernel: &str, params: Vec<u32>, bindings: Vec<Binding>) -> Command {
    Command::Dispatch {
        kernel: kernel.to_string(),
        params,
        bindings,
        indirect: None,
    }
}

fn free(p: &mut Program, shape: Shape, c: Command) {
    if shape.reuse {
        p.push(c).expect("valid names and ids");
    }
}

/// Builds the barrier-free program with a pool of `pool_size` bytes.
fn build(shape: Shape, pool_size: u64, host_read: bool) -> Program {
    let mut p = Program::new();
    let n = shape.batch;
    let size = shape.size;
    let pool = p
        .pool("pool", pool_size, POOL_ALIGN)
        .expect("valid names and ids");
    let out = p.buffer("out", size * n as u64).expect("valid names and ids");
    let mut x: Vec<ObjectId> = Vec::with_capacity(n);
    for i in 0..n {
        let xi = p
            .alloc(&format!("in{i}"), size, pool)
            .expect("valid names and ids");
        p.push(Command::Fill {
            dst: p.whole(xi),
            value: i as u32 + 1,
        })
        .expect("valid names and ids");
        x.push(xi);
    }
    use BindingAccess::{Read, ReadWrite, Write};
    for l in 0..shape.layers {
        let mut a = Vec::with_capacity(n);
        let mut s = Vec::with_capacity(n);
        let mut b = Vec::with_capacity(n);
        for (i, &xi) in x.iter().enumerate() {
            let ai = p
                .alloc(&format!("a{l}_{i}"), size, pool)
                .expect("valid names and ids");
            p.push(dispatch(
                "scale_add",
                vec![3, 1],
                vec![bind(Read, p.whole(xi)), bind(Write, p.whole(ai))],
            ))
            .expect("valid names and ids");
            a.push(ai);
        }
        for (i, &xi) in x.iter().enumerate() {
            let si = p
                .alloc(&format!("s{l}_{i}"), size, pool)
                .expect("valid names and ids");
            p.push(Command::Copy {
                src: p.whole(xi),
                dst: p.whole(si),
            })
            .expect("valid names and ids");
            s.push(si);
        }
        for &ai in &a {
            p.push(dispatch("scale", vec![5], vec![bind(ReadWrite, p.whole(ai))]))
                .expect("valid names and ids");
        }
        for &ai in &a {
            let bi = p
                .alloc(&format!("b{l}_{}", b.len()), size, pool)
                .expect("valid names and ids");
            p.push(dispatch(
                "slow",
                vec![shape.slow_iters],
                vec![bind(Read, p.whole(ai)), bind(Write, p.whole(bi))],
            ))
            .expect("valid names and ids");
            free(&mut p, shape, Command::Free { blob: ai });
            b.push(bi);
        }
        for i in 0..n {
            let yi = p
                .alloc(&format!("y{l}_{i}"), size, pool)
                .expect("valid names and ids");
            p.push(dispatch(
                "add",
                vec![],
                vec![
                    bind(Read, p.whole(b[i])),
                    bind(Read, p.whole(s[i])),
                    bind(Write, p.whole(yi)),
                ],
            ))
            .expect("valid names and ids");
            free(&mut p, shape, Command::Free { blob: b[i] });
            free(&mut p, shape, Command::Free { blob: s[i] });
            free(&mut p, shape, Command::Free { blob: x[i] });
            x[i] = yi;
        }
    }
    for (i, &xi) in x.iter().enumerate() {
        let off = size * i as u64;
        p.push(Command::Copy {
            src: p.whole(xi),
            dst: p.region(out, off, off + size),
        })
        .expect("valid names and ids");
        free(&mut p, shape, Command::Free { blob: xi });
    }
    if host_read {
        p.push(Command::HostRead { src: p.whole(out) })
            .expect("valid names and ids");
    }
    p
}

/// The barrier-free workload (device commands only), with the smallest pool
/// (in steps of one blob) that the first-fit allocator never runs out of.
/// With `host_read`, it ends with a host read of `out` (for checking bytes).
pub fn program(shape: Shape, host_read: bool) -> Result<Program, vksync::ProgramError> {
    let blob = shape.size.div_ceil(POOL_ALIGN) * POOL_ALIGN;
    // Peak liveness is four blobs per item; fragmentation may need more.
    // Without reuse every blob (four per item and block, plus the input)
    // has memory of its own.
    let fresh = (shape.batch * (4 * shape.layers + 1)) as u64;
    let mut blobs = if shape.reuse {
        4 * shape.batch as u64
    } else {
        fresh
    };
    loop {
        let p = build(shape, blobs * blob, host_read);
        match vksync::resolve(&p) {
            Ok(_) => return Ok(p),
            Err(e) if blobs > 16 * shape.batch as u64 + 16 + fresh => return Err(e),
            Err(_) => blobs += 1,
        }
    }
}

/// Device commands (recorded `vkCmd*`s) of a program, barriers included.
pub fn device_commands(p: &Program) -> usize {
    p.commands()
        .iter()
        .filter(|c| {
            !matches!(
                c,
                Command::Alloc { .. }
                    | Command::Free { .. }
                    | Command::HostRead { .. }
                    | Command::HostWrite { .. }
                    | Command::Submit(_)
                    | Command::Wait(_)
            )
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vksync::plan::{plan, PlanOptions, PlannerKind};

    #[test]
    fn planned_workload_is_clean_and_offline_meets_bound() {
        let shape = Shape {
            batch: 3,
            layers: 2,
            size: 256,
            slow_iters: 4,
            reuse: true,
        };
        let p = program(shape, true).unwrap();
        assert!(!vksync::check(&p).unwrap().is_empty(), "unplanned has hazards");
        for k in [
            PlannerKind::Conservative,
            PlannerKind::Online,
            PlannerKind::Offline,
        ] {
            let planned = plan(&p, PlanOptions::new(k)).unwrap();
            assert!(vksync::check(&planned.program).unwrap().is_empty(), "{k:?}");
        }
        let off = plan(&p, PlanOptions::new(PlannerKind::Offline)).unwrap();
        assert_eq!(
            off.program.barrier_points(),
            vksync::plan::stabbing_bound(&p, vksync::Reading::VisibleToWrites).unwrap()
        );
    }

    #[test]
    fn reference_runs() {
        let shape = Shape {
            batch: 2,
            layers: 2,
            size: 256,
            slow_iters: 4,
            reuse: true,
        };
        let p = program(shape, true).unwrap();
        let r = vksync::reference::run(&p).unwrap();
        assert_eq!(r.len(), 1);
        assert!(r[0].bytes.iter().all(|b| b.is_some()));
    }
}
