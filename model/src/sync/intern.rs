//! Interned synchronization values: every access recorded with the same
//! [`SyncVal`] shares one node, so a global barrier updates each distinct
//! value once, however many byte ranges hold it. Nodes whose values become
//! equal are merged through union-find redirects; a node id stays valid
//! forever (it may redirect), and [`Nodes::find`] gives its canonical node.
//!
//! A function applied again ([`Nodes::map_keyed`]: the same barriers, a
//! submit, a fence wait) visits only the canonical values it has not been
//! seen to leave unchanged: those created or changed since its last
//! application (a log of node changes, [`Nodes::touched`]). Invariant, per
//! key `K` with log position `p`: every canonical node not in
//! `touched[p..]` is a fixed point of `K`'s function. So a barrier costs
//! the values that changed since it last applied, not every distinct
//! value: a program with many distinct values (each range entry with its
//! own history) and barriers that leave them alone is linear, where a
//! full map per barrier was quadratic.

use super::value::SyncVal;
use crate::vk::scope::StageAccess;
use rustc_hash::FxHashMap;

/// What a keyed map ([`Nodes::map_keyed`]) applies: equal keys must mean
/// the same function of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MapKey {
    /// [`SyncVal::apply_each`] with these barriers and reaches (`Reach`
    /// as its index in declaration order).
    Barriers(Vec<(super::value::ResolvedBarrier, u8)>),
    /// `Checker::submit`'s map.
    Submit,
    /// `Checker::wait`'s map.
    Wait,
}

/// Interned synchronization values with union-find redirects.
#[derive(Clone, Debug)]
pub(crate) struct Nodes {
    pub(crate) vals: Vec<SyncVal>,
    parent: Vec<u32>,
    canonical: FxHashMap<SyncVal, u32>,
    /// The node of each (stage, access) pair's fresh value (nothing ordered
    /// after it yet), the value every new access starts with. Cleared when
    /// values change.
    fresh: [Option<u32>; StageAccess::COUNT],
    /// Every node created or whose value changed, in order (a node may
    /// appear more than once).
    touched: Vec<u32>,
    /// Per key of [`Nodes::map_keyed`]: the position in `touched` from
    /// which nodes may not be fixed points of its function.
    seen: FxHashMap<MapKey, usize>,
}

// By hand: `Default` is derived for arrays of at most 32 elements, and
// there are more pairs than that.
impl Default for Nodes {
    fn default() -> Self {
        Nodes {
            vals: Vec::new(),
            parent: Vec::new(),
            canonical: FxHashMap::default(),
            fresh: [None; StageAccess::COUNT],
            touched: Vec::new(),
            seen: FxHashMap::default(),
        }
    }
}

impl Nodes {
    pub(crate) fn intern_fresh(&mut self, sa: StageAccess) -> u32 {
        if let Some(id) = self.fresh[sa as usize] {
            return id;
        }
        let id = self.intern(SyncVal::fresh(sa));
        self.fresh[sa as usize] = Some(id);
        id
    }

    pub(crate) fn intern(&mut self, v: SyncVal) -> u32 {
        if let Some(&id) = self.canonical.get(&v) {
            return id;
        }
        let id = self.vals.len() as u32;
        self.vals.push(v);
        self.parent.push(id);
        self.canonical.insert(v, id);
        self.touched.push(id);
        id
    }

    pub(crate) fn find(&mut self, mut id: u32) -> u32 {
        let mut root = id;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        while self.parent[id as usize] != root {
            let next = self.parent[id as usize];
            self.parent[id as usize] = root;
            id = next;
        }
        root
    }

    /// The value of a node without compressing paths (for readers that
    /// hold other borrows of the checker).
    pub(crate) fn peek(&self, mut id: u32) -> SyncVal {
        while self.parent[id as usize] != id {
            id = self.parent[id as usize];
        }
        self.vals[id as usize]
    }

    pub(crate) fn val(&mut self, id: u32) -> SyncVal {
        let r = self.find(id);
        self.vals[r as usize]
    }

    /// Maps every canonical value through `f`, merging nodes whose new
    /// values coincide. Only the values `f` changes are rehashed: a barrier
    /// usually changes few of them (each value's fields only grow, so most
    /// have taken its effect already), and rebuilding the whole table for
    /// each one was the bulk of a barrier's cost. Which node of a merged
    /// group stays canonical is immaterial: ids are compared only after
    /// [`Nodes::find`].
    pub(crate) fn map_all(&mut self, f: impl Fn(SyncVal) -> SyncVal) {
        let changed: Vec<(SyncVal, u32, SyncVal)> = self
            .canonical
            .iter()
            .filter_map(|(&v, &id)| {
                let nv = f(v);
                (nv != v).then_some((v, id, nv))
            })
            .collect();
        self.change(changed);
    }

    /// [`Nodes::map_all`] for a function applied under `key` (the same
    /// key, the same function): only the canonical nodes not known to be
    /// its fixed points are visited (see the module docs). The result is
    /// [`Nodes::map_all`]'s: a node it skips, `f` leaves unchanged.
    pub(crate) fn map_keyed(&mut self, key: MapKey, f: impl Fn(SyncVal) -> SyncVal) {
        let from = self.seen.get(&key).copied();
        let start = self.touched.len();
        match from {
            // The log since is longer than the table: a full pass is
            // cheaper (and first applications have no position).
            Some(p) if start - p < self.canonical.len() => {
                let mut ids: Vec<u32> = self.touched[p..]
                    .iter()
                    .copied()
                    .filter(|&id| self.parent[id as usize] == id)
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                let changed: Vec<(SyncVal, u32, SyncVal)> = ids
                    .into_iter()
                    .filter_map(|id| {
                        let v = self.vals[id as usize];
                        let nv = f(v);
                        (nv != v).then_some((v, id, nv))
                    })
                    .collect();
                self.change(changed);
            }
            _ => self.map_all(f),
        }
        // Every canonical node is now a fixed point, or was changed by
        // this pass and logged from `start` on.
        self.seen.insert(key, start);
    }

    /// Gives canonical nodes new values (`(old value, node, new value)`),
    /// merging nodes whose values coincide, and logs the changed nodes.
    /// Only the changed values are rehashed: a barrier usually changes
    /// few (each value's fields only grow, so most have taken its effect
    /// already). Which node of a merged group stays canonical is
    /// immaterial: ids are compared only after [`Nodes::find`].
    fn change(&mut self, changed: Vec<(SyncVal, u32, SyncVal)>) {
        if changed.is_empty() {
            return;
        }
        self.fresh = [None; StageAccess::COUNT];
        // Every old key first: a changed value may take another changed
        // value's old place.
        for (v, _, _) in &changed {
            self.canonical.remove(v);
        }
        for (_, id, nv) in changed {
            self.vals[id as usize] = nv;
            self.touched.push(id);
            match self.canonical.get(&nv) {
                Some(&other) => self.parent[id as usize] = other,
                None => {
                    self.canonical.insert(nv, id);
                }
            }
        }
    }
}
