//! Interned synchronization values: every access recorded with the same
//! [`SyncVal`] shares one node, so a global barrier updates each distinct
//! value once, however many byte ranges hold it. Nodes whose values become
//! equal are merged through union-find redirects; a node id stays valid
//! forever (it may redirect), and [`Nodes::find`] gives its canonical node.

use super::value::SyncVal;
use crate::vk::scope::StageAccess;
use rustc_hash::FxHashMap;

/// Interned synchronization values with union-find redirects.
#[derive(Default, Clone, Debug)]
pub(crate) struct Nodes {
    pub(crate) vals: Vec<SyncVal>,
    parent: Vec<u32>,
    canonical: FxHashMap<SyncVal, u32>,
    /// The node of each (stage, access) pair's fresh value (nothing ordered
    /// after it yet), the value every new access starts with. Cleared when
    /// values change.
    fresh: [Option<u32>; StageAccess::COUNT],
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
    /// values coincide.
    pub(crate) fn map_all(&mut self, f: impl Fn(SyncVal) -> SyncVal) {
        self.fresh = [None; StageAccess::COUNT];
        let old = std::mem::take(&mut self.canonical);
        let mut fresh: FxHashMap<SyncVal, u32> =
            FxHashMap::with_capacity_and_hasher(old.len(), Default::default());
        for (v, id) in old {
            let nv = f(v);
            self.vals[id as usize] = nv;
            match fresh.get(&nv) {
                Some(&other) => self.parent[id as usize] = other,
                None => {
                    fresh.insert(nv, id);
                }
            }
        }
        self.canonical = fresh;
    }
}
