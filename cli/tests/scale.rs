//! Issue 27's scaling classes end to end: every class of
//! `vksync_proptests::scale` is generated at `VKSYNC_SCALE_LINES` lines
//! (default 10,000, which CI runs), then `vksync check` and `vksync plan`
//! (and the plan options the class stresses) run on it under the CLI's own
//! limits, `--time-limit` and `--max-memory`: a run that reaches one ends
//! with status 5 and fails here, as would a crash, an abort or a wrong
//! verdict. The limits are loose for a slow, shared CI machine; the exact
//! figures per size are in `docs/testing.md` ("Scaling by class"), measured
//! with `scripts/scale-table.sh`.
//!
//! `VKSYNC_SCALE_LINES=100000 cargo test --release -p vksync-cli --test
//! scale -- --nocapture` runs the larger sizes (not in CI); the time limit
//! grows with the size (linear: 60 s per 10,000 lines, at most 600 s), the
//! memory limit likewise (512 MiB per 10,000 lines, at most 8 GiB).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;
use vksync_proptests::scale::{trace, Class};

fn lines() -> usize {
    std::env::var("VKSYNC_SCALE_LINES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

/// Runs `vksync ARGS FILE` under the limits for `lines`; returns the exit
/// status, the seconds it took and the last line of stderr.
fn run(args: &[&str], file: &PathBuf, lines: usize) -> (i32, f64, String) {
    let tens = lines.div_ceil(10_000) as u64;
    let seconds = (60 * tens).min(600);
    // 512 MiB per 10,000 lines (the largest, `pieces` at 4,000 lines and
    // `pool`'s plans at 10,000, peak under 400 MB; docs/testing.md).
    let mib = (512 * tens).min(8 * 1024);
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_vksync"))
        .args([
            "--time-limit",
            &seconds.to_string(),
            "--max-memory",
            &format!("{mib}M"),
        ])
        .args(args)
        .arg(file)
        .env("VKSYNC_VALIDATION", "0")
        .output()
        .expect("run vksync");
    let took = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or("").to_string();
    // `None`: killed by a signal (an abort, a crash).
    let status = out.status.code().unwrap_or(-1);
    (status, took, last)
}

/// What `vksync check` must say of each class (0: no hazards, 1: hazards).
fn expected_check(class: Class) -> i32 {
    match class {
        Class::Flood | Class::Pieces | Class::Ownership | Class::Buffers => 1,
        Class::Pool
        | Class::Batches
        | Class::Event
        | Class::EventsReverse
        | Class::Timeline
        | Class::Frames => 0,
    }
}

/// The `vksync plan` runs a class stresses.
fn plans(class: Class) -> Vec<Vec<&'static str>> {
    let mut runs = vec![vec!["plan"]];
    match class {
        Class::Pool => {
            runs.push(vec!["plan", "--schedule"]);
            runs.push(vec!["plan", "--async-compute"]);
        }
        Class::Buffers => runs.push(vec!["plan", "--buffer-barriers"]),
        _ => {}
    }
    runs
}

#[test]
fn every_class_is_checked_and_planned_within_the_limits() {
    let n = lines();
    let dir = std::env::temp_dir().join(format!("vksync-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for class in Class::ALL {
        let file = dir.join(format!("{}-{n}.trace", class.name()));
        std::fs::write(&file, trace(class, n)).unwrap();
        let (status, took, last) = run(&["check"], &file, n);
        println!(
            "{:<15} check  {took:>7.2} s  status {status}  {last}",
            class.name()
        );
        if status != expected_check(class) {
            failures.push(format!("{} check: status {status}: {last}", class.name()));
        }
        // Each read of the whole buffer races every piece: the report names
        // a run of pieces once per read, but the planner still works with
        // the pairs (quadratic). Its plans are kept at 4,000 lines, 4
        // million racing pairs.
        let (file, n) = if class == Class::Pieces && n > 4_000 {
            let small = dir.join(format!("{}-4000.trace", class.name()));
            std::fs::write(&small, trace(class, 4_000)).unwrap();
            (small, 4_000)
        } else {
            (file, n)
        };
        for args in plans(class) {
            let (status, took, last) = run(&args, &file, n);
            println!(
                "{:<15} {:<24} {took:>7.2} s  status {status}",
                class.name(),
                args.join(" ")
            );
            // A plan is printed (0), or the program is refused with a
            // reason (2: events are not planned); never a limit (5) or a
            // crash.
            let refused_with_reason = status == 2 && last.contains("error:");
            if status != 0 && !refused_with_reason {
                failures.push(format!(
                    "{} {}: status {status}: {last}",
                    class.name(),
                    args.join(" ")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "at {n} lines:\n{}", failures.join("\n"));
}

#[test]
fn a_memory_limit_ends_with_a_message_and_status_5() {
    let dir = std::env::temp_dir().join(format!("vksync-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pool.trace");
    std::fs::write(&file, trace(Class::Pool, 20_000)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vksync"))
        .args(["plan", "--max-memory", "4M"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(
        stderr.starts_with("vksync: error: memory limit reached: the next allocation would hold ")
            && stderr
                .trim_end()
                .ends_with("(--max-memory); output printed so far is incomplete"),
        "{stderr}"
    );
    // A limit below what standard output's buffer takes, reached at the
    // first write: status 5 too, not a hang (review37: the exit waited on
    // standard output's one-time initialisation it was called from).
    let empty = dir.join("empty.trace");
    std::fs::write(&empty, "").unwrap();
    for limit in ["1", "1000"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vksync"))
            .args(["check", "--max-memory", limit])
            .arg(&empty)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if start.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(
            status.and_then(|s| s.code()),
            Some(5),
            "--max-memory {limit}: {status:?} (None: still running after 30 s)"
        );
    }
    // 2,000 fills of distinct pieces, 2,000 reads of them all, by the
    // definitional semantics (every pair a node pair of its graph): far
    // more than 0.2 s on any machine (19 s in release here; the fast
    // checker takes 0.01 s since a run of pieces is one hazard per read).
    let slow = dir.join("pieces.trace");
    std::fs::write(&slow, trace(Class::Pieces, 4_000)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vksync"))
        .args(["check", "--by-definition", "--time-limit", "0.2"])
        .arg(&slow)
        .env("VKSYNC_VALIDATION", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(
        stderr.contains(
            "vksync: error: time limit reached: 0.2 s (--time-limit); output printed so far is incomplete"
        ),
        "{stderr}"
    );
    for (args, message) in [
        (
            vec!["check", "--max-memory", "lots"],
            "`lots` is not a size (write bytes, or a number with K, M, G or T)",
        ),
        (
            vec!["check", "--time-limit=-1"],
            "`-1` is not a number of seconds greater than 0",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_vksync"))
            .args(&args)
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27's `timeline-3200` (`scripts/issue27-audit.sh`): `fills` fills
/// of `a` on `qa`, each signalling a timeline, each followed by a copy of
/// `a` into `b` on `qb` that waits for it at `COPY`. No barrier orders the
/// fills, nor the copies: each fill races every earlier fill and each copy
/// every earlier copy (write-after-write), and each fill the copy before
/// it (write-after-read): `fills² - 1` pairs, a report of `3 (fills - 1)`
/// lines.
fn timeline_waits(fills: usize) -> String {
    let mut t = String::from("queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\n");
    for i in 1..=fills {
        t += &format!("fill a[0..64] 1\nsubmit qa signal t:{i}\n");
        t += &format!("copy a[0..64] -> b[0..64]\nsubmit qb wait t:{i}@COPY\n");
    }
    t + "wait\n"
}

/// The multi-queue walk groups the pairs as it finds them: `check`'s heap
/// stays within a limit that does not grow with the pairs. Keeping every
/// pair until the report took 143 MB at 800 fills and 549 MB at 1,600
/// (docs/testing.md, "Racing pairs across queues"); grouped, one 16 MiB
/// heap limit holds 400 and 800 fills (160,000 and 640,000 pairs), and
/// each prints one line per later access and kind, the last naming the
/// three nearest copies and counting the rest.
#[test]
fn racing_pairs_across_queues_are_checked_in_linear_memory() {
    let dir = std::env::temp_dir().join(format!("vksync-pairs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for fills in [400, 800] {
        let file = dir.join(format!("timeline-{fills}.trace"));
        std::fs::write(&file, timeline_waits(fills)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_vksync"))
            .args(["check", "--max-memory", "16M", "--time-limit", "300"])
            .arg(&file)
            .env("VKSYNC_VALIDATION", "0")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{fills} fills: {stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3 * (fills - 1), "{fills} fills: {stderr}");
        let last = lines.last().unwrap();
        assert!(
            last.contains("vkCmdCopyBuffer writes b[0..64]")
                && last.contains(&format!("and by {} more earlier accesses", fills - 4)),
            "{last}"
        );
        assert!(
            stderr.contains(&format!("{} racing pairs of accesses", fills * fills - 1)),
            "{fills} fills: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
