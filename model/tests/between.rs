//! `barrier_between`, the Tracker's stateless case: one table of
//! (previous accesses, next accesses, what is needed), through one helper.

use vksync::{barrier_between, AccessFlags2 as A, Barrier, PipelineStageFlags2 as S};

type Sa = (S, A);

/// The answer as (barrier, submit and wait).
type Answer = (Option<Barrier>, bool);

fn between(previous: &[Sa], next: &[Sa]) -> Answer {
    let needs = barrier_between(previous, next).expect("valid accesses");
    assert!(needs.barriers.len() <= 1, "one resource, one barrier: {needs:?}");
    (needs.barriers.first().copied(), needs.submit_and_wait)
}

#[test]
fn each_pair_gets_what_it_needs() {
    let copy_r = (S::COPY, A::TRANSFER_READ);
    let copy_w = (S::COPY, A::TRANSFER_WRITE);
    let clear_w = (S::CLEAR, A::TRANSFER_WRITE);
    let cs_w = (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE);
    let cs_r = (S::COMPUTE_SHADER, A::SHADER_STORAGE_READ);
    let host_r = (S::HOST, A::HOST_READ);
    let host_w = (S::HOST, A::HOST_WRITE);
    let g = Barrier::global;
    #[rustfmt::skip]
    let cases: &[(&str, &[Sa], &[Sa], Answer)] = &[
        ("read after read", &[copy_r], &[cs_r], (None, false)),
        ("write after read: execution only", &[copy_r], &[clear_w], (Some(g(S::COPY, A::NONE, S::CLEAR, A::NONE)), false)),
        ("read after write", &[cs_w], &[copy_r], (Some(g(S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE, S::COPY, A::TRANSFER_READ)), false)),
        ("write after write, made visible", &[copy_w], &[clear_w], (Some(g(S::COPY, A::TRANSFER_WRITE, S::CLEAR, A::TRANSFER_WRITE)), false)),
        ("two earlier accesses, one barrier", &[copy_r, cs_w], &[copy_w], (Some(g(S::COMPUTE_SHADER | S::COPY, A::SHADER_STORAGE_WRITE, S::COPY, A::TRANSFER_WRITE)), false)),
        ("host read after a device write", &[copy_w], &[host_r], (Some(g(S::COPY, A::TRANSFER_WRITE, S::HOST, A::HOST_READ)), true)),
        ("host write after a device read: a fence wait, no barrier", &[copy_r], &[host_w], (None, true)),
        ("device read after a host write: the submission orders it", &[host_w], &[copy_r], (None, false)),
    ];
    for (what, previous, next, expected) in cases {
        assert_eq!(&between(previous, next), expected, "{what}");
    }
}

#[test]
fn bad_accesses_are_errors() {
    // A storage read is not a copy's access.
    let e = barrier_between(
        &[(S::COPY, A::SHADER_STORAGE_READ)],
        &[(S::COPY, A::TRANSFER_READ)],
    )
    .unwrap_err();
    assert!(e.to_string().contains("SHADER_STORAGE_READ"), "{e}");
}
