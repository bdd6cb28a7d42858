//! Which signal operations each semaphore wait pairs with, for the
//! multi-queue walk ([`super::queues`]), in time linear in the program
//! (times the number of distinct stage masks, below).
//!
//! A timeline wait's candidates are the signals whose "signal value is
//! greater than or equal to the wait value" and that are "not guaranteed
//! to happen-after the semaphore wait operation". The definitional
//! semantics (`crate::spec`, module `order`) finds the second part as a
//! fixpoint over its whole happens-before graph. The walk needs each
//! decided wait's candidates signalled earlier in the walk; it uses a
//! relation *contained* in the semantics' (every signal it puts after a
//! wait, the semantics does too), so the candidates of a wait it decides
//! are the semantics' own, and a wait with a candidate left later in the
//! walk is refused (unless one candidate dominates, below). A wait whose
//! candidates are all earlier (no signal earlier in the walk happens after
//! the wait: the walk is a linear extension) keeps, per signal group (a
//! queue and a first scope, or the host), the group's first candidate: a
//! frontier that reached it reached the group's later signals too
//! (`Frontier::sigs` in [`super::queues`]), so the wait is reached exactly
//! when every candidate is. The relation, from a wait `w`:
//!
//! * a device wait with second synchronization scope `W` on queue `q`
//!   happens before every signal of its batch and of the later batches of
//!   `q` whose first synchronization scope `S` shares a stage with `W`
//!   (the wait's second scope "includes every command in the same batch
//!   ... and all commands that occur later in submission order", the
//!   signal's first scope likewise the earlier ones; chains "at the level
//!   of stages": the semantics' edge from a wait to a signal);
//! * a host wait (`vkWaitSemaphores`) happens before every later host
//!   operation in program order, so before every later `host-signal`
//!   and every later submission with all of its batch's signals (host
//!   program order, then "the second synchronization scope includes all
//!   commands submitted in the same queue submission");
//! * a wait whose one candidate is reached is reached too, and so is what
//!   it reaches (the semaphore's pairing; a wait with several candidates
//!   reaches nothing here, which only keeps more candidates, so at worst
//!   refuses a later wait the semantics decides).
//!
//! A timeline wait with a candidate later in the walk is still decided
//! when one of them *dominates* the others: the first candidate `c` in
//! the walk is signalled earlier than the wait, and every other candidate
//! (earlier or later, leaving out the signals the relation above puts
//! after the wait) is on `c`'s queue, so later in its submission order,
//! with a first synchronization scope holding `c`'s. Then every
//! other candidate `d` is ordered after everything `c` is ordered after
//! (`d`'s first scope "includes every command submitted earlier" on the
//! queue, in at least `c`'s stages, so `c`'s batch and its past, and `d`'s
//! availability operation covers the accesses `c`'s covers), and what
//! every candidate is ordered after, the definitional semantics' reading of
//! a wait with several candidates, is what `c` is ordered after: the wait
//! pairs with `c`. This is the frame loop of a real application (wgpu): one
//! queue signals its timeline at every submission, and the host waits for
//! a value after the next submission was already made.
//!
//! Everything `w` reaches lies later in the walk than `w`, so deciding the
//! waits from the last one back, every wait a reached signal pairs with is
//! already decided. What a wait reaches is a union of *suffixes*: per
//! reach group (a queue and a signal first scope), the group's signals
//! from some walk index on, and every signal from some index on (a host
//! wait). So it is a vector of thresholds ([`Reach`]), and the reverse
//! pass keeps, per class of device wait (a queue and a second scope) and
//! for host waits, the reach of the suffix passed so far: a wait's reach
//! is read off in `O(groups)`, a signal folds what its waits reach into
//! the classes on its queue whose scope meets its own. A candidate left
//! over is a signal of the semaphore, at or after the wait's index and
//! below its group's threshold, with value at least the wait's: a range
//! maximum per (semaphore, group), answered by a sparse table.
//!
//! Memory: a class's reach is kept only while it is *live*, from the first
//! signal that folds into it to the class's first wait in the walk (after
//! that nothing reads it), and a reach that holds no group has no vector.
//! Kept for every class from the start, the reaches cost classes times
//! groups, N^2 thresholds for a timeline chain through N queues (1,070 MB
//! at 16,000 queues, issue 27), where one class is live at a time. What is
//! still quadratic, and when: `docs/performance.md`, "The candidates'
//! memory".

use crate::vk::scope::StageSet;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A signal operation, in walk order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Signal {
    pub sem: usize,
    /// `None` for a binary semaphore.
    pub value: Option<u64>,
    /// The batch's queue; `None` for `host-signal`.
    pub queue: Option<usize>,
    /// The first synchronization scope (expanded).
    pub first: StageSet,
}

/// A semaphore wait, in walk order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wait {
    pub sem: usize,
    pub kind: WaitKind,
    /// The batch's queue; `None` for `host-wait`.
    pub queue: Option<usize>,
    /// The second synchronization scope (expanded); empty for the host.
    pub second: StageSet,
    /// How many signals precede it in the walk.
    pub known: u32,
    /// Its command (where a refusal is reported).
    pub at: usize,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum WaitKind {
    /// A binary wait and the pending signal it consumes.
    Binary(Option<u32>),
    /// A timeline wait for this value.
    Timeline(u64),
}

/// An operation of the walk.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    Signal(Signal),
    Wait(Wait),
}

/// Why a wait is not decided: it has no candidate earlier in the walk
/// (`several` is 0), or several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub at: usize,
    pub sem: usize,
    pub value: u64,
    pub several: usize,
}

/// The signals a wait is known to happen before: per reach group, those
/// with walk index at least `t[group]`, and every signal with index at
/// least `g`. `t` is empty while no group is reached (a wait that reaches
/// nothing costs no vector of one entry per group), else one entry per
/// group.
///
/// `cert`, when set, is a timeline semaphore `sem` and a walk index `k`
/// and value `v` such that every signal of `sem` at index `k` or later
/// with value at least `v` is reached: a wait decided with no candidate
/// left later in the walk certifies it, and joins keep it true (they only
/// add signals). A wait that reaches it checks only the signals of `sem`
/// between its own index and `k`, not one range per reach group: in a
/// timeline chain through N queues each wait reaches every later queue's
/// group, and the scan of every group made the chain quadratic in time.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reach {
    t: Vec<u32>,
    g: u32,
    cert: Option<Cert>,
}

/// See [`Reach`]: every timeline signal of `sem` at walk index `k` or
/// later with value at least `v` is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cert {
    sem: usize,
    k: u32,
    v: u64,
}

impl Reach {
    fn none() -> Self {
        Reach {
            t: Vec::new(),
            g: u32::MAX,
            cert: None,
        }
    }

    /// The threshold of reach group `r`.
    fn at(&self, r: usize) -> u32 {
        self.t.get(r).copied().unwrap_or(u32::MAX)
    }

    /// Signal `i` of reach group `r`, of the `groups` groups, reached
    /// (from a signal later in the walk than every one reached so far).
    fn reach(&mut self, r: usize, i: u32, groups: usize) {
        if self.t.is_empty() {
            self.t = vec![u32::MAX; groups];
        }
        self.t[r] = i;
    }

    fn join(&mut self, o: &Reach) {
        if self.t.is_empty() {
            self.t.clone_from(&o.t);
        } else {
            for (a, b) in self.t.iter_mut().zip(&o.t) {
                *a = (*a).min(*b);
            }
        }
        self.g = self.g.min(o.g);
        // Either certificate stays true; keep the one that covers more of
        // the walk for its semaphore.
        if let Some(oc) = o.cert {
            match self.cert {
                Some(c) if c.sem != oc.sem || c.k <= oc.k => {}
                _ => self.cert = Some(oc),
            }
        }
    }

    /// Signal `i` of reach group `group` (`None`: a host signal) reached.
    fn holds(&self, i: u32, group: Option<usize>) -> bool {
        i >= self.g || group.is_some_and(|r| i >= self.at(r))
    }

    /// Nothing reached (`t` is empty until a group is reached, and then
    /// holds a threshold below `u32::MAX`, as thresholds only decrease).
    fn is_none(&self) -> bool {
        self.g == u32::MAX && self.t.is_empty()
    }
}

/// The timeline signals of one semaphore in one reach group (`None`: the
/// host's): their walk indices, their values' range maxima, and the
/// largest value.
struct Listed {
    group: Option<usize>,
    idx: Vec<u32>,
    max: RangeMax,
    top: u64,
}

impl Listed {
    /// The walk index of the first signal of the list before walk index
    /// `known` whose value is at least `value` (a binary search on the
    /// prefix maxima, which grow with the prefix).
    fn first_at_least(&self, value: u64, known: u32) -> Option<u32> {
        let end = self.idx.partition_point(|&i| i < known);
        if self.max.max(0, end).is_none_or(|m| m < value) {
            return None;
        }
        // The smallest `k` with max(0..=k) >= value.
        let (mut lo, mut hi) = (0usize, end - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.max.max(0, mid + 1).is_some_and(|m| m >= value) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(self.idx[lo])
    }

    /// Whether a signal of the list at or after walk index `known` that
    /// `reach` does not hold (below its group's threshold: not shown to
    /// follow the wait) has a value at least `value`: a candidate later
    /// in the walk.
    fn unreached_later(&self, value: u64, known: u32, reach: &Reach) -> bool {
        let t = self.group.map_or(reach.g, |g| reach.at(g).min(reach.g));
        let lo = self.idx.partition_point(|&i| i < known);
        let hi = self.idx.partition_point(|&i| i < t);
        self.max.max(lo, hi).is_some_and(|m| m >= value)
    }
}

/// The timeline signals of one semaphore in walk order (for the
/// certificate of a wait reached from a later one, below).
struct SemSignals {
    /// Walk indices.
    idx: Vec<u32>,
    /// Their values.
    values: Vec<u64>,
}

impl SemSignals {
    fn new(signals: &[Signal], idx: Vec<u32>) -> Self {
        let values: Vec<u64> = idx
            .iter()
            .map(|&i| signals[i as usize].value.unwrap_or(0))
            .collect();
        SemSignals { idx, values }
    }
}

/// Per semaphore, the two largest values signalled so far: the largest
/// with its walk index, then the second.
#[derive(Clone, Copy, Default)]
struct Top {
    best: Option<(u64, u32)>,
    second: Option<u64>,
}

/// Range maximum over one list of values (a sparse table).
struct RangeMax {
    levels: Vec<Vec<u64>>,
}

impl RangeMax {
    fn new(values: Vec<u64>) -> Self {
        let mut levels = vec![values];
        let mut w = 1;
        while 2 * w <= levels[0].len() {
            let prev = levels.last().expect("level 0");
            let next: Vec<u64> = (0..prev.len() - w).map(|i| prev[i].max(prev[i + w])).collect();
            levels.push(next);
            w *= 2;
        }
        RangeMax { levels }
    }

    /// The maximum over positions `lo..hi` (`None` when empty).
    fn max(&self, lo: usize, hi: usize) -> Option<u64> {
        if lo >= hi {
            return None;
        }
        let k = (usize::BITS - 1 - (hi - lo).leading_zeros()) as usize;
        let l = &self.levels[k];
        Some(l[lo].max(l[hi - (1 << k)]))
    }
}

/// The candidates of every wait of `ops`, in walk order; `initial[s]` is
/// semaphore `s`'s initial timeline value. `Err` with the first wait in
/// the walk that cannot be decided (see the module docs).
pub(super) fn decide(ops: &[Op], initial: &[u64]) -> Result<Vec<Rc<[u32]>>, Refusal> {
    let signals: Vec<Signal> = ops
        .iter()
        .filter_map(|o| match o {
            Op::Signal(s) => Some(*s),
            Op::Wait(_) => None,
        })
        .collect();
    let waits: Vec<Wait> = ops
        .iter()
        .filter_map(|o| match o {
            Op::Wait(w) => Some(*w),
            Op::Signal(_) => None,
        })
        .collect();
    // Reach groups: a device signal's queue and first scope.
    let mut group_ids: BTreeMap<(usize, u32), usize> = BTreeMap::new();
    let group: Vec<Option<usize>> = signals
        .iter()
        .map(|s| {
            s.queue.map(|q| {
                let n = group_ids.len();
                *group_ids.entry((q, s.first.0)).or_insert(n)
            })
        })
        .collect();
    let groups = group_ids.len();
    // Per reach group, its (queue, first scope).
    let mut group_key: Vec<(usize, u32)> = vec![(0, 0); groups];
    for (&k, &g) in &group_ids {
        group_key[g] = k;
    }
    // Query lists: per (semaphore, reach group), its timeline signals'
    // walk indices and values.
    type Key = (usize, Option<usize>);
    let mut lists: BTreeMap<Key, Vec<(u32, u64)>> = BTreeMap::new();
    for (i, s) in signals.iter().enumerate() {
        if let Some(v) = s.value {
            lists.entry((s.sem, group[i])).or_default().push((i as u32, v));
        }
    }
    let mut by_sem: Vec<Vec<Listed>> = Vec::new();
    by_sem.resize_with(initial.len(), Vec::new);
    for ((sem, group), l) in lists {
        by_sem[sem].push(Listed {
            group,
            idx: l.iter().map(|&(i, _)| i).collect(),
            max: RangeMax::new(l.iter().map(|&(_, v)| v).collect()),
            top: l.iter().map(|&(_, v)| v).max().unwrap_or(0),
        });
    }
    // Largest value first: a wait for `v` looks only at the lists whose
    // largest value is at least `v` (`holding`), the only ones that can
    // hold a candidate. Without this, a semaphore that many queues
    // signalled once made every later wait visit them all (review34:
    // 20,000 queues, then a frame loop on one, 26 s where dominance alone
    // took 0.19 s).
    for lists in &mut by_sem {
        lists.sort_by_key(|l| std::cmp::Reverse(l.top));
    }
    let holding = |sem: usize, v: u64| by_sem[sem].iter().take_while(move |l| l.top >= v);
    let sem_signals: Vec<SemSignals> = {
        let mut idx: Vec<Vec<u32>> = vec![Vec::new(); initial.len()];
        for (i, s) in signals.iter().enumerate() {
            if s.value.is_some() {
                idx[s.sem].push(i as u32);
            }
        }
        idx.into_iter()
            .map(|idx| SemSignals::new(&signals, idx))
            .collect()
    };
    // Wait classes: a device wait's queue and second scope; per queue, its
    // classes.
    let mut class_ids: BTreeMap<(usize, u32), usize> = BTreeMap::new();
    let class: Vec<Option<usize>> = waits
        .iter()
        .map(|w| {
            w.queue.map(|q| {
                let n = class_ids.len();
                *class_ids.entry((q, w.second.0)).or_insert(n)
            })
        })
        .collect();
    let queues = signals
        .iter()
        .filter_map(|s| s.queue)
        .chain(waits.iter().filter_map(|w| w.queue))
        .max()
        .map_or(0, |q| q + 1);
    let mut classes_of: Vec<Vec<(usize, StageSet)>> = vec![Vec::new(); queues];
    for (&(q, second), &c) in &class_ids {
        classes_of[q].push((c, StageSet(second)));
    }
    // Per timeline wait (by wait index): how many signals earlier in the
    // walk satisfy it (capped at 2), and the one when there is one. Per
    // semaphore, the two largest values so far.
    let mut earlier: Vec<(u8, u32)> = vec![(0, 0); waits.len()];
    {
        let mut top: Vec<Top> = vec![Top::default(); initial.len()];
        let (mut si, mut wi) = (0usize, 0usize);
        for o in ops {
            match o {
                Op::Signal(s) => {
                    if let Some(v) = s.value {
                        let t = &mut top[s.sem];
                        match t.best {
                            Some((best, _)) if best > v => {
                                t.second = Some(t.second.map_or(v, |x| x.max(v)));
                            }
                            _ => {
                                t.second = t.best.map(|(b, _)| b);
                                t.best = Some((v, si as u32));
                            }
                        }
                    }
                    si += 1;
                }
                Op::Wait(w) => {
                    if let WaitKind::Timeline(v) = w.kind {
                        let t = top[w.sem];
                        earlier[wi] = match t.best {
                            Some((b, id)) if b >= v => {
                                (if t.second.is_some_and(|x| x >= v) { 2 } else { 1 }, id)
                            }
                            _ => (0, 0),
                        };
                    }
                    wi += 1;
                }
            }
        }
    }
    // The reverse pass.
    let none: Rc<[u32]> = Rc::from(Vec::new());
    let mut decided: Vec<Rc<[u32]>> = vec![none; waits.len()];
    // Per semaphore, the last list of several candidates made: (the
    // value, how many of its signals were earlier, the list). Waits for
    // one value with no signal of the semaphore between them share it, so
    // N host waits on a semaphore N queues signalled keep one list, not
    // N (review34: 5,000 of each took 130 MB).
    type Shared = Option<(u64, usize, Rc<[u32]>)>;
    let mut shared: Vec<Shared> = vec![None; initial.len()];
    // Per signal: what the waits that pair with it alone reach.
    let mut triggers: Vec<Option<Reach>> = vec![None; signals.len()];
    // Per class, the reach of the suffix passed so far; `None` while no
    // signal has folded into it, and again once the class's first wait in
    // the walk is passed (nothing reads it after that). A class is live
    // from the last signal of its queue that meets it to its first wait,
    // so a timeline chain through N queues keeps O(1) classes of `groups`
    // thresholds each, not N (issue 27: 1,070 MB at 16,000 queues).
    let mut first_wait: Vec<usize> = vec![usize::MAX; class_ids.len()];
    for (wi, c) in class.iter().enumerate().rev() {
        if let &Some(c) = c {
            first_wait[c] = wi;
        }
    }
    let mut acc: Vec<Option<Reach>> = vec![None; class_ids.len()];
    let mut host_acc = Reach::none();
    let mut refused: Option<(usize, Reach)> = None;
    let (mut si, mut wi) = (signals.len(), waits.len());
    for o in ops.iter().rev() {
        match o {
            Op::Signal(s) => {
                si -= 1;
                let trig = triggers[si].take();
                if let (Some(q), Some(r)) = (s.queue, group[si]) {
                    for &(c, second) in &classes_of[q] {
                        // `wi` waits are left (those before this signal in
                        // the walk): a class none of them is in is dead.
                        if first_wait[c] < wi && second.intersects(s.first) {
                            let a = acc[c].get_or_insert_with(Reach::none);
                            a.reach(r, si as u32, groups);
                            if let Some(t) = &trig {
                                a.join(t);
                            }
                        }
                    }
                }
                if let Some(t) = &trig {
                    host_acc.join(t);
                }
            }
            Op::Wait(w) => {
                wi -= 1;
                let mut start = match class[wi] {
                    // The class's first wait takes its reach: no copy.
                    Some(c) if first_wait[c] == wi => acc[c].take().unwrap_or_else(Reach::none),
                    Some(c) => acc[c].clone().unwrap_or_else(Reach::none),
                    None => {
                        let mut r = host_acc.clone();
                        r.g = r.g.min(w.known);
                        r
                    }
                };
                let one = match w.kind {
                    WaitKind::Binary(c) => c,
                    WaitKind::Timeline(v) => {
                        if initial[w.sem] >= v {
                            // "If the semaphore's value is already >= the
                            // wait value" the wait orders nothing.
                            continue;
                        }
                        let (n, id) = earlier[wi];
                        let later_left = n >= 1
                            && match start.cert {
                                // Reached from `k` on (and `k` is later than
                                // this wait): only the signals of the
                                // semaphore in between are left to look at.
                                Some(c) if c.sem == w.sem && c.v <= v => {
                                    let ss = &sem_signals[w.sem];
                                    let lo = ss.idx.partition_point(|&i| i < w.known);
                                    let hi = ss.idx.partition_point(|&i| i < c.k);
                                    (lo..hi).any(|k| {
                                        let i = ss.idx[k];
                                        ss.values[k] >= v && !start.holds(i, group[i as usize])
                                    })
                                }
                                _ => holding(w.sem, v).any(|l| l.unreached_later(v, w.known, &start)),
                            };
                        if n != 1 || later_left {
                            // The first candidate in the walk dominates
                            // when every other one, earlier or later, is
                            // a signal of its queue (later in submission
                            // order) with a first scope holding its own.
                            // Per list that can hold one, its first
                            // candidate earlier in the walk.
                            let firsts: Vec<(&Listed, Option<u32>)> = holding(w.sem, v)
                                .map(|l| (l, l.first_at_least(v, w.known)))
                                .collect();
                            let dominant = firsts.iter().filter_map(|&(_, c)| c).min().filter(|&c| {
                                let Some(cg) = group[c as usize] else {
                                    return false;
                                };
                                let (cq, cf) = group_key[cg];
                                firsts.iter().all(|&(l, first)| {
                                    let held = l.group.is_some_and(|g| {
                                        let (q, f) = group_key[g];
                                        q == cq && f & cf == cf
                                    });
                                    // Else no candidate: none earlier with
                                    // the value, none later left unreached.
                                    held || (first.is_none() && !l.unreached_later(v, w.known, &start))
                                })
                            });
                            match dominant {
                                Some(c) => Some(c),
                                _ if n >= 2 && !later_left => {
                                    // Every candidate is earlier in the
                                    // walk: the wait is after what every
                                    // one is after. Per group the first
                                    // one stands for the rest (module
                                    // docs); the wait reaches nothing
                                    // here (no trigger).
                                    let before = sem_signals[w.sem].idx.partition_point(|&i| i < w.known);
                                    decided[wi] = match &shared[w.sem] {
                                        Some((sv, sb, list)) if *sv == v && *sb == before => list.clone(),
                                        _ => {
                                            let mut list: Vec<u32> =
                                                firsts.iter().filter_map(|&(_, c)| c).collect();
                                            list.sort_unstable();
                                            let list: Rc<[u32]> = Rc::from(list);
                                            shared[w.sem] = Some((v, before, list.clone()));
                                            list
                                        }
                                    };
                                    continue;
                                }
                                _ => {
                                    refused = Some((wi, start));
                                    continue;
                                }
                            }
                        } else {
                            // Every later signal with a value at least `v`
                            // is reached.
                            start.cert = Some(Cert {
                                sem: w.sem,
                                k: w.known,
                                v,
                            });
                            Some(id)
                        }
                    }
                };
                if let Some(c) = one {
                    decided[wi] = Rc::from(vec![c]);
                    if !start.is_none() {
                        match &mut triggers[c as usize] {
                            Some(t) => t.join(&start),
                            t @ None => *t = Some(start),
                        }
                    }
                }
            }
        }
    }
    match refused {
        None => Ok(decided),
        Some((wi, reach)) => {
            // The first refusal in the walk, with its count of candidates
            // (a scan, once).
            let w = waits[wi];
            let WaitKind::Timeline(value) = w.kind else {
                unreachable!("binary waits are never refused")
            };
            let several = signals
                .iter()
                .enumerate()
                .filter(|(i, s)| {
                    s.sem == w.sem
                        && s.value.is_some_and(|sv| sv >= value)
                        && ((*i as u32) < w.known || !reach.holds(*i as u32, group[*i]))
                })
                .count();
            let several = if earlier[wi].0 == 0 { 0 } else { several };
            Err(Refusal {
                at: w.at,
                sem: w.sem,
                value,
                several,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RangeMax;

    #[test]
    fn range_max_matches_a_scan() {
        let vals: Vec<u64> = (0..37u64).map(|i| (i * 7919) % 23).collect();
        let rm = RangeMax::new(vals.clone());
        for lo in 0..=vals.len() {
            for hi in lo..=vals.len() {
                assert_eq!(rm.max(lo, hi), vals[lo..hi].iter().copied().max(), "{lo}..{hi}");
            }
        }
    }
}
