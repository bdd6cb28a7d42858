//! A heap limit for the process: [`LimitedAlloc`], a global allocator that
//! counts the bytes the process holds and, when an allocation would take
//! them past the limit ([`set_memory_limit`]), ends the process with one
//! line on stderr and a chosen exit status instead of letting the
//! allocation fail (which aborts a Rust program with no way to say why)
//! or the kernel's OOM killer end it.
//!
//! It lives here because it needs `unsafe` (a `GlobalAlloc`), which the
//! workspace keeps to this crate and the capture layer; it knows nothing of
//! Vulkan. A binary opts in with `#[global_allocator]`; without a limit set
//! it only counts (one relaxed atomic add per allocation). The count is of
//! requested bytes, not of pages the system maps, so a limit should leave
//! room for the allocator's own overhead ([`default_memory_limit`] keeps a
//! quarter back).
//!
//! Invariant: the message is written without allocating (a stack buffer),
//! and the limit is lifted before exiting, so nothing the exit path
//! allocates can come back here.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

static USED: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static STATUS: AtomicI32 = AtomicI32::new(1);
/// What the over-limit message names the limit after (`--max-memory`, or
/// the default's source): an index into [`SOURCES`].
static SOURCE: AtomicUsize = AtomicUsize::new(0);

/// Where a limit came from, as the message names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitSource {
    /// The user's `--max-memory`.
    Option,
    /// Three quarters of the address-space limit (`ulimit -v`).
    AddressSpace,
    /// Three quarters of the machine's (or the control group's) memory.
    Physical,
}

const SOURCES: [&str; 3] = [
    "--max-memory",
    "the default, 3/4 of the address-space limit (ulimit -v); set --max-memory",
    "the default, 3/4 of the memory this machine or control group has; set --max-memory",
];

/// The global allocator that enforces [`set_memory_limit`].
pub struct LimitedAlloc;

/// Sets the heap limit in bytes, the exit status for reaching it, and what
/// the message names as its source.
pub fn set_memory_limit(bytes: u64, status: i32, source: LimitSource) {
    // Standard output's buffer is allocated at its first use, inside a
    // one-time initialisation; reaching the limit there made
    // `over_limit`'s exit wait, flushing standard output, on that same
    // initialisation: a hang (review37, `--max-memory 1`). Made here,
    // before the limit, it is never allocated under it.
    drop(std::io::stdout().lock());
    STATUS.store(status, Ordering::Relaxed);
    SOURCE.store(source as usize, Ordering::Relaxed);
    LIMIT.store(usize::try_from(bytes).unwrap_or(usize::MAX), Ordering::Relaxed);
}

/// Bytes the process holds on the heap now (through [`LimitedAlloc`]).
pub fn memory_in_use() -> u64 {
    USED.load(Ordering::Relaxed) as u64
}

/// Bytes the process may still allocate before reaching the limit
/// (`u64::MAX` without one): what a fallible allocation must ask of this
/// first, since one past the limit ends the process instead of failing.
pub fn headroom() -> u64 {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == usize::MAX {
        return u64::MAX;
    }
    limit.saturating_sub(USED.load(Ordering::Relaxed)) as u64
}

/// The default limit: three quarters of the smallest of the address-space
/// limit (`RLIMIT_AS`, from `/proc/self/limits`), the machine's memory
/// (`MemTotal`) and the control group's (`memory.max`), with its source;
/// `None` when none can be read.
pub fn default_memory_limit() -> Option<(u64, LimitSource)> {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let address_space = address_space_limit(&limits);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let physical = crate::checks::mem_total(&meminfo);
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let physical = match (physical, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let (bytes, source) = match (address_space, physical) {
        (Some(a), Some(p)) if a < p => (a, LimitSource::AddressSpace),
        (_, Some(p)) => (p, LimitSource::Physical),
        (Some(a), None) => (a, LimitSource::AddressSpace),
        (None, None) => return None,
    };
    Some((bytes / 4 * 3, source))
}

/// `Max address space` of `/proc/self/limits` (soft limit), in bytes;
/// `None` when unlimited or absent.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Parses a size: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1024; `KiB`, `MB` and the like are read the same).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let num: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size (write bytes, or a number with K, M, G or T)"))?;
    let scale: u64 = match unit.trim().to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("`{text}`: unknown unit `{unit}` (use K, M, G or T)")),
    };
    let bytes = num * scale as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(format!("`{text}` is not a usable memory limit"));
    }
    Ok(bytes as u64)
}

/// Writes the over-limit line and exits; never returns.
#[cold]
fn over_limit(wanted: usize) -> ! {
    let limit = LIMIT.swap(usize::MAX, Ordering::Relaxed);
    let mut buf = [0u8; 512];
    let mut w: &mut [u8] = &mut buf;
    // Bytes in the unit that shows them best, without allocating.
    struct Size(usize);
    impl std::fmt::Display for Size {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let b = self.0 as f64;
            match self.0 {
                n if n >= 1 << 30 => write!(f, "{:.1} GiB", b / (1u64 << 30) as f64),
                n if n >= 1 << 20 => write!(f, "{:.1} MiB", b / (1u64 << 20) as f64),
                _ => write!(f, "{:.1} KiB", b / 1024.0),
            }
        }
    }
    let source = SOURCES.get(SOURCE.load(Ordering::Relaxed)).copied().unwrap_or("");
    // A stack buffer: formatting into it does not allocate.
    let _ = writeln!(
        w,
        "vksync: error: memory limit reached: the next allocation would hold {}, over the limit of {} ({source}); output printed so far is incomplete",
        Size(wanted),
        Size(limit),
    );
    let left = w.len();
    let n = buf.len() - left;
    let _ = std::io::stderr().write_all(&buf[..n]);
    std::process::exit(STATUS.load(Ordering::Relaxed));
}

fn take(size: usize) {
    let before = USED.fetch_add(size, Ordering::Relaxed);
    let now = before.saturating_add(size);
    if now > LIMIT.load(Ordering::Relaxed) {
        USED.fetch_sub(size, Ordering::Relaxed);
        over_limit(now);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees are ours; the bookkeeping around it
// touches only atomics, and `over_limit` never returns a pointer.
unsafe impl GlobalAlloc for LimitedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`,
        // with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        USED.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            take(new_size - layout.size());
        }
        // SAFETY: `ptr` came from `System` with `layout`; the caller upholds
        // `realloc`'s contract for `new_size`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            // The old block stays; give back what was counted for growth.
            if new_size > layout.size() {
                USED.fetch_sub(new_size - layout.size(), Ordering::Relaxed);
            }
        } else if new_size < layout.size() {
            USED.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_parsed_in_powers_of_1024() {
        let cases: &[(&str, Result<u64, &str>)] = &[
            ("4096", Ok(4096)),
            ("4K", Ok(4096)),
            ("512M", Ok(512 << 20)),
            ("1.5G", Ok(3 << 29)),
            ("2GiB", Ok(2 << 30)),
            ("2gb", Ok(2 << 30)),
            ("1T", Ok(1 << 40)),
            ("0", Err("`0` is not a usable memory limit")),
            (
                "lots",
                Err("`lots` is not a size (write bytes, or a number with K, M, G or T)"),
            ),
            ("3Q", Err("`3Q`: unknown unit `Q` (use K, M, G or T)")),
        ];
        for (text, want) in cases {
            assert_eq!(parse_size(text), want.map_err(str::to_string), "{text}");
        }
    }

    #[test]
    fn the_address_space_limit_is_read_from_proc_limits() {
        let unlimited = "Limit                     Soft Limit           Hard Limit           Units\n\
                         Max address space         unlimited            unlimited            bytes\n";
        let set = "Max address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert_eq!(address_space_limit(set), Some(4 << 30));
        assert_eq!(address_space_limit(""), None);
    }
}
