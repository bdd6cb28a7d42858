//! The tutorial's barrier patterns (shared/reference/002), with hand-written
//! correct barriers: the device gives the reference's bytes and the
//! validation layer (with synchronization validation) says nothing.

mod common;

fn run_clean(text: &str) {
    let Some(mut device) = common::device() else {
        return;
    };
    let trace = common::parse(text);
    // The model agrees that the hand-written barriers suffice.
    assert_eq!(vksync::check(&trace.program).expect("well formed"), vec![]);
    let result = device.run(&trace.program).expect("runs");
    common::assert_matches_reference(&trace.program, &result, &common::layer(&device));
    assert!(result.notes.is_empty(), "{:?}", result.notes);
}

#[test]
fn three_sequential_layers() {
    run_clean(
        "buffer input 4096\nbuffer t1 4096\nbuffer t2 4096\nbuffer output 4096\n\
         host-write input 1\n\
         dispatch scale_add(3,1) read input write t1\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch slow(16) read t1 write t2\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(7) rw t2\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(2,0) read t2 write output\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\nwait\nhost-read output\n",
    );
}

#[test]
fn residual_block_with_parallel_branches_and_merge() {
    // The two branches only read x and write different buffers: no barrier
    // between them; one barrier before the merge serves both.
    run_clean(
        "buffer x 1024\nbuffer a 1024\nbuffer b 1024\nbuffer y 1024\n\
         update x[0..1024] 5\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(3,1) read x write a\n\
         dispatch slow(8) read x write b\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch add read a read b write y\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\nwait\nhost-read y\n",
    );
}

#[test]
fn buffer_reuse_through_a_pool() {
    // t2 gets t1's memory back: its writer must wait for t1's reader
    // (write-after-read: an execution dependency, which the barrier's
    // COMPUTE_SHADER -> COMPUTE_SHADER gives) and it reads `output`, which
    // the previous dispatch wrote (read-after-write: made visible).
    run_clean(
        "pool arena 8192 align 256\nbuffer input 1024\nbuffer output 1024\n\
         fill input 9\n\
         alloc t1 1024 from arena\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(2,3) read input write t1\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(5,0) read t1 write output\n\
         free t1\n\
         alloc t2 1024 from arena\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale_add(1,1) read output write t2\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(3) rw t2\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\nwait\nhost-read output\nhost-read t2\n",
    );
}

#[test]
fn host_readback_across_two_submissions() {
    // Batching: two command buffers; the host writes between them, after
    // the first one's wait, and reads each result after its wait.
    run_clean(
        "buffer stage 256\nbuffer dev 256\nbuffer res 256\n\
         host-write stage 100\n\
         copy stage -> dev\n\
         barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(2) rw dev\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ\n\
         copy dev -> res\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\nwait\n\
         host-read res\n\
         host-write stage 7\n\
         copy stage[0..64] -> res[64..128]\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\nwait\n\
         host-read res\n",
    );
}

#[test]
fn thousands_of_dispatches_span_several_descriptor_pools() {
    // 2,500 dispatches over distinct 256-byte ranges (256 is the largest
    // minStorageBufferOffsetAlignment a device may ask for, so none is
    // widened) need 2,500 descriptor sets: three pools of 1,024.
    let n = 2500;
    let mut text = format!("buffer a {}\nhost-write a 1\n", 256 * n);
    for i in 0..n {
        text.push_str(&format!(
            "dispatch scale(3) rw a[{}..{}]\n",
            256 * i,
            256 * (i + 1)
        ));
    }
    text.push_str(
        "barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a\n",
    );
    run_clean(&text);
}
