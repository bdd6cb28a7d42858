//! The library's planning entry points default to one reading of
//! write-after-write: `ScheduleOptions::default()`, `PlanOptions::new` and
//! `Tracker::new` (and `Tracker::default`) all plan for
//! `Reading::VisibleToWrites`, so a plan is race-free under both readings
//! whichever entry made it.

use vksync::plan::{BarrierForm, PlanOptions, PlannerKind, ScheduleOptions};
use vksync::{AccessFlags2, Needs, PipelineStageFlags2, Reading, TrackedAccess, Tracker};

/// What `tracker` answers for a fill after a fill of one buffer: a
/// write-after-write, whose barrier shows the reading (a destination
/// access under `VisibleToWrites`, none under `MemoryModel`).
fn write_after_write(mut tracker: Tracker) -> Needs {
    let b = tracker.buffer(256).unwrap();
    let fill = [TrackedAccess::whole(
        b,
        PipelineStageFlags2::CLEAR,
        AccessFlags2::TRANSFER_WRITE,
    )];
    assert!(tracker.command(&fill).unwrap().is_empty());
    tracker.command(&fill).unwrap()
}

#[test]
fn planning_defaults_agree_on_the_reading() {
    let schedule = ScheduleOptions::default().reading;
    let plan = PlanOptions::new(PlannerKind::Offline).reading;
    assert_eq!(schedule, plan, "ScheduleOptions::default() and PlanOptions::new");
    assert_eq!(plan, Reading::VisibleToWrites);
    // The tracker's reading, by what it answers: the same as a tracker
    // given that reading, and not the other one's (the case tells them
    // apart).
    let of = |r: Reading| write_after_write(Tracker::with_options(BarrierForm::Global, r));
    assert_ne!(of(Reading::MemoryModel), of(Reading::VisibleToWrites));
    assert_eq!(write_after_write(Tracker::new()), of(plan), "Tracker::new");
    assert_eq!(
        write_after_write(Tracker::default()),
        of(plan),
        "Tracker::default"
    );
}
