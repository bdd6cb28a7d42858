//! The Tracker across queues against the whole-program side: a table of
//! multi-queue programs (trace text with their batches and the runtime's
//! own semaphores, no barriers), each fed to a `Tracker` command by
//! command through one helper ([`tracked`]), which rebuilds the program
//! the runtime would record from the tracker's answers. That program must
//! check clean ([`vksync::check`], the multi-queue walk), and the
//! tracker's cross-queue waits (semaphore and host) are compared with the
//! multi-queue planner's ([`vksync::plan::plan_queues`]) on the same input.

use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
use vksync::trace::parse;
use vksync::{
    accesses, check, resolve, Barrier, Command, Program, QueueId, Semantics, SemaphoreWait, SharingMode,
    Submission, TrackedAccess, TrackedId, Tracker, WaitFor,
};

/// What the tracker said over a program: the program the runtime records,
/// as trace text, and counts.
struct Tracked {
    text: String,
    /// Semaphore waits the tracker added.
    waits: usize,
    /// Host waits the tracker asked for before submits (and for host
    /// accesses).
    host_waits: usize,
    /// Ownership transfers (releases) it asked for.
    releases: usize,
}

fn barrier_line(barriers: &[Barrier], p: &Program) -> String {
    let parts: Vec<String> = barriers.iter().map(|b| b.describe(p)).collect();
    format!("barrier {}", parts.join(" ; "))
}

fn submit_line(s: &Submission, p: &Program) -> String {
    let mut line = format!("submit {}", p.queue_name(s.queue));
    let value = |v: Option<u64>| v.map(|v| format!(":{v}")).unwrap_or_default();
    for w in &s.waits {
        let name = p.semaphore_name(w.semaphore);
        line.push_str(&format!(" wait {name}{}@{}", value(w.value), w.stages));
    }
    for g in &s.signals {
        let name = p.semaphore_name(g.semaphore);
        line.push_str(&format!(" signal {name}{}@{}", value(g.value), g.stages));
    }
    line
}

/// Drives a tracker over `header` + `body` (buffers in declaration order,
/// queues with the first of family 0, one command per body line; each
/// device command's queue is the one its batch's `submit` names).
fn tracked(header: &str, body: &[&str]) -> Tracked {
    let input = parse(&format!("{header}{}\n", body.join("\n")))
        .unwrap_or_else(|e| panic!("input: {e}"))
        .program;
    let commands = input.commands();
    assert_eq!(commands.len(), body.len(), "one command per body line");
    let layout = resolve(&input).expect("valid input");
    let mut t = Tracker::new();
    let ids: Vec<TrackedId> = input
        .objects()
        .iter()
        .map(|o| {
            let id = t.buffer(o.size).expect("a buffer");
            if o.sharing == SharingMode::Exclusive {
                t.exclusive(id).expect("unused buffer");
            }
            id
        })
        .collect();
    for (i, q) in input.queues().iter().enumerate().skip(1) {
        assert_eq!(t.queue(q.family).expect("before commands"), QueueId(i as u32));
    }
    for s in input.semaphores() {
        t.semaphore(s.kind);
    }
    // Each command's queue: the next submit's.
    let mut queue_of = vec![QueueId(0); commands.len()];
    let mut next = QueueId(0);
    for (i, c) in commands.iter().enumerate().rev() {
        if let Command::Submit(s) = c {
            next = s.queue;
        }
        queue_of[i] = next;
    }
    let mut out: Vec<String> = header.lines().map(str::to_string).collect();
    let mut batch: Vec<String> = Vec::new();
    let (mut waits, mut host_waits, mut releases, mut fenced) = (0, 0, 0, 0);
    // A submit the tracker was told of: its host waits, then the line.
    let mut emit_submit =
        |t: &mut Tracker, s: &Submission, out: &mut Vec<String>, batch: &mut Vec<String>| {
            let needs = t.submit_on(s).unwrap_or_else(|e| panic!("submit: {e}"));
            for q in &needs.host_waits {
                out.push(format!("wait {}", input.queue_name(*q)));
            }
            host_waits += needs.host_waits.len();
            waits += needs.waits.len();
            let mut full = s.clone();
            full.waits.extend(needs.waits.iter().map(|w| w.wait));
            out.append(batch);
            out.push(submit_line(&full, &input));
        };
    for (i, c) in commands.iter().enumerate() {
        match c {
            Command::Submit(s) => emit_submit(&mut t, s, &mut out, &mut batch),
            Command::Wait(WaitFor::All) => {
                t.wait();
                out.push(body[i].to_string());
            }
            Command::Wait(WaitFor::Queue(q)) => {
                t.wait_queue(*q).expect("a queue");
                out.push(body[i].to_string());
            }
            Command::HostWait { semaphore, value } => {
                t.wait_semaphore(*semaphore, *value).expect("valid host wait");
                out.push(body[i].to_string());
            }
            Command::HostSignal { semaphore, value } => {
                t.host_signal(*semaphore, *value).expect("valid host signal");
                out.push(body[i].to_string());
            }
            _ => {
                let acc: Vec<TrackedAccess> = accesses(c, &layout, Semantics::SPEC)
                    .expect("its own layout")
                    .iter()
                    .map(|a| {
                        TrackedAccess::range(
                            ids[a.region.object.0 as usize],
                            a.region.range,
                            a.sa.stage().flag(),
                            a.sa.access(),
                        )
                    })
                    .collect();
                let host = acc.iter().any(|a| a.stage == vksync::PipelineStageFlags2::HOST);
                let needs = if host {
                    t.command(&acc)
                } else {
                    t.command_on(queue_of[i], &acc)
                }
                .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
                for qn in &needs.queues {
                    // A release (its own batch, submitted now) or a host
                    // command's barrier, submit and fence wait.
                    if !qn.barriers.is_empty() {
                        out.push(barrier_line(&qn.barriers, &input));
                    }
                    if qn.submit_and_wait.is_none() {
                        releases += 1;
                        let s = Submission {
                            queue: qn.queue,
                            ..Submission::default()
                        };
                        emit_submit(&mut t, &s, &mut out, &mut Vec::new());
                    } else if let Some(sn) = &qn.submit_and_wait {
                        for q in &sn.host_waits {
                            out.push(format!("wait {}", input.queue_name(*q)));
                        }
                        fenced += sn.host_waits.len() + 1;
                        let s = Submission {
                            queue: qn.queue,
                            waits: sn.waits.iter().map(|w| w.wait).collect::<Vec<SemaphoreWait>>(),
                            ..Submission::default()
                        };
                        out.push(submit_line(&s, &input));
                        out.push(format!("wait {}", input.queue_name(qn.queue)));
                    }
                }
                let lines = if host { &mut out } else { &mut batch };
                if !needs.barriers.is_empty() {
                    lines.push(barrier_line(&needs.barriers, &input));
                }
                lines.push(body[i].to_string());
            }
        }
    }
    out.append(&mut batch);
    Tracked {
        text: out.join("\n") + "\n",
        waits,
        host_waits: host_waits + fenced,
        releases,
    }
}

/// Header of every case: buffers `a`, `b`, `c` (256 bytes), `x`
/// (exclusive), queues `main` (family 0), `compute` (family 1), `transfer`
/// (family 2), binary semaphores `s`, `s2`, timeline semaphore `t`.
const HEADER: &str = "\
buffer a 256
buffer b 256
buffer c 256
buffer x 256 exclusive
queue main family 0
queue compute family 1
queue transfer family 2
semaphore s
semaphore s2
semaphore t timeline
";

#[test]
fn the_tracker_orders_what_the_checker_asks_across_queues() {
    // (what, body, tracker's semaphore waits, its host waits, releases)
    #[rustfmt::skip]
    let cases: &[(&str, &[&str], usize, usize, usize)] = &[
        ("no conflict across queues: nothing", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "fill b[0..256] 2", "submit compute",
        ], 0, 0, 0),
        ("upload on transfer, read on compute: wait for its signal", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "dispatch k read a[0..256] write b[0..256]", "submit compute",
        ], 1, 0, 0),
        ("the runtime's own wait already orders it: nothing added", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "dispatch k read a[0..256] write b[0..256]", "submit compute wait s@ALL_COMMANDS",
        ], 0, 0, 0),
        ("no signal pending: a host wait for the transfer queue", &[
            "fill a[0..256] 1", "submit transfer",
            "copy a[0..256] -> b[0..256]", "submit compute",
        ], 0, 1, 0),
        ("write after read across queues", &[
            "copy a[0..256] -> b[0..256]", "submit compute signal s",
            "fill a[0..256] 3", "submit transfer",
        ], 1, 0, 0),
        ("a chain through main orders compute after transfer", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "copy a[0..256] -> b[0..256]", "submit main wait s@ALL_COMMANDS signal s2",
            "dispatch k read a[0..256] write c[0..256]", "submit compute wait s2@ALL_COMMANDS",
        ], 0, 0, 0),
        ("two producers: one wait each", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "fill b[0..256] 2", "submit main signal s2",
            "dispatch k read a[0..256] read b[0..256] write c[0..256]", "submit compute",
        ], 2, 0, 0),
        ("a barrier inside the queue, a wait across", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "copy a[0..256] -> b[0..256]", "dispatch k read b[0..256] write c[0..256]", "submit compute",
        ], 1, 0, 0),
        ("a fence wait of the producer before: nothing", &[
            "fill a[0..256] 1", "submit transfer signal s", "wait transfer",
            "copy a[0..256] -> b[0..256]", "submit compute wait s@ALL_COMMANDS",
        ], 0, 0, 0),
        ("host reads compute's output: barrier to HOST, submit, wait", &[
            "fill a[0..256] 1", "submit transfer signal s",
            "copy a[0..256] -> b[0..256]", "submit compute",
            "host-read b[0..256]",
        ], 1, 1, 0),
        ("exclusive x from transfer to compute: release, acquire, wait", &[
            "fill x[0..256] 1", "submit transfer",
            "copy x[0..256] -> b[0..256]", "submit compute",
        ], 0, 1, 1),
        ("exclusive x with a signal after the release", &[
            "fill x[0..256] 1", "submit transfer signal s",
            "fill a[0..256] 1", "submit transfer signal s2",
            "copy x[0..256] -> b[0..256]", "submit compute",
        ], 0, 1, 1),
        ("the runtime's timeline wait orders it: nothing added", &[
            "fill a[0..256] 1", "submit transfer signal t:1",
            "dispatch k read a[0..256] write b[0..256]", "submit compute wait t:1@ALL_COMMANDS",
        ], 0, 0, 0),
        ("a timeline wait in the reader's stage only does not: a host wait", &[
            "fill a[0..256] 1", "submit transfer signal t:1",
            "dispatch k read a[0..256] write b[0..256]", "submit compute wait t:1@COMPUTE_SHADER",
        ], 0, 1, 0),
        ("a host wait for the producer's timeline value: nothing", &[
            "fill a[0..256] 1", "submit transfer signal t:1", "host-wait t 1",
            "copy a[0..256] -> b[0..256]", "submit compute",
        ], 0, 0, 0),
        ("the host writes what two queues read: one fence wait each", &[
            "copy a[0..256] -> b[0..256]", "submit transfer",
            "dispatch k read a[0..256] write c[0..256]", "submit compute",
            "host-write a[0..256] 5",
        ], 0, 2, 0),
        ("exclusive x back and forth: two transfers", &[
            "fill x[0..256] 1", "submit transfer signal s",
            "copy x[0..256] -> b[0..256]", "submit compute",
            "fill x[0..256] 2", "submit transfer",
        ], 0, 2, 2),
    ];
    let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline));
    for (what, body, want_waits, want_host, want_releases) in cases {
        let got = tracked(HEADER, body);
        if std::env::var_os("TRACKMQ_SHOW").is_some() {
            eprintln!(
                "== {what}\n{}",
                got.text.lines().skip(9).collect::<Vec<_>>().join("\n")
            );
        }
        let program = parse(&got.text)
            .unwrap_or_else(|e| panic!("{what}: the tracked program is valid: {e}\n{}", got.text))
            .program;
        let hazards = check(&program).unwrap_or_else(|e| panic!("{what}: checked: {e}\n{}", got.text));
        assert!(
            hazards.is_empty(),
            "{what}: no hazard after what the tracker said, got {:?}\n{}",
            hazards.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
            got.text
        );
        assert_eq!(
            (got.waits, got.host_waits, got.releases),
            (*want_waits, *want_host, *want_releases),
            "{what}: (semaphore waits, host waits, releases)\n{}",
            got.text
        );
        // The planner, free to add signals where it likes, never needs
        // more waits than the tracked program records.
        let input = parse(&format!("{HEADER}{}\n", body.join("\n")))
            .expect("valid")
            .program;
        let planned = plan_queues(&input, opts).unwrap_or_else(|e| panic!("{what}: planned: {e}"));
        // Waits of any kind the tracked program records: semaphore waits
        // (the runtime's and the tracker's), fences and timeline host
        // waits (the planner drops the input's and plans its own).
        let recorded: usize = program
            .commands()
            .iter()
            .map(|c| match c {
                Command::Submit(s) => s.waits.len(),
                Command::Wait(_) | Command::HostWait { .. } => 1,
                _ => 0,
            })
            .sum();
        assert!(
            planned.waits + planned.host_waits <= recorded,
            "{what}: the planner's {} + {} host waits, the tracked program's {recorded}",
            planned.waits,
            planned.host_waits,
        );
    }
}

/// A host access that needs the queue acquiring an exclusive buffer
/// submitted, while the release is recorded and not submitted: the
/// releasing queue is submitted (and waited for) first, in the order of
/// `Needs::queues`, and the program that order gives checks clean.
#[test]
fn a_host_access_submits_a_pending_release_first() {
    use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S};
    let mut t = Tracker::new();
    let compute = t.queue(1).unwrap();
    let transfer = t.queue(2).unwrap();
    let x = t.buffer(256).unwrap();
    t.exclusive(x).unwrap();
    let b = t.buffer(256).unwrap();
    t.command_on(transfer, &[TrackedAccess::whole(x, S::CLEAR, A::TRANSFER_WRITE)])
        .unwrap();
    let on = |q| Submission {
        queue: q,
        ..Submission::default()
    };
    assert!(t.submit_on(&on(transfer)).unwrap().is_empty());
    let copy = t
        .command_on(
            compute,
            &[
                TrackedAccess::whole(x, S::COPY, A::TRANSFER_READ),
                TrackedAccess::whole(b, S::COPY, A::TRANSFER_WRITE),
            ],
        )
        .unwrap();
    // The release, on the transfer queue, not submitted yet.
    assert_eq!(copy.queues.len(), 1);
    assert_eq!(copy.queues[0].queue, transfer);
    assert!(copy.queues[0].submit_and_wait.is_none());
    let read = t
        .command(&[TrackedAccess::whole(b, S::HOST, A::HOST_READ)])
        .unwrap();
    let order: Vec<(QueueId, usize, bool)> = read
        .queues
        .iter()
        .map(|q| (q.queue, q.barriers.len(), q.submit_and_wait.is_some()))
        .collect();
    assert_eq!(order, [(transfer, 0, true), (compute, 1, true)]);
    // The recorded program, in that order, has no hazard.
    let text = format!(
        "{HEADER}fill x[0..256] 1\nsubmit transfer\n{}\nsubmit transfer\nwait transfer\n{}\ncopy x[0..256] -> b[0..256]\n{}\nsubmit compute\nwait compute\nhost-read b[0..256]\n",
        "barrier CLEAR:TRANSFER_WRITE -> NONE:NONE x[0..256] ownership 2->1",
        "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE x[0..256] ownership 2->1",
        "barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ",
    );
    // What the text spells out is what the tracker said.
    assert_eq!(copy.barriers.len(), 1, "the acquire");
    assert_eq!(copy.barriers[0].dst_access_mask, A::MEMORY_READ | A::MEMORY_WRITE);
    assert_eq!(copy.queues[0].barriers[0].src_access_mask, A::TRANSFER_WRITE);
    assert_eq!(
        read.queues[1].barriers[0],
        Barrier::global(S::COPY, A::TRANSFER_WRITE, S::HOST, A::HOST_READ)
    );
    let program = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}")).program;
    assert!(check(&program).unwrap().is_empty(), "{text}");
}
