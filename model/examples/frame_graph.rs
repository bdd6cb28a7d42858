//! A frame graph on the `Tracker` with three queues: a transfer queue
//! uploads each frame's weights, an async-compute queue steps a particle
//! simulation with them, and the main queue draws (a compute pass here)
//! and copies the frame out for the host to read. The particles buffer is
//! `VK_SHARING_MODE_EXCLUSIVE`, so it changes queue family every frame
//! (compute writes it, main reads it): the tracker asks for the release
//! and the acquire. Every submit signals a fresh binary semaphore; the
//! tracker says which ones each submit must wait for.
//!
//! The example prints what the runtime records (as a trace: barriers,
//! submits with their semaphores, host waits), then checks it: the same
//! text parsed into a `Program` and given to `vksync::check` must have no
//! hazard (it exits 1 otherwise), and it prints what the multi-queue
//! planner needs on the same frames for comparison.
//!
//! ```text
//! cargo run -p vksync --example frame_graph -- [FRAMES [TRACE]]
//! ```
//! (default: 3 frames). With `TRACE`, the whole recorded program is also
//! written there as a trace file, which `vksync run TRACE` (or the
//! runtime's `run_trace` example) runs on a device with the validation
//! layer. The kernels are the runtime's (`scale_add`): the simulation
//! scales the frame's weights into the particles, the draw scales the
//! particles into the colour target.

use std::collections::BTreeMap;
use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
use vksync::trace::parse;
use vksync::{
    accesses, check, resolve, Barrier, Command, Needs, Program, QueueId, Semantics, SemaphoreId,
    SemaphoreSignal, SemaphoreType, SharingMode, Submission, SubmitNeeds, TrackedAccess, TrackedId, Tracker,
};

const QUEUES: [(&str, u32); 3] = [("main", 0), ("compute", 1), ("transfer", 2)];
const MAIN: QueueId = QueueId(0);
const COMPUTE: QueueId = QueueId(1);
const TRANSFER: QueueId = QueueId(2);

/// The runtime: a tracker, the trace of what it records, and its
/// command buffers (one open batch per queue).
struct Runtime {
    tracker: Tracker,
    header: String,
    ids: Vec<TrackedId>,
    /// One binary semaphore per submit, in order.
    semaphores: Vec<SemaphoreId>,
    out: Vec<String>,
    open: BTreeMap<u32, Vec<String>>,
    /// The input alone (no barriers, no semaphores), for the planner.
    input: Vec<String>,
    submits: usize,
}

impl Runtime {
    fn new(frames: usize) -> Runtime {
        let mut header = String::new();
        for buf in [
            "staging0", "staging1", "weights0", "weights1", "color", "readback",
        ] {
            header.push_str(&format!("buffer {buf} 4096\n"));
        }
        header.push_str("buffer particles 4096 exclusive\n");
        for (name, family) in QUEUES {
            header.push_str(&format!("queue {name} family {family}\n"));
        }
        let plain = header.clone();
        let max_submits = frames * 5;
        for i in 0..max_submits {
            header.push_str(&format!("semaphore s{i}\n"));
        }
        let program = parse(&header).expect("the header is valid").program;
        let mut tracker = Tracker::new().with_owner(1);
        let ids = program
            .objects()
            .iter()
            .map(|o| {
                let id = tracker.buffer(o.size).expect("a buffer");
                if o.sharing == SharingMode::Exclusive {
                    tracker.exclusive(id).expect("not used yet");
                }
                id
            })
            .collect();
        for (_, family) in &QUEUES[1..] {
            tracker.queue(*family).expect("before the first command");
        }
        let semaphores = (0..max_submits)
            .map(|_| tracker.semaphore(SemaphoreType::Binary))
            .collect();
        Runtime {
            tracker,
            header,
            ids,
            semaphores,
            out: Vec::new(),
            open: BTreeMap::new(),
            input: plain.lines().map(str::to_string).collect(),
            submits: 0,
        }
    }

    fn program(&self) -> Program {
        parse(&self.header).expect("valid").program
    }

    /// The accesses of one trace command, as the runtime knows them.
    fn accesses(&self, line: &str) -> Vec<TrackedAccess> {
        let p = parse(&format!("{}{line}\n", self.header))
            .expect("a valid command")
            .program;
        let layout = resolve(&p).expect("valid");
        let c = p.commands().last().expect("one command");
        accesses(c, &layout, Semantics::SPEC)
            .expect("its layout")
            .iter()
            .map(|a| {
                let id = self.ids[a.region.object.0 as usize];
                TrackedAccess::range(id, a.region.range, a.sa.stage().flag(), a.sa.access())
            })
            .collect()
    }

    fn barrier_line(&self, barriers: &[Barrier]) -> String {
        let p = self.program();
        let parts: Vec<String> = barriers.iter().map(|b| b.describe(&p)).collect();
        format!("barrier {}", parts.join(" ; "))
    }

    /// Records `line` on `queue` with what the tracker asks for first.
    fn record(&mut self, queue: QueueId, line: &str) {
        let acc = self.accesses(line);
        let needs = self.tracker.command_on(queue, &acc).expect("valid accesses");
        self.apply(&needs);
        let mut lines = Vec::new();
        if !needs.barriers.is_empty() {
            lines.push(self.barrier_line(&needs.barriers));
        }
        lines.push(line.to_string());
        self.open.entry(queue.0).or_default().extend(lines);
        self.input.push(line.to_string());
    }

    /// A host access, with the barriers, submits and fence waits it needs.
    fn host(&mut self, line: &str) {
        let acc = self.accesses(line);
        let needs = self.tracker.command(&acc).expect("valid accesses");
        self.apply(&needs);
        self.out.push(line.to_string());
        self.input.push(line.to_string());
    }

    /// What other queues need: a release recorded there and submitted
    /// now, or a host command's barrier, submit and fence wait.
    fn apply(&mut self, needs: &Needs) {
        for q in &needs.queues {
            if !q.barriers.is_empty() {
                let line = self.barrier_line(&q.barriers);
                self.open.entry(q.queue.0).or_default().push(line);
            }
            match &q.submit_and_wait {
                None => self.submit(q.queue),
                Some(sn) => {
                    self.emit(q.queue, sn, &[]);
                    self.out.push(format!("wait {}", QUEUES[q.queue.0 as usize].0));
                }
            }
        }
    }

    /// Submits `queue`'s open batch, signalling the next semaphore.
    fn submit(&mut self, queue: QueueId) {
        let signal = SemaphoreSignal {
            semaphore: self.semaphores[self.submits],
            value: None,
            stages: vksync::PipelineStageFlags2::ALL_COMMANDS,
        };
        let s = Submission {
            queue,
            waits: Vec::new(),
            signals: vec![signal],
        };
        let needs = self.tracker.submit_on(&s).expect("valid submit");
        self.emit(queue, &needs, &s.signals);
        self.input.push(format!("submit {}", QUEUES[queue.0 as usize].0));
    }

    /// The trace of a submit the tracker answered (`needs`).
    fn emit(&mut self, queue: QueueId, needs: &SubmitNeeds, signals: &[SemaphoreSignal]) {
        for q in &needs.host_waits {
            self.out.push(format!("wait {}", QUEUES[q.0 as usize].0));
        }
        self.out.extend(self.open.remove(&queue.0).unwrap_or_default());
        let mut line = format!("submit {}", QUEUES[queue.0 as usize].0);
        for w in &needs.waits {
            line.push_str(&format!(" wait s{}@{}", w.wait.semaphore.0, w.wait.stages));
        }
        for g in signals {
            line.push_str(&format!(" signal s{}", g.semaphore.0));
            self.submits += 1;
        }
        self.out.push(line);
    }
}

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .map_or(3, |a| a.parse().expect("FRAMES is a number"));
    let mut rt = Runtime::new(frames);
    for f in 0..frames {
        let k = f % 2;
        rt.host(&format!("host-write staging{k}[0..4096] {f}"));
        rt.record(
            TRANSFER,
            &format!("copy staging{k}[0..4096] -> weights{k}[0..4096]"),
        );
        rt.submit(TRANSFER);
        rt.record(
            COMPUTE,
            &format!("dispatch scale_add(3,{f}) read weights{k}[0..4096] write particles[0..4096]"),
        );
        rt.submit(COMPUTE);
        rt.record(
            MAIN,
            "dispatch scale_add(2,5) read particles[0..4096] write color[0..4096]",
        );
        rt.record(MAIN, "copy color[0..4096] -> readback[0..4096]");
        rt.submit(MAIN);
        rt.host("host-read readback[0..4096]");
    }
    let text = format!("{}{}\n", rt.header, rt.out.join("\n"));
    if let Some(path) = std::env::args().nth(2) {
        std::fs::write(&path, &text).expect("the trace file is writable");
    }
    println!("# what the runtime records ({frames} frames), as a trace");
    for line in text.lines().filter(|l| !l.starts_with("semaphore ")) {
        println!("{line}");
    }
    let program = parse(&text).expect("the recorded program is valid").program;
    let hazards = check(&program).expect("checked");
    let count = |f: fn(&Command) -> usize| program.commands().iter().map(f).sum::<usize>();
    let barriers = count(|c| matches!(c, Command::Barrier(_)) as usize);
    let waits = count(|c| match c {
        Command::Submit(s) => s.waits.len(),
        _ => 0,
    });
    let fences = count(|c| matches!(c, Command::Wait(_)) as usize);
    println!(
        "# vksync::check: {} hazards; {barriers} barriers, {waits} semaphore waits, {fences} host waits",
        hazards.len()
    );
    for h in &hazards {
        println!("# {h}");
    }
    let input = parse(&(rt.input.join("\n") + "\n"))
        .expect("the input is valid")
        .program;
    let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline));
    let planned = plan_queues(&input, opts).expect("plannable");
    println!(
        "# multi-queue planner on the same frames: {} barrier points, {} semaphore waits, {} host waits, {} ownership transfers",
        planned.barrier_points, planned.waits, planned.host_waits, planned.ownership_transfers
    );
    if !hazards.is_empty() {
        std::process::exit(1);
    }
}
