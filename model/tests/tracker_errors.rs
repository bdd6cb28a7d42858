//! The `Tracker`'s refusals say what to write instead (issue 26): one
//! table of (what the user wrote, the message), through one helper.

use vksync::{AccessFlags2 as A, ByteRange, PipelineStageFlags2 as S, TrackedAccess, Tracker};

/// The error of one command with one access over a 256-byte buffer.
fn refusal(stage: S, access: A) -> String {
    let mut t = Tracker::new();
    let buf = t.buffer(256).expect("a buffer");
    t.command(&[TrackedAccess::range(buf, ByteRange::new(0, 64), stage, access)])
        .expect_err("refused")
        .to_string()
}

#[test]
fn refused_accesses_name_what_to_write() {
    let cases: &[(S, A, &str)] = &[
        (
            S::COMPUTE_SHADER,
            A::SHADER_READ,
            "SHADER_READ is the synchronization-1 access: name SHADER_STORAGE_READ (a storage buffer), UNIFORM_READ (a uniform buffer) or SHADER_SAMPLED_READ",
        ),
        (
            S::COMPUTE_SHADER,
            A::SHADER_WRITE,
            "SHADER_WRITE is the synchronization-1 access: name SHADER_STORAGE_WRITE",
        ),
        (
            S::ALL_TRANSFER,
            A::TRANSFER_WRITE,
            "ALL_TRANSFER (TRANSFER in synchronization 1) stands for every transfer stage: name the one the command runs in, COPY (vkCmdCopyBuffer), CLEAR (vkCmdFillBuffer, vkCmdUpdateBuffer), BLIT or RESOLVE",
        ),
        (
            S::COMPUTE_SHADER,
            A::MEMORY_WRITE,
            "MEMORY_READ and MEMORY_WRITE stand for every access of their kind in a barrier",
        ),
        (
            S::COPY,
            A::TRANSFER_READ | A::TRANSFER_WRITE,
            "give each stage and access of a command as its own TrackedAccess",
        ),
        (
            S::ALL_COMMANDS,
            A::SHADER_STORAGE_READ,
            "that stage orders others in a barrier but runs no access",
        ),
        // A flag no name covers prints as hexadecimal, never as nothing.
        (S::COMPUTE_SHADER, A::from_bits_retain(1 << 60), "COMPUTE_SHADER:0x1000000000000000 is not"),
    ];
    for (stage, access, want) in cases {
        let got = refusal(*stage, *access);
        assert!(got.contains(want), "{stage}:{access}: {got}");
    }
}

#[test]
fn offset_of_a_buffer_says_offset() {
    let mut t = Tracker::new();
    let buf = t.buffer(256).expect("a buffer");
    assert_eq!(
        t.offset(buf).expect_err("not a blob").to_string(),
        "offset: resource 0 (tracker 0, generation 0) is not a blob (only a blob allocated from a pool has an offset in it and is freed)"
    );
    assert!(t
        .free(buf)
        .expect_err("not a blob")
        .to_string()
        .starts_with("free: resource 0 (tracker 0, generation 0) is not a blob"));
}
