//! Compiles the CUDA kernels of `kernels/` for the CPU through the shim header (`cc` crate),
//! twice: as they are, and with a planted off-by-one (the agreement test's negative control).
//!
//! The kernels are found, not listed: every `kernels/<name>.cu` must define the entry point
//! `<name>`. The build writes, into `OUT_DIR`, the shim's `#include`s and exports
//! (`kernel_includes.inc`, `kernel_exports.inc`, read by `kernels/cpu_shim.cpp`) and the Rust
//! side's declarations of the exports (`shim_entries.rs`, included by `src/mc/shim.rs`).

use std::path::{Path, PathBuf};

/// Whether the Rust code is built for the machine's own CPU (this repository's
/// `.cargo/config.toml` asks for it; a downstream crate that depends on ssmcheck does not inherit
/// that file, and then the shim is built for the generic target too).
fn native_cpu() -> bool {
    std::env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|flags| flags.split('\x1f').any(|f| f == "target-cpu=native" || f.ends_with("-C target-cpu=native")))
}

/// The kernels' names (file stems of `kernels/*.cu`), sorted; each file must define its entry.
fn kernels() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("kernels")
        .expect("the kernels/ directory")
        .map(|e| e.expect("a kernels/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .map(|p| {
            let name = p.file_stem().expect("a file name").to_string_lossy().into_owned();
            let source = std::fs::read_to_string(&p).expect("a readable kernel");
            assert!(source.contains(&format!("void {name}(")), "{} must define the kernel entry `{name}`", p.display());
            name
        })
        .collect();
    names.sort();
    names
}

fn write(dir: &Path, file: &str, text: String) {
    std::fs::write(dir.join(file), text).unwrap_or_else(|e| panic!("cannot write {file}: {e}"));
}

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rerun-if-changed=kernels");
    for entry in std::fs::read_dir("kernels").expect("the kernels/ directory") {
        println!("cargo:rerun-if-changed={}", entry.expect("a kernels/ entry").path().display());
    }
    let names = kernels();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    write(&out, "kernel_includes.inc", names.iter().map(|n| format!("#include \"{n}.cu\"\n")).collect());
    write(&out, "kernel_exports.inc", names.iter().map(|n| format!("SSM_EXPORT({n})\n")).collect());
    let table = |prefix: &str| names.iter().map(|n| format!("(\"{n}\", {prefix}{n} as Entry), ")).collect::<String>();
    write(
        &out,
        "shim_entries.rs",
        format!(
            "extern \"C\" {{\n{}}}\n/// Every kernel as built for production.\nconst PRODUCTION: [(&str, Entry); {n}] = [{}];\n/// Every kernel with the planted off-by-one.\nconst PLANTED: [(&str, Entry); {n}] = [{}];\n",
            names.iter().flat_map(|n| ["ssm_cpu_", "ssm_planted_"].map(|p| format!("    fn {p}{n}(grid: u32, block: u32, params: *mut *mut c_void);\n"))).collect::<String>(),
            table("ssm_cpu_"),
            table("ssm_planted_"),
            n = names.len()
        ),
    );
    let native = native_cpu();
    let base = || {
        let mut b = cc::Build::new();
        b.cpp(true).file("kernels/cpu_shim.cpp").include("kernels").include(&out).flag_if_supported("-std=c++17").opt_level(2);
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
