//! The CUDA kernels of `kernels/` run on the CPU through a shim (a grid loop over
//! blockIdx/threadIdx; compiled as C++ by `build.rs`), so they can be verified without a GPU: on
//! the same streams their results must match the rayon backend.
//!
//! Every kernel is called as CUDA calls it: a grid, a block, and an array of pointers to the
//! argument values in the order of its parameter table ([`super::kernels`]). The scalar AR(1) has
//! no kernel yet; this backend runs it on the rayon backend.

use super::backend::Launcher;
use super::kernels::{Arg, Launch};
use crate::error::{Error, Result};
use std::ffi::c_void;

/// A kernel exported by the shim: `(grid, block, params)`.
type Entry = unsafe extern "C" fn(u32, u32, *mut *mut c_void);

// The exports of every `kernels/<name>.cu` (`ssm_cpu_<name>`, `ssm_planted_<name>`) and the
// tables `PRODUCTION` and `PLANTED` of (name, entry), written by build.rs.
include!(concat!(env!("OUT_DIR"), "/shim_entries.rs"));

/// The kernels on the CPU (single-threaded, like one GPU thread after another).
#[derive(Clone, Copy, Debug)]
pub struct ShimBackend {
    entries: &'static [(&'static str, Entry)],
}

impl Default for ShimBackend {
    fn default() -> Self {
        ShimBackend { entries: &PRODUCTION }
    }
}

impl ShimBackend {
    /// The kernels as built for production.
    pub fn new() -> Self {
        Self::default()
    }
    /// The kernels with a planted off-by-one in their step loops: the negative control of the
    /// agreement test (never use it for results).
    #[doc(hidden)]
    pub fn with_planted_bug() -> Self {
        ShimBackend { entries: &PLANTED }
    }
}

/// An argument's value in an 8-byte slot, as the kernel reads it through its pointer.
fn slot(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_ne_bytes(b)
}

impl Launcher for ShimBackend {
    fn name(&self) -> &'static str {
        "cuda-kernels-on-cpu"
    }

    fn launch(&self, launch: &Launch) -> Result<Vec<Vec<f64>>> {
        let entry = self
            .entries
            .iter()
            .find(|(name, _)| *name == launch.kernel.entry)
            .map(|e| e.1)
            .ok_or_else(|| Error::InvalidParameter(format!("the shim has no kernel '{}'", launch.kernel.entry)))?;
        let mut outputs: Vec<Vec<f64>> = launch.args.iter().filter_map(|a| if let Arg::OutF64(n) = a { Some(vec![0.0; *n]) } else { None }).collect();
        let mut next_out = outputs.iter_mut();
        let mut slots: Vec<u64> = launch
            .args
            .iter()
            .map(|a| match a {
                Arg::InF64(v) => v.as_ptr() as usize as u64,
                Arg::InU64(v) => v.as_ptr() as usize as u64,
                Arg::OutF64(_) => next_out.next().expect("one buffer per output").as_mut_ptr() as usize as u64,
                Arg::I32(v) => slot(&v.to_ne_bytes()),
                Arg::U32(v) => slot(&v.to_ne_bytes()),
                Arg::U64(v) => *v,
                Arg::F64(v) => slot(&v.to_ne_bytes()),
            })
            .collect();
        let mut params: Vec<*mut c_void> = slots.iter_mut().map(|s| (s as *mut u64).cast::<c_void>()).collect();
        // SAFETY: `params[i]` points at an 8-byte slot holding argument i in the representation
        // of the kernel's i-th parameter (checked against the kernel's signature by the table's
        // tests; `Launch::new` checks the arguments against the table). Buffer arguments point
        // into `launch.args` and `outputs`, which have the lengths the kernel reads and writes
        // (the job's validation bounds its sizes) and outlive the call; the shim keeps no pointer.
        unsafe { entry(launch.grid(), launch.kernel.block, params.as_mut_ptr()) };
        Ok(outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::kernels::KERNELS;

    /// Every kernel build.rs found in `kernels/` has a parameter table (so the launches, the
    /// NVRTC test and the CUDA backend know it), and every table a kernel.
    #[test]
    fn every_kernel_file_has_a_parameter_table() {
        let mut found: Vec<&str> = PRODUCTION.iter().map(|e| e.0).collect();
        let mut tables: Vec<&str> = KERNELS.iter().map(|k| k.entry).collect();
        found.sort_unstable();
        tables.sort_unstable();
        assert_eq!(found, tables);
        assert_eq!(PLANTED.map(|e| e.0), PRODUCTION.map(|e| e.0));
    }
}
