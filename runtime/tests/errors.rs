//! Bad input is rejected with typed errors before any Vulkan work, and the
//! device stays usable.

mod common;

use vksync::reference::KernelError;
use vksync::Location;
use vksync_runtime::{CheckError, Device, DeviceOptions, RuntimeError, ValidationMode};

fn error_of(device: &mut Device, text: &str) -> RuntimeError {
    let trace = common::parse(text);
    device.run(&trace.program).expect_err("rejected")
}

#[test]
fn bad_dispatches_are_typed_errors_and_nothing_runs() {
    let Some(mut device) = common::device() else {
        return;
    };
    let e = error_of(
        &mut device,
        "buffer a 64\nbuffer b 64\ndispatch gelu read a write b\n",
    );
    assert!(
        matches!(&e, RuntimeError::Check { at: Location::Command(0), source: CheckError::Kernel(KernelError::Unknown(k)) } if k == "gelu"),
        "{e}"
    );
    let e = error_of(
        &mut device,
        "buffer a 64\nbuffer b 64\ndispatch add read a write b\n",
    );
    assert!(
        matches!(
            e,
            RuntimeError::Check {
                at: Location::Command(0),
                source: CheckError::Kernel(KernelError::Signature { .. })
            }
        ),
        "{e}"
    );
    let e = error_of(
        &mut device,
        "buffer a 64\nbuffer b 64\ndispatch scale_add read a[0..32] write b\n",
    );
    assert!(
        matches!(
            e,
            RuntimeError::Check {
                at: Location::Command(0),
                source: CheckError::Kernel(KernelError::BindingSize { .. })
            }
        ),
        "{e}"
    );
    let e = error_of(
        &mut device,
        "buffer a 64\nbuffer b 64\ndispatch scale_add read a[2..34] write b[0..32]\n",
    );
    assert!(
        matches!(
            e,
            RuntimeError::Check {
                at: Location::Command(0),
                source: CheckError::MisalignedBinding {
                    binding: 0,
                    offset: 2
                }
            }
        ),
        "{e}"
    );
    // The model's own checks come through typed too.
    let e = error_of(&mut device, "buffer a 64\nfill a[0..128] 1\n");
    assert!(matches!(e, RuntimeError::Program { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "invalid program at command 0: range 0..128 is out of bounds of `a` (size 64)"
    );

    // Nothing reached the device: a good program still runs clean.
    let t = common::parse("buffer a 64\nfill a 3\nbarrier CLEAR|COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a\n");
    let r = device.run(&t.program).expect("runs");
    common::assert_matches_reference(&t.program, &r, &common::layer(&device));
}

#[test]
fn unknown_device_names_list_the_available_ones() {
    if vksync_runtime::skip_device_test() {
        return;
    }
    let e = Device::new(DeviceOptions {
        device: Some("no-such-gpu".to_string()),
        validation: ValidationMode::Off,
        print_device: false,
        ..DeviceOptions::default()
    })
    .err()
    .expect("no device matches");
    assert!(matches!(e, RuntimeError::DeviceNotFound { .. }), "{e}");
}

#[test]
fn misaligned_bindings_are_widened_and_noted() {
    // A binding at offset 16 of a buffer: bound from the rounded-down offset
    // when the device needs more alignment, and the kernel skips the gap.
    let Some(mut device) = common::device() else {
        return;
    };
    let t = common::parse(
        "buffer a 128\nbuffer b 128\nhost-write a 10\n\
         dispatch scale_add(2,1) read a[20..52] write b[36..68]\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read b[36..68]\n",
    );
    let r = device.run(&t.program).expect("runs");
    let cmp = vksync_runtime::compare_with_reference(&t.program, &r).unwrap();
    assert!(cmp[0].mismatches.is_empty() && cmp[0].undefined == 0, "{cmp:?}");
    let align = device.info().limits.min_storage_buffer_offset_alignment;
    let widened = r.notes.len();
    assert_eq!(
        widened,
        [20u64, 36].iter().filter(|o| *o % align != 0).count(),
        "{:?}",
        r.notes
    );
}

#[test]
fn memory_the_device_cannot_hold_is_rejected_before_allocating() {
    let Some(mut device) = common::device() else {
        return;
    };
    // (trace, the object the error is about): a terabyte and the largest
    // size the trace format allows (16 EiB) are over every real device's
    // limits; each error is about the memory object's declaration.
    let cases = [
        (
            "buffer small 64\nbuffer big 1099511627776\nfill big[0..64] 1\n",
            1,
        ),
        ("buffer big 18446744073709551612\nfill big[0..64] 1\n", 0),
        ("pool p 1099511627776\nalloc x 64 from p\nfill x 1\n", 0),
    ];
    for (text, object) in cases {
        let e = error_of(&mut device, text);
        assert!(
            matches!(
                &e,
                RuntimeError::Check { at: Location::Object(o), source: CheckError::MemoryTooLarge { .. } } if o.0 == object
            ),
            "{text}: {e}"
        );
    }
}
