//! The Tracker over aliased buffers: two `VkBuffer`s on the same memory are
//! ordered where their bytes overlap, and only there. One table through one
//! helper: a sequence of (resource, range, stage, access), and whether the
//! last command needs a barrier.

use vksync::{AccessFlags2 as A, ByteRange, PipelineStageFlags2 as S, TrackedAccess, Tracker, TrackerError};

/// Resources: 0 = buffer `a` (256 bytes), 1 = alias `v` of `a` at 64 (64
/// bytes), 2 = pool `p` (256 bytes), 3 = alias `w` of `p` at 0 (128 bytes).
/// One access: (resource, start, end, stage, access).
type Step = (usize, u64, u64, S, A);

fn last_needs_barrier(steps: &[Step]) -> bool {
    let mut t = Tracker::new();
    let a = t.buffer(256).unwrap();
    let v = t.alias(a, 64, 64).unwrap();
    let p = t.pool(256, 64).unwrap();
    let w = t.alias(p, 0, 128).unwrap();
    let ids = [a, v, p, w];
    let mut needs = None;
    for &(r, start, end, stage, access) in steps {
        let acc = TrackedAccess::range(ids[r], ByteRange::new(start, end), stage, access);
        needs = Some(t.command(&[acc]).unwrap());
    }
    !needs.expect("at least one step").barriers.is_empty()
}

#[test]
fn aliases_are_ordered_where_they_overlap() {
    let w = (S::COPY, A::TRANSFER_WRITE);
    let r = (S::COMPUTE_SHADER, A::SHADER_STORAGE_READ);
    #[rustfmt::skip]
    let cases: &[(&str, &[Step], bool)] = &[
        ("write a[64..128], read v whole", &[(0, 64, 128, w.0, w.1), (1, 0, 64, r.0, r.1)], true),
        ("write a[0..64], read v whole: disjoint", &[(0, 0, 64, w.0, w.1), (1, 0, 64, r.0, r.1)], false),
        ("write v[60..64], read a[127..128]", &[(1, 60, 64, w.0, w.1), (0, 127, 128, r.0, r.1)], true),
        ("write v, read a[128..256]: disjoint", &[(1, 0, 64, w.0, w.1), (0, 128, 256, r.0, r.1)], false),
        ("write pool p[0..16], read its alias w", &[(2, 0, 16, w.0, w.1), (3, 0, 16, r.0, r.1)], true),
    ];
    for (what, steps, expected) in cases {
        assert_eq!(last_needs_barrier(steps), *expected, "{what}");
    }
}

#[test]
fn bad_aliases_are_errors() {
    let mut t = Tracker::new();
    let a = t.buffer(256).unwrap();
    let p = t.pool(256, 64).unwrap();
    let x = t.alloc(p, 64).unwrap();
    let far = {
        let mut other = Tracker::new();
        (0..10).map(|_| other.buffer(8).unwrap()).last().unwrap()
    };
    let cases: &[(&str, Result<vksync::TrackedId, TrackerError>, &str)] = &[
        (
            "past the end",
            t.clone().alias(a, 200, 64),
            "alias: 200..200+64 is past the end of resource 0 (tracker 0, generation 0) (size 256)",
        ),
        (
            "end past 2^64",
            t.clone().alias(a, u64::MAX, 2),
            "alias: 18446744073709551615..18446744073709551615+2 is past the end of resource 0 (tracker 0, generation 0) (size 256)",
        ),
        (
            "of a blob",
            t.clone().alias(x, 0, 16),
            "alias: resource 2 (tracker 0, generation 0) is a blob; alias its pool at the blob's offset instead",
        ),
        ("size 0", t.clone().alias(a, 0, 0), "alias: size 0"),
        (
            "another tracker's",
            t.clone().alias(far, 0, 16),
            "alias: resource 9 (tracker 0, generation 0) belongs to another tracker (this one is tracker 0)",
        ),
    ];
    for (what, got, message) in cases {
        assert_eq!(got.as_ref().unwrap_err().to_string(), *message, "{what}");
    }
}
