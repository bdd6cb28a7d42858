//! Link options of the layer library.
//!
//! `-Bsymbolic`: references from inside `libvksync_capture.so` to the
//! symbols it exports bind to its own definitions, never to a same-named
//! symbol of a library already in the process's global scope. An
//! application linked with `-lvulkan` has the loader's `vkGet*ProcAddr`
//! there; when the layer exported those names without this, its
//! negotiation handed the loader the loader's own trampolines and
//! `vkCreateInstance` deadlocked on the loader's lock (issue 27). The layer
//! now exports only `vkNegotiateLoaderLayerInterfaceVersion` (Rust's
//! version script for a cdylib hides everything else), so this is the
//! second of two guards; `cli/tests/capture.rs` checks both on the built
//! library.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
    }
}
