//! Compiles the CUDA kernels of `kernels/` for the CPU through the shim header (`cc` crate),
//! twice: as they are, and with a planted off-by-one (the agreement test's negative control).

/// Whether the Rust code is built for the machine's own CPU (this repository's
/// `.cargo/config.toml` asks for it; a downstream crate that depends on ssmcheck does not inherit
/// that file, and then the shim is built for the generic target too).
fn native_cpu() -> bool {
    std::env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|flags| flags.split('\x1f').any(|f| f == "target-cpu=native" || f.ends_with("-C target-cpu=native")))
}

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let native = native_cpu();
    for f in [
        "kernels/cpu_shim.cpp",
        "kernels/cpu_shim.h",
        "kernels/philox.cuh",
        "kernels/vecmath.cuh",
        "kernels/diagonal_lrd.cu",
        "kernels/tail_sums.cu",
        "kernels/interaction.cu",
        "kernels/needle.cu",
        "kernels/tilted_tail_sums.cu",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    let base = || {
        let mut b = cc::Build::new();
        b.cpp(true).file("kernels/cpu_shim.cpp").include("kernels").flag_if_supported("-std=c++17").opt_level(2);
        // Bit-for-bit IEEE arithmetic, as in the Rust reference (no contraction into FMAs).
        b.flag_if_supported("-ffp-contract=off");
        // fma() as one instruction where the machine has it (it is correctly rounded either way),
        // only when the Rust code is built for this CPU too.
        if native {
            b.flag_if_supported("-march=native");
        }
        b
    };
    base().compile("ssm_kernels_cpu");
    base().define("SSM_PREFIX", "ssm_planted_").define("SSM_STEP_OFFSET", "1").compile("ssm_kernels_planted");
}
