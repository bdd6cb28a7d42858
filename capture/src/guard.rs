//! Which pages of mapped memory the host wrote, found by page protection
//! instead of by reading the memory back.
//!
//! Diffing a shadow copy of every mapped range at every submission reads
//! all of mapped memory each time; on a discrete GPU that memory is often
//! uncached or write-combined (device memory seen through the PCIe BAR),
//! where reads are slow enough to make a long run impossible (NVIDIA
//! H200: 24 MiB mapped by ncnn, seconds per inference). This module owns
//! the other way: a guarded range is made read-only with `mprotect`; the
//! first write to each page faults, a `SIGSEGV` handler marks the page
//! dirty and makes it writable again, and the write goes on. At the next
//! submission only dirty pages are compared with the shadow copy (which
//! still gives exact byte spans), then protected again.
//!
//! It does not know memory objects or the trace: [`Guarded`] hands back
//! dirty windows (offset and length in its mapped range) and the caller
//! reads them.
//!
//! Invariants and limits:
//!
//! - The handler only touches atomics and calls `mprotect`; a fault whose
//!   address no guarded range covers goes to the handler that was
//!   installed before this one (or, if that was the default, the default
//!   action is restored and the fault repeats, so the process dies as it
//!   would have). An application that installs its own `SIGSEGV` handler
//!   after the layer is seen at its next intercepted Vulkan call
//!   ([`replaced`]): the guard then steps aside for good ([`step_aside`]:
//!   every guard is dropped, whole ranges are diffed, the application's
//!   handler stays). A write to guarded memory between the application's
//!   `sigaction` and that call still reaches the application's handler,
//!   which does not know the fault; and a system call
//!   that writes into guarded memory (a `read(2)` straight into a mapped
//!   buffer) fails with `EFAULT` instead of faulting. Set
//!   `VKSYNC_CAPTURE_HOST_WRITES=diff` for those applications.
//! - A page marked dirty stays dirty until [`Guarded::take_dirty`] takes
//!   it; a page is protected again only after its bit is cleared and
//!   before it is read, and the handler makes a page writable before it
//!   marks it, so a write racing with a submission is seen now or at the
//!   next one, never lost.
//! - Only write faults on present pages of a guarded range are claimed (on
//!   x86-64 the fault's error code says so; elsewhere every access-rights
//!   fault in a guarded range is taken for a write, reads never fault
//!   there). A guard is removed when it is dropped (unmap, free, device
//!   destruction), before the memory can be unmapped and its addresses
//!   reused.
//! - Only pages wholly inside the mapped range are protected: a mapping
//!   need not start or end on a page (lavapipe's device memory comes from
//!   the heap), and protecting a page that holds other data would make a
//!   system call writing that data fail. The partial first and last pages
//!   are compared at every take instead, and a range with no whole page is
//!   not guarded at all.
//! - A guard may leave hot pages open ([`Guarded::leave_hot_pages_open`],
//!   the layer's choice for `HOST_CACHED` memory): a page dirty at two
//!   takes in a row stays writable and is handed back by every take, so
//!   it is compared at every submission instead of faulting at every one;
//!   every [`OPEN_FOR`]th take protects the open pages again (before
//!   they are read, as above). An open page is never both unprotected and
//!   left out of a take, so the rule stays: a write is seen now or at the
//!   next take. On lavapipe the device's writes are CPU writes into the
//!   same pages, and each page the device wrote faulted once per
//!   submission (74 faults per ncnn inference).
//! - At most [`SLOTS`] ranges are guarded at once; beyond that, and where
//!   `mprotect` fails, [`guard`] returns `None` and the caller diffs.
//! - Which ranges are worth guarding is the caller's policy, not this
//!   module's: the layer (`layer.rs`, `diff_mapped`) unguards a range the
//!   host writes most of between submissions (a fault per page then costs
//!   far more than reading the pages) and guards it again once it is
//!   quiet.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Guarded ranges at once.
pub const SLOTS: usize = 256;

/// One guarded range, readable by the signal handler: free while `start`
/// and `end` are 0; reserved (not matched) while only `end` is set.
struct Slot {
    /// First page address (page-aligned), or 0.
    start: AtomicUsize,
    /// One past the last page's end.
    end: AtomicUsize,
    /// The dirty bitmap block: word 0 holds the number `n` of bitmap words
    /// that follow it, one bit per page. One pointer, so a handler that
    /// loads it sees a length and a bitmap that belong together. Never
    /// freed (a handler may still hold an old one).
    block: AtomicPtr<AtomicU64>,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    block: AtomicPtr::new(std::ptr::null_mut()),
};

static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

/// The action that was installed before ours (set before ours is).
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();
/// Whether ours is installed.
static INSTALLED: OnceLock<bool> = OnceLock::new();
/// The application replaced our handler: no more guards ([`step_aside`]).
static STEPPED_ASIDE: AtomicBool = AtomicBool::new(false);

/// The page size (`sysconf`), the guard's unit.
pub fn page_size() -> usize {
    static PAGE: OnceLock<usize> = OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: sysconf has no preconditions.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if p > 0 {
            p as usize
        } else {
            4096
        }
    })
}

/// The bitmap word `w` of a slot's block, if the block has it.
fn word(block: *mut AtomicU64, w: usize) -> Option<&'static AtomicU64> {
    if block.is_null() {
        return None;
    }
    // SAFETY: a non-null block is a leaked allocation of `1 + n` atomics
    // whose first holds `n`, never freed; `w < n` is checked before the
    // element is reached.
    unsafe {
        let n = (*block).load(Ordering::Acquire) as usize;
        (w < n).then(|| &*block.add(1 + w))
    }
}

/// Whether a guarded range covers `page_addr`.
fn covered(page_addr: usize) -> bool {
    TABLE.iter().any(|slot| {
        let start = slot.start.load(Ordering::Acquire);
        start != 0 && page_addr >= start && page_addr < slot.end.load(Ordering::Acquire)
    })
}

/// Marks `page_addr` dirty in every slot covering it.
fn mark(page_addr: usize) {
    for slot in &TABLE {
        let start = slot.start.load(Ordering::Acquire);
        if start == 0 || page_addr < start || page_addr >= slot.end.load(Ordering::Acquire) {
            continue;
        }
        let page = (page_addr - start) / page_size();
        if let Some(w) = word(slot.block.load(Ordering::Acquire), page / 64) {
            w.fetch_or(1 << (page % 64), Ordering::AcqRel);
        }
    }
}

/// `si_code` of a fault on a page whose protection forbids the access
/// (Linux, `<asm-generic/siginfo.h>`; the libc crate does not export it).
const SEGV_ACCERR: libc::c_int = 2;

/// Whether the fault is a write to a present page (the only fault the
/// guard causes). On x86-64 the page-fault error code says so; elsewhere
/// every access-rights fault is taken for a write (a read of a guarded
/// page never faults: the guard leaves pages readable).
fn write_fault(info: *mut libc::siginfo_t, context: *mut libc::c_void) -> bool {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    if unsafe { (*info).si_code } != SEGV_ACCERR {
        return false;
    }
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        // SAFETY: for an SA_SIGINFO handler `context` is the interrupted
        // thread's ucontext_t; REG_ERR holds the page-fault error code,
        // whose bit 1 is set for a write.
        let err =
            unsafe { (*(context as *const libc::ucontext_t)).uc_mcontext.gregs[libc::REG_ERR as usize] };
        err & 2 != 0
    }
    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
    {
        let _ = context;
        true
    }
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler;
    // `si_addr` is the faulting address for SIGSEGV.
    let addr = unsafe { (*info).si_addr() } as usize;
    let page_addr = addr & !(page_size() - 1);
    // Writable first, then marked: a `take_dirty` on another thread either
    // sees the mark (and protects and compares the page again) or runs
    // before it (and the mark stays for the next one). Marking first could
    // let a `take_dirty` clear the mark and protect the page before this
    // handler makes it writable again, leaving it writable and unmarked.
    if write_fault(info, context)
        && covered(page_addr)
        // SAFETY: `page_addr` is a page of a range this module protected
        // (mapped memory the application may write); making it writable
        // again restores what the application had.
        && unsafe { protect(page_addr, page_size(), true) }
    {
        mark(page_addr);
        return;
    }
    chain(sig, info, context);
}

/// Passes a fault that is not ours to the handler installed before.
fn chain(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    let default = || {
        // Returning with the default action restored repeats the fault,
        // which then ends the process as it would have without us.
        // SAFETY: a zeroed sigaction with SIG_DFL is a valid action.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(libc::SIGSEGV, &dfl, std::ptr::null_mut());
        }
    };
    match PREVIOUS.get() {
        Some(old) if old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN => {
            if old.sa_flags & libc::SA_RESETHAND != 0 {
                // The kernel would have reset it on entry.
                default();
            }
            if old.sa_flags & libc::SA_SIGINFO != 0 {
                // SAFETY: an SA_SIGINFO handler has this signature.
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    unsafe { std::mem::transmute(old.sa_sigaction) };
                f(sig, info, context);
            } else {
                // SAFETY: a plain handler has this signature.
                let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(old.sa_sigaction) };
                f(sig);
            }
        }
        _ => default(),
    }
}

/// Installs the handler once, after reading the one it replaces; `false`
/// if that failed.
fn install() -> bool {
    *INSTALLED.get_or_init(|| {
        // SAFETY: sigaction with a null new action only reads the current
        // one; then with a valid new action. The handler is
        // async-signal-safe (atomics, mprotect and sigaction only).
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGSEGV, std::ptr::null(), &mut old) != 0 {
                return false;
            }
            let _ = PREVIOUS.set(old);
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_fault as *const () as usize;
            new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
            libc::sigemptyset(&mut new.sa_mask);
            libc::sigaction(libc::SIGSEGV, &new, std::ptr::null_mut()) == 0
        }
    })
}

/// `mprotect` on whole pages from `start` (page-aligned) for `len` bytes.
///
/// # Safety
/// The pages belong to a mapping the caller guards (mapped memory).
unsafe fn protect(start: usize, len: usize, writable: bool) -> bool {
    let prot = if writable {
        libc::PROT_READ | libc::PROT_WRITE
    } else {
        libc::PROT_READ
    };
    // SAFETY: per this function's contract.
    unsafe { libc::mprotect(start as *mut libc::c_void, len, prot) == 0 }
}

/// Open pages (a guard that leaves hot pages open leaves a page dirty at
/// two takes in a row writable, and hands it back at every take:
/// [`Guarded::leave_hot_pages_open`]) are protected again at every take
/// whose number is a multiple of this: a page the device or the host keeps
/// writing then faults twice in `OPEN_FOR` takes instead of at every one,
/// and a page that went quiet is compared at most `OPEN_FOR` more times.
pub const OPEN_FOR: u64 = 64;

/// A mapped range under page protection.
#[derive(Debug)]
pub struct Guarded {
    slot: usize,
    /// The mapped pointer and length.
    base: usize,
    len: usize,
    /// The pages covering it.
    first: usize,
    pages: usize,
    /// Whether pages dirty at two takes in a row are left open.
    open_hot: bool,
    /// Pages left open: writable, not protected, handed back by every take
    /// (the owner's state; the handler never reads it). One bit per page.
    open: Vec<u64>,
    /// Pages that were dirty at the last take (and are protected).
    hot: Vec<u64>,
    /// Takes so far.
    takes: u64,
}

/// Whether page protection is wanted (`VKSYNC_CAPTURE_HOST_WRITES` is not
/// `diff`) and the guard has not stepped aside.
pub fn enabled() -> bool {
    !STEPPED_ASIDE.load(Ordering::Acquire)
        && std::env::var("VKSYNC_CAPTURE_HOST_WRITES").map_or(true, |v| v != "diff")
}

/// Whether something (the application) replaced this module's `SIGSEGV`
/// handler after it was installed, and the guard has not stepped aside
/// yet. One `sigaction` query; false before the handler is installed.
pub fn replaced() -> bool {
    if INSTALLED.get() != Some(&true) || STEPPED_ASIDE.load(Ordering::Acquire) {
        return false;
    }
    // SAFETY: sigaction with a null new action only reads the current one.
    unsafe {
        let mut cur: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGSEGV, std::ptr::null(), &mut cur) == 0
            && cur.sa_sigaction != on_fault as *const () as usize
    }
}

/// From now on no range is guarded ([`enabled`] is false): the application
/// handles `SIGSEGV` itself, and a fault on a guarded page would reach its
/// handler, which knows nothing of it. The caller drops the guards it
/// holds (their pages become writable) and diffs whole ranges instead.
/// The handler is left as the application set it.
pub fn step_aside() {
    STEPPED_ASIDE.store(true, Ordering::Release);
}

/// Protects the whole pages of the `len` bytes at `base` (mapped memory)
/// and tracks writes to them; `None` when the range holds no whole page, no
/// slot is free, the handler cannot be installed or `mprotect` refuses
/// (the caller then diffs the whole range).
///
/// # Safety
/// `base..base + len` is mapped memory that stays mapped until
/// [`Guarded::unguard`].
pub unsafe fn guard(base: usize, len: usize) -> Option<Guarded> {
    let page = page_size();
    let first = base.checked_next_multiple_of(page)?;
    let end = (base.checked_add(len)?) & !(page - 1);
    if base == 0 || first >= end || !install() {
        return None;
    }
    let pages = (end - first) / page;
    let words = pages.div_ceil(64);
    // Reserve a free slot (end != 0 while start == 0: taken, not matched)
    // with one compare-and-swap: two threads mapping memory at once must
    // not both take the same slot (a plain load-then-store let them, and
    // the second range then replaced the first, whose protected pages
    // faulted with no slot covering them: a SIGSEGV passed on to the
    // default action).
    let slot = TABLE.iter().position(|s| {
        s.start.load(Ordering::Acquire) == 0
            && s.end
                .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
    })?;
    let s = &TABLE[slot];
    let block = s.block.load(Ordering::Acquire);
    match word(block, words.saturating_sub(1)) {
        Some(_) => {
            for w in 0..words {
                if let Some(w) = word(block, w) {
                    w.store(0, Ordering::Release);
                }
            }
        }
        None => {
            // The slot's old block, if any, is leaked: a handler may hold it.
            let fresh: Box<[AtomicU64]> = (0..=words)
                .map(|w| AtomicU64::new(if w == 0 { words as u64 } else { 0 }))
                .collect();
            s.block.store(Box::leak(fresh).as_mut_ptr(), Ordering::Release);
        }
    }
    s.end.store(first + pages * page, Ordering::Release);
    s.start.store(first, Ordering::Release);
    // SAFETY: per this function's contract.
    if !unsafe { protect(first, pages * page, false) } {
        // A partial failure may have protected some pages: restore them
        // all before the slot stops covering them.
        // SAFETY: as above.
        unsafe { protect(first, pages * page, true) };
        s.start.store(0, Ordering::Release);
        s.end.store(0, Ordering::Release);
        return None;
    }
    Some(Guarded {
        slot,
        base,
        len,
        first,
        pages,
        open_hot: false,
        open: Vec::new(),
        hot: Vec::new(),
        takes: 0,
    })
}

impl Guarded {
    /// Leaves hot pages open from now on: a page dirty at two
    /// takes in a row stays writable and is handed back by every take
    /// (until the next take numbered a multiple of [`OPEN_FOR`] protects
    /// it again), instead of faulting once per take. For memory the host
    /// reads cheaply (`HOST_CACHED`): comparing an open page costs a read
    /// of it, a fault costs a signal, two `mprotect` calls and a TLB
    /// shootdown, several microseconds. Where the device's writes are CPU
    /// writes (lavapipe), every page the device writes faulted at every
    /// submission.
    pub fn leave_hot_pages_open(&mut self) {
        self.open_hot = true;
    }

    /// Takes the dirty pages that overlap `within` (offsets in the mapped
    /// range; `None`: all of it) and returns the windows to compare, as
    /// `(offset, len)` in the mapped range, merged where adjacent: the
    /// dirty pages, the open pages, and always the unprotected partial
    /// pages at either end. A dirty page wholly inside `within` is clean
    /// and protected again before this returns, or left open (above); one
    /// only partly inside stays dirty. An open page is protected again
    /// before this returns when the take's number says so; either way it
    /// is handed back. Read the windows after this returns.
    pub fn take_dirty(&mut self, within: Option<(usize, usize)>) -> Vec<(usize, usize)> {
        let page = page_size();
        let (lo, hi) = within.unwrap_or((0, self.len));
        let (lo, hi) = (lo.min(self.len), hi.min(self.len));
        let mut out: Vec<(usize, usize)> = Vec::new();
        if lo >= hi {
            return out;
        }
        self.takes += 1;
        let closing = self.takes.is_multiple_of(OPEN_FOR);
        let words = self.pages.div_ceil(64);
        if self.open_hot && self.open.len() < words {
            self.open.resize(words, 0);
            self.hot.resize(words, 0);
        }
        let push = |out: &mut Vec<(usize, usize)>, s: usize, e: usize| {
            let (s, e) = (s.max(lo), e.min(hi));
            if s >= e {
                return;
            }
            match out.last_mut() {
                Some(last) if last.0 + last.1 == s => last.1 += e - s,
                _ => out.push((s, e - s)),
            }
        };
        // The partial page before the protected ones.
        push(&mut out, 0, self.first - self.base);
        let first_page = (self.base + lo).saturating_sub(self.first) / page;
        let last_page = ((self.base + hi - 1).saturating_sub(self.first) / page).min(self.pages - 1);
        // Consecutive pages taken are protected again with one `mprotect`
        // (each call that removes write access costs a TLB shootdown on
        // every core the process runs on; one per page made a writer
        // thread on another core crawl). Each page's bit is cleared before
        // its run is protected, and every run is protected before this
        // returns, so before the windows are read.
        let mut run: Option<(usize, usize)> = None;
        let slot = self.slot;
        let bit = |p: usize| {
            static ZERO: AtomicU64 = AtomicU64::new(0);
            word(TABLE[slot].block.load(Ordering::Acquire), p / 64).unwrap_or(&ZERO)
        };
        let (first, open_hot) = (self.first, self.open_hot);
        let protect_run = |run: &mut Option<(usize, usize)>| {
            if let Some((p0, n)) = run.take() {
                // SAFETY: pages of this guard's range (`guard`'s
                // contract). If it fails the pages stay writable and are
                // marked dirty again, to be taken next time.
                if !unsafe { protect(first + p0 * page, n * page, false) } {
                    for p in p0..p0 + n {
                        bit(p).fetch_or(1u64 << (p % 64), Ordering::AcqRel);
                    }
                }
            }
        };
        let mut p = first_page;
        while p <= last_page {
            let (w, mask) = (p / 64, 1u64 << (p % 64));
            let dirty_word = bit(p).load(Ordering::Acquire);
            let (open_word, hot_word) = match open_hot {
                true => (self.open[w], self.hot[w]),
                false => (0, 0),
            };
            // A word with nothing dirty, open or hot is skipped whole (a
            // large mapping is mostly quiet).
            if dirty_word | open_word | hot_word == 0 {
                protect_run(&mut run);
                p = (w + 1) * 64;
                continue;
            }
            let addr = self.first + p * page;
            // A page only partly inside `within` is left as it is (dirty
            // stays dirty and writable, open stays open): its other bytes
            // are taken by a later call.
            let whole = addr - self.base >= lo && addr + page - self.base <= hi;
            let (dirty, open) = (dirty_word & mask != 0, open_word & mask != 0);
            if !whole {
                protect_run(&mut run);
                if dirty || open {
                    push(&mut out, addr - self.base, addr + page - self.base);
                }
                p += 1;
                continue;
            }
            // Taken now: a mark left by a fault that raced with opening
            // the page is cleared too, the page being read below.
            if dirty {
                bit(p).fetch_and(!mask, Ordering::AcqRel);
            }
            let stays_open = if open {
                !closing
            } else {
                // Hot twice in a row: left open instead of protected.
                dirty && open_hot && hot_word & mask != 0
            };
            if open_hot {
                self.hot[w] &= !mask;
                if stays_open {
                    self.open[w] |= mask;
                } else {
                    self.open[w] &= !mask;
                    if dirty && !open {
                        self.hot[w] |= mask;
                    }
                }
            }
            if stays_open {
                protect_run(&mut run);
            } else if dirty || open {
                match &mut run {
                    Some((p0, n)) if *p0 + *n == p => *n += 1,
                    _ => {
                        protect_run(&mut run);
                        run = Some((p, 1));
                    }
                }
            } else {
                // Clean, and protected already.
                protect_run(&mut run);
            }
            if dirty || open {
                push(&mut out, addr - self.base, addr + page - self.base);
            }
            p += 1;
        }
        protect_run(&mut run);
        // The partial page after them.
        push(&mut out, self.first + self.pages * page - self.base, self.len);
        out
    }

    /// How many whole pages are guarded, and how many bytes of the range
    /// lie outside them (the partial first and last pages, which every
    /// [`Guarded::take_dirty`] hands back whatever was written).
    pub fn extent(&self) -> (usize, usize) {
        (self.pages, self.len - self.pages * page_size())
    }

    /// Stops guarding: the range is writable again (as dropping the guard
    /// does).
    pub fn unguard(self) {
        drop(self);
    }
}

impl Drop for Guarded {
    /// The range is made writable before the slot stops covering it, so a
    /// write racing with this still finds a handler that claims it.
    fn drop(&mut self) {
        let s = &TABLE[self.slot];
        // SAFETY: the range's pages (`guard`'s contract): writable again, as
        // the application mapped them.
        unsafe { protect(self.first, self.pages * page_size(), true) };
        s.start.store(0, Ordering::Release);
        s.end.store(0, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Windows = Vec<(usize, usize)>;
    /// A case: name, pages, skew, write offsets, `within`, the first take,
    /// the second.
    type Case<'a> = (
        &'a str,
        usize,
        usize,
        Vec<usize>,
        Option<(usize, usize)>,
        Windows,
        Windows,
    );

    /// An anonymous mapping of `pages` pages, standing in for mapped
    /// device memory.
    fn mapping(pages: usize) -> (*mut u8, usize) {
        let len = pages * page_size();
        // SAFETY: a fresh private anonymous mapping.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        (p.cast(), len)
    }

    /// Writes bytes at the given offsets of a guarded mapping (at `skew`
    /// bytes past its start), takes the dirty windows within `within`, and
    /// returns them with what a second take (no writes between) gives.
    fn writes(pages: usize, skew: usize, at: &[usize], within: Option<(usize, usize)>) -> (Windows, Windows) {
        let (p, len) = mapping(pages);
        // SAFETY: the mapping is ours and stays mapped until munmap below.
        let mut g = unsafe { guard(p as usize + skew, len - skew) }.expect("guarded");
        for &o in at {
            // SAFETY: inside the mapping; the fault is handled.
            unsafe { std::ptr::write_volatile(p.add(skew + o), 7) };
        }
        let first = g.take_dirty(within);
        let second = g.take_dirty(None);
        // Written again after the take: seen again.
        // SAFETY: as above.
        unsafe { std::ptr::write_volatile(p.add(skew), 9) };
        assert_eq!(g.take_dirty(None).first().map(|w| w.0), Some(0));
        g.unguard();
        // SAFETY: writable again; then unmapped, not used after.
        unsafe {
            std::ptr::write_volatile(p.add(skew), 1);
            libc::munmap(p.cast(), len);
        }
        (first, second)
    }

    /// A writer thread against a thread taking the dirty pages: at the end
    /// every page still reports a new write (a fault racing a take used to
    /// leave its page writable and unmarked for good).
    #[test]
    fn threads_guarding_at_once_each_get_their_own_slot() {
        // Several threads map, guard, write and unguard at once (an
        // application mapping memory from several threads): each write
        // must be claimed by its own guard, never left to the default
        // SIGSEGV action, and seen by that guard.
        let threads: Vec<_> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    let page = page_size();
                    for round in 0..500 {
                        let (p, len) = mapping(4);
                        // SAFETY: the mapping is ours until munmap below.
                        let mut g = unsafe { guard(p as usize, len) }.expect("a free slot");
                        for k in 0..4 {
                            // SAFETY: inside the mapping; the fault is handled.
                            unsafe { std::ptr::write_volatile(p.add(k * page), (t + round) as u8) };
                        }
                        let dirty: usize = g.take_dirty(None).iter().map(|w| w.1).sum();
                        assert_eq!(
                            dirty,
                            4 * page,
                            "thread {t} round {round}: every written page is seen"
                        );
                        g.unguard();
                        // SAFETY: unmapped once, not used after.
                        unsafe { libc::munmap(p.cast(), len) };
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("no thread fails");
        }
    }

    /// Copies the windows of a take from the mapping at `base` into
    /// `shadow`, as the layer's comparison does (volatile byte reads: a
    /// writer thread may be storing into them).
    fn take_into(g: &mut Guarded, base: usize, shadow: &mut [u8]) {
        for (at, len) in g.take_dirty(None) {
            for (k, byte) in shadow[at..at + len].iter_mut().enumerate() {
                // SAFETY: inside the mapping.
                *byte = unsafe { std::ptr::read_volatile((base + at + k) as *const u8) };
            }
        }
    }

    /// A writer thread against a thread taking the dirty pages and copying
    /// them into a shadow, as the layer does: once the writer stops, one
    /// more take makes the shadow equal to the memory (a write no take
    /// handed back would leave it different), and so does every later
    /// write followed by a take. With pages left open and without (a fault
    /// racing a take used to leave its page writable and unmarked for
    /// good).
    #[test]
    fn racing_writes_are_never_lost() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        for open_hot in [false, true] {
            let page = page_size();
            let pages = 64;
            let (p, len) = mapping(pages);
            // SAFETY: the mapping is ours and stays mapped until munmap below.
            let mut g = unsafe { guard(p as usize, len) }.expect("a whole page to guard");
            if open_hot {
                g.leave_hot_pages_open();
            }
            let mut shadow = vec![0u8; len];
            let stop = Arc::new(AtomicBool::new(false));
            let base = p as usize;
            let writer = {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut i = 0usize;
                    while !stop.load(Ordering::Relaxed) {
                        // Every page, at an offset and with a value that vary.
                        let at = (i % pages) * page + (i / pages * 7) % page;
                        // SAFETY: inside the mapping; the fault is handled.
                        unsafe { std::ptr::write_volatile((base + at) as *mut u8, (i / pages) as u8 | 1) };
                        i += 1;
                    }
                })
            };
            let t0 = std::time::Instant::now();
            let mut takes = 0;
            while t0.elapsed() < std::time::Duration::from_millis(300) {
                take_into(&mut g, base, &mut shadow);
                takes += 1;
            }
            stop.store(true, Ordering::Relaxed);
            writer.join().expect("the writer ends");
            take_into(&mut g, base, &mut shadow);
            // SAFETY: the mapping, no writer left.
            let memory = unsafe { std::slice::from_raw_parts(p, len) };
            let differ = |shadow: &[u8]| {
                (0..pages)
                    .filter(|k| shadow[k * page..(k + 1) * page] != memory[k * page..(k + 1) * page])
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                differ(&shadow),
                Vec::<usize>::new(),
                "open_hot {open_hot}: pages whose writes were lost ({takes} takes)"
            );
            // Then each page written alone, over more than OPEN_FOR takes
            // (open pages close and reopen meanwhile).
            for round in 0..2 * OPEN_FOR as usize + 3 {
                let k = round % pages;
                // SAFETY: inside the mapping.
                unsafe {
                    std::ptr::write_volatile(
                        (base + k * page + 1 + round % 100) as *mut u8,
                        round as u8 ^ 0xEE,
                    )
                };
                take_into(&mut g, base, &mut shadow);
                assert_eq!(
                    differ(&shadow),
                    Vec::<usize>::new(),
                    "open_hot {open_hot}: round {round}: a write lost"
                );
            }
            drop(g);
            // SAFETY: unmapped once, not used after.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }

    /// Pages left open: a page dirty at two takes in a row is
    /// handed back by every take (written or not) until the take numbered
    /// `OPEN_FOR` protects it again; a page dirty once is not opened; a
    /// guard that does not leave hot pages open hands back only what was
    /// written. Each case: writes before each take (page numbers), and the
    /// pages each take hands back.
    #[test]
    fn hot_pages_stay_open_until_the_period_ends() {
        let page = page_size();
        let n = OPEN_FOR as usize;
        // Page 1 written at takes 1 and 2 (opened), page 3 at take 1 only.
        // Then page 1 again at the last take (protected since take
        // OPEN_FOR: the write faults and is seen).
        let mut written: Vec<Vec<usize>> = vec![vec![1, 3], vec![1]];
        written.resize(n + 2, vec![]);
        written.push(vec![1]);
        // Open from take 3 to take OPEN_FOR (which protects it again).
        let mut open: Vec<Vec<usize>> = vec![vec![1, 3], vec![1]];
        open.resize(n, vec![1]);
        open.resize(n + 2, vec![]);
        open.push(vec![1]);
        let closed: Vec<Vec<usize>> = written.clone();
        // Name, whether hot pages are left open, the pages written before
        // each take, the pages each take hands back.
        type Takes = Vec<Vec<usize>>;
        let cases: &[(&str, bool, &Takes, &Takes)] = &[
            ("open", true, &written, &open),
            ("not open", false, &written, &closed),
        ];
        for &(name, open_hot, writes, want) in cases {
            let (p, len) = mapping(4);
            // SAFETY: the mapping is ours and stays mapped until munmap below.
            let mut g = unsafe { guard(p as usize, len) }.expect("guarded");
            if open_hot {
                g.leave_hot_pages_open();
            }
            for (take, (pages, want)) in writes.iter().zip(want).enumerate() {
                for &k in pages {
                    // SAFETY: inside the mapping; a fault is handled.
                    unsafe { std::ptr::write_volatile(p.add(k * page), take as u8) };
                }
                let got: Vec<usize> = g
                    .take_dirty(None)
                    .iter()
                    .flat_map(|&(at, len)| at / page..(at + len) / page)
                    .collect();
                assert_eq!(&got, want, "{name}: take {}", take + 1);
            }
            drop(g);
            // SAFETY: unmapped once, not used after.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }

    #[test]
    fn writes_mark_their_pages_and_only_those() {
        let page = page_size();
        let cases: &[Case] = &[
            ("no write", 4, 0, vec![], None, vec![], vec![]),
            ("one byte", 4, 0, vec![page + 5], None, vec![(page, page)], vec![]),
            (
                "two adjacent pages merge",
                4,
                0,
                vec![page, 2 * page + 1],
                None,
                vec![(page, 2 * page)],
                vec![],
            ),
            (
                "apart",
                4,
                0,
                vec![0, 3 * page],
                None,
                vec![(0, page), (3 * page, page)],
                vec![],
            ),
            // A range not starting on a page: its partial first page is not
            // protected and is compared every time.
            (
                "skewed start, write in the partial page",
                3,
                100,
                vec![0],
                None,
                vec![(0, page - 100)],
                vec![(0, page - 100)],
            ),
            (
                "skewed start, write in a whole page",
                3,
                100,
                vec![page],
                None,
                vec![(0, 2 * page - 100)],
                vec![(0, page - 100)],
            ),
            // Only the pages within the asked range are taken; the rest
            // stay dirty for the next take.
            (
                "within",
                4,
                0,
                vec![0, 3 * page],
                Some((0, 10)),
                vec![(0, 10)],
                vec![(0, page), (3 * page, page)],
            ),
        ];
        for (name, pages, skew, at, within, first, second) in cases {
            let got = writes(*pages, *skew, at, *within);
            assert_eq!(&got, &(first.clone(), second.clone()), "{name}");
        }
        // A range with no whole page is not guarded (the caller diffs it).
        let (p, len) = mapping(2);
        // SAFETY: the mapping is ours; nothing is protected.
        assert!(unsafe { guard(p as usize + 100, page - 200) }.is_none());
        // SAFETY: as above.
        assert!(unsafe { guard(p as usize + 100, page) }.is_none());
        // SAFETY: unmapped once, not used after.
        unsafe { libc::munmap(p.cast(), len) };
    }
}
