//! Every CUDA kernel compiles to PTX with NVRTC — no GPU needed. NVRTC is loaded at run time
//! from `SSMCHECK_NVRTC_LIB` (set by `.ci/run`, which installs NVRTC 12 and 13 from their PyPI
//! wheels) or the loader's default `libnvrtc.so.12`, and each compiles for the architecture the
//! CUDA backend would choose with it (`ptx_arch`: compute_70 on NVRTC 12, compute_75 on NVRTC
//! 13, which refuses compute_70). In CI (CI=true) a missing NVRTC fails the test; elsewhere the
//! test says it is skipping.

use libloading::{Library, Symbol};
use ssmcheck::mc::kernels::{nvrtc_program, ptx_arch, KERNELS, NVRTC_OPTIONS};
use std::ffi::{c_char, c_int, c_void, CStr, CString};

type Program = *mut c_void;

/// Every NVRTC named in `SSMCHECK_NVRTC_LIB` (a colon-separated list: CI names NVRTC 12 and 13,
/// whose oldest targets differ), else the loader's default; with the path each was loaded from.
/// In CI (CI=true) every named library must load.
fn load() -> Vec<(String, Library)> {
    let named: Vec<String> =
        std::env::var("SSMCHECK_NVRTC_LIB").map(|v| v.split(':').filter(|p| !p.is_empty()).map(String::from).collect()).unwrap_or_default();
    let in_ci = std::env::var("CI").as_deref() == Ok("true");
    // SAFETY: loading NVRTC runs its initialisers, which have no preconditions on our side.
    let open = |c: &String| unsafe { Library::new(c) }.ok().map(|l| (c.clone(), l));
    if named.is_empty() {
        return ["libnvrtc.so.12", "libnvrtc.so"].iter().map(|c| c.to_string()).find_map(|c| open(&c)).into_iter().collect();
    }
    named
        .iter()
        .filter_map(|c| {
            let lib = open(c);
            assert!(lib.is_some() || !in_ci, "NVRTC {c} cannot be loaded in CI: .ci/run should have installed it");
            lib
        })
        .collect()
}

/// Compiles one program; returns the PTX or NVRTC's log.
fn compile(lib: &Library, name: &str, source: &str) -> Result<String, String> {
    // SAFETY: the symbols are NVRTC's C API with these exact signatures (nvrtc.h, CUDA 12); every
    // pointer passed below points to a live, NUL-terminated CString or a correctly sized buffer,
    // and the program handle is destroyed once.
    unsafe {
        let create: Symbol<unsafe extern "C" fn(*mut Program, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> c_int> =
            lib.get(b"nvrtcCreateProgram").map_err(|e| e.to_string())?;
        let compile: Symbol<unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int> =
            lib.get(b"nvrtcCompileProgram").map_err(|e| e.to_string())?;
        let ptx_size: Symbol<unsafe extern "C" fn(Program, *mut usize) -> c_int> = lib.get(b"nvrtcGetPTXSize").map_err(|e| e.to_string())?;
        let get_ptx: Symbol<unsafe extern "C" fn(Program, *mut c_char) -> c_int> = lib.get(b"nvrtcGetPTX").map_err(|e| e.to_string())?;
        let log_size: Symbol<unsafe extern "C" fn(Program, *mut usize) -> c_int> = lib.get(b"nvrtcGetProgramLogSize").map_err(|e| e.to_string())?;
        let get_log: Symbol<unsafe extern "C" fn(Program, *mut c_char) -> c_int> = lib.get(b"nvrtcGetProgramLog").map_err(|e| e.to_string())?;
        let destroy: Symbol<unsafe extern "C" fn(*mut Program) -> c_int> = lib.get(b"nvrtcDestroyProgram").map_err(|e| e.to_string())?;

        let src = CString::new(source).unwrap();
        let cname = CString::new(name).unwrap();
        let mut prog: Program = std::ptr::null_mut();
        let rc = create(&mut prog, src.as_ptr(), cname.as_ptr(), 0, std::ptr::null(), std::ptr::null());
        if rc != 0 {
            return Err(format!("nvrtcCreateProgram failed ({rc})"));
        }
        let num_archs: Symbol<unsafe extern "C" fn(*mut c_int) -> c_int> = lib.get(b"nvrtcGetNumSupportedArchs").map_err(|e| e.to_string())?;
        let get_archs: Symbol<unsafe extern "C" fn(*mut c_int) -> c_int> = lib.get(b"nvrtcGetSupportedArchs").map_err(|e| e.to_string())?;
        let mut n: c_int = 0;
        num_archs(&mut n);
        let mut archs = vec![0; n.max(0) as usize];
        get_archs(archs.as_mut_ptr());
        // The architecture the CUDA backend would choose with this NVRTC.
        let arch = ptx_arch(&archs).ok_or_else(|| format!("this NVRTC supports no target the kernels accept: {archs:?}"))?;
        let arch_option = format!("--gpu-architecture=compute_{arch}");
        let opts: Vec<CString> = std::iter::once(arch_option.as_str()).chain(NVRTC_OPTIONS).map(|o| CString::new(o).unwrap()).collect();
        let op: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
        let rc = compile(prog, op.len() as c_int, op.as_ptr());
        let result = if rc == 0 {
            let mut n = 0usize;
            ptx_size(prog, &mut n);
            let mut buf = vec![0 as c_char; n];
            get_ptx(prog, buf.as_mut_ptr());
            Ok(CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned())
        } else {
            let mut n = 0usize;
            log_size(prog, &mut n);
            let mut buf = vec![0 as c_char; n.max(1)];
            get_log(prog, buf.as_mut_ptr());
            Err(CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned())
        };
        destroy(&mut prog);
        result
    }
}

/// The `.param` types of an entry point in PTX, in order (`.u64` for pointers).
fn entry_params(ptx: &str, entry: &str) -> Vec<String> {
    let start = ptx.find(&format!(".entry {entry}(")).expect("entry point");
    let end = start + ptx[start..].find(')').expect("end of the parameter list");
    ptx[start..end].lines().filter_map(|l| l.trim().strip_prefix(".param ")).map(|p| p.split_whitespace().next().unwrap_or("").to_string()).collect()
}

#[test]
fn every_kernel_compiles_to_ptx_with_nvrtc() {
    let libs = load();
    if libs.is_empty() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("NVRTC cannot be loaded in CI: .ci/run should have installed it and set SSMCHECK_NVRTC_LIB");
        }
        eprintln!("skipping the NVRTC compile check: NVRTC not found (set SSMCHECK_NVRTC_LIB; `.ci/run` installs it)");
        return;
    }
    for (path, lib) in &libs {
        for k in &KERNELS {
            let ptx = compile(lib, k.file, &nvrtc_program(k)).unwrap_or_else(|log| panic!("{} does not compile with {path}:\n{log}", k.file));
            assert!(ptx.contains(&format!(".entry {}", k.entry)), "{}: no entry point {} in the PTX", k.file, k.entry);
            // The launchers push arguments by the parameter table: it must match the compiled entry.
            let table: Vec<&str> = k.params.iter().map(|p| p.1.ptx_type()).collect();
            assert_eq!(entry_params(&ptx, k.entry), table, "{}: the parameter table differs from the PTX entry", k.entry);
        }
    }
}

#[test]
fn a_broken_kernel_does_not_compile() {
    // The check can fail: a syntax error in a kernel is reported with NVRTC's log.
    for (_, lib) in &load() {
        assert!(compile(lib, "broken.cu", "extern \"C\" __global__ void k() { int x = ; }").is_err());
    }
}
