//! The synchronization state of memory: the algebra of synchronization
//! values and barriers, and the checker that keeps, per byte range, the
//! earlier accesses a later one can still race with (module `queues`: the
//! same for programs with several queues and semaphores). It works on memory
//! ranges and (stage, access) pairs only; [`crate::hazard`] turns its
//! findings back into program terms.

pub(crate) mod candidates;
pub mod checker;
pub(crate) mod intern;
pub(crate) mod one_queue;
#[cfg(feature = "parallel")]
pub(crate) mod parallel;
pub(crate) mod queues;
pub(crate) mod rangemap;
pub(crate) mod state;
pub mod value;

#[cfg(test)]
mod laws;
