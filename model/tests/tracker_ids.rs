//! Ids with an owner (issue 26): every public `Tracker` method that takes
//! a resource, queue or semaphore id, called with a foreign id (another
//! tracker's, another owner tag), a freed one, and one out of range, must
//! give the typed error naming the call and the id, and change nothing.
//! One table of calls through one helper.

use vksync::{
    AccessFlags2 as A, AspectMask, ByteRange, ImageLayout, PipelineStageFlags2 as S, QueueId, SemaphoreId,
    SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission, SubresourceRange, TrackedAccess, TrackedId,
    Tracker, TrackerError,
};

type Call = fn(&mut Tracker, TrackedId) -> Result<(), TrackerError>;

/// The calls that take a resource id, by the name their errors give.
const CALLS: &[(&str, Call)] = &[
    ("alias", |t, id| t.alias(id, 0, 8).map(drop)),
    ("alloc", |t, id| t.alloc(id, 8).map(drop)),
    ("offset", |t, id| t.offset(id).map(drop)),
    ("free", |t, id| t.free(id)),
    ("exclusive", |t, id| t.exclusive(id)),
    ("command", |t, id| {
        t.command(&[TrackedAccess::range(
            id,
            ByteRange::new(0, 8),
            S::COPY,
            A::TRANSFER_READ,
        )])
        .map(drop)
    }),
    ("image_layout", |t, id| t.image_layout(id, 0, 0).map(drop)),
    ("command", |t, id| {
        let color = SubresourceRange {
            aspects: AspectMask(1),
            ..SubresourceRange::default()
        };
        t.command(&[TrackedAccess::image(
            id,
            color,
            ImageLayout::GENERAL,
            S::COMPUTE_SHADER,
            A::SHADER_STORAGE_READ,
        )])
        .map(drop)
    }),
    ("command_on", |t, id| {
        t.command_on(
            QueueId(0),
            &[TrackedAccess::whole(id, S::COPY, A::TRANSFER_WRITE)],
        )
        .map(drop)
    }),
];

/// A tracker with tag 7: a buffer, a pool and a freed blob of it; and
/// the ids to try: (kind, id).
fn setup() -> (Tracker, Vec<(&'static str, TrackedId)>) {
    let mut t = Tracker::new().with_owner(7);
    t.buffer(64).unwrap();
    let pool = t.pool(256, 16).unwrap();
    let freed = t.alloc(pool, 16).unwrap();
    t.free(freed).unwrap();
    let mut other = Tracker::new().with_owner(8);
    let foreign = other.buffer(64).unwrap();
    // An id of this tracker's future: a clone keeps its identity.
    let mut ahead = t.clone();
    let far = ahead.buffer(64).unwrap();
    (
        t,
        vec![("foreign", foreign), ("freed", freed), ("out of range", far)],
    )
}

#[test]
fn every_call_refuses_foreign_freed_and_unknown_ids() {
    for (what, call) in CALLS {
        let (t, ids) = setup();
        for (kind, id) in ids {
            let mut t = t.clone();
            let err = call(&mut t, id).expect_err(&format!("{what} with a {kind} id"));
            let ok = match (kind, &err) {
                (
                    "foreign",
                    TrackerError::ForeignResource {
                        what: w,
                        id: got,
                        owner: 7,
                    },
                ) => w == what && *got == id,
                (
                    "freed",
                    TrackerError::Freed {
                        what: w,
                        id: got,
                        current: 1,
                    },
                ) => w == what && *got == id,
                (
                    "out of range",
                    TrackerError::UnknownResource {
                        what: w,
                        id: got,
                        count: 3,
                    },
                ) => w == what && *got == id,
                _ => false,
            };
            assert!(ok, "{what} with a {kind} id: {err:?}");
            assert!(err.to_string().starts_with(&format!("{what}: ")), "{err}");
            assert!(err.to_string().contains(&id.to_string()), "{err}");
            assert_eq!(t.commands(), 0, "{what}: nothing recorded");
        }
    }
}

/// Two trackers with the same owner tag (both `Tracker::new()`, tag 0)
/// refuse each other's ids: each has an identity of its own.
#[test]
fn trackers_with_one_tag_refuse_each_others_ids() {
    let mut one = Tracker::new();
    let mut two = Tracker::new();
    let a = one.buffer(64).unwrap();
    two.buffer(64).unwrap();
    let err = two
        .command(&[TrackedAccess::whole(a, S::COPY, A::TRANSFER_WRITE)])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "command: resource 0 (tracker 0, generation 0) belongs to another tracker (this one is tracker 0)"
    );
    // A clone keeps the identity.
    let mut three = one.clone();
    assert!(three
        .command(&[TrackedAccess::whole(a, S::COPY, A::TRANSFER_WRITE)])
        .is_ok());
}

#[test]
fn messages_name_the_id() {
    let (mut t, ids) = setup();
    let msg = |r: Result<(), TrackerError>| r.unwrap_err().to_string();
    assert_eq!(
        msg(t.free(ids[0].1)),
        "free: resource 0 (tracker 8, generation 0) belongs to another tracker (this one is tracker 7)"
    );
    assert_eq!(
        msg(t.free(ids[1].1)),
        "free: resource 2 (tracker 7, generation 0) was freed (its generation is now 1)"
    );
    assert_eq!(
        msg(t.free(ids[2].1)),
        "free: resource 3 (tracker 7, generation 0) is not one of this tracker's (3 so far)"
    );
}

#[test]
fn unknown_queues_and_semaphores_are_refused() {
    let mut t = Tracker::new();
    let buf = t.buffer(64).unwrap();
    let sem = t.semaphore(SemaphoreType::Binary);
    let ghost = SemaphoreId(5);
    let wait = |semaphore| SemaphoreWait {
        semaphore,
        value: None,
        stages: S::ALL_COMMANDS,
    };
    let signal = |semaphore| SemaphoreSignal {
        semaphore,
        value: None,
        stages: S::ALL_COMMANDS,
    };
    let cases: Vec<(&str, Result<(), TrackerError>, &str)> = vec![
        (
            "command_on",
            t.clone()
                .command_on(QueueId(3), &[TrackedAccess::whole(buf, S::COPY, A::TRANSFER_WRITE)])
                .map(drop),
            "command_on: queue 3 is not one of this tracker's (1 declared, the first implicit)",
        ),
        ("wait_queue", t.clone().wait_queue(QueueId(1)), "wait_queue: queue 1 is not one of this tracker's (1 declared, the first implicit)"),
        (
            "submit_on queue",
            t.clone().submit_on(&Submission { queue: QueueId(2), ..Submission::default() }).map(drop),
            "submit_on: queue 2 is not one of this tracker's (1 declared, the first implicit)",
        ),
        (
            "submit_on wait",
            t.clone().submit_on(&Submission { waits: vec![wait(ghost)], ..Submission::default() }).map(drop),
            "submit_on: semaphore 5 is not one of this tracker's (1 declared)",
        ),
        (
            "submit_on signal",
            t.clone().submit_on(&Submission { signals: vec![signal(ghost)], ..Submission::default() }).map(drop),
            "submit_on: semaphore 5 is not one of this tracker's (1 declared)",
        ),
        ("wait_semaphore", t.clone().wait_semaphore(ghost, 1), "wait_semaphore: semaphore 5 is not one of this tracker's (1 declared)"),
        ("host_signal", t.clone().host_signal(ghost, 1), "host_signal: semaphore 5 is not one of this tracker's (1 declared)"),
        // The model's own semaphore rules, with the call and the operand.
        (
            "a binary wait with no signal",
            t.clone().submit_on(&Submission { waits: vec![wait(sem)], ..Submission::default() }).map(drop),
            "submit_on: wait 0: binary semaphore `semaphore 0` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)",
        ),
        (
            "a host signal of a binary semaphore",
            t.clone().host_signal(sem, 1),
            "host_signal: host: ",
        ),
    ];
    for (what, got, want) in cases {
        let got = got.expect_err(what).to_string();
        assert!(got.starts_with(want), "{what}: {got}");
    }
}
