//! The CUDA device backend (feature `cuda`): the kernels of `kernels/` compiled by NVRTC when the
//! backend starts, launched with cudarc (which loads the driver at run time, so this builds
//! without a CUDA toolkit). The scalar AR(1), which has no kernel yet, runs on the rayon backend.
//!
//! Launches follow the parameter tables of [`super::kernels`], as the CPU shim's do; the kernels
//! use the engine's own elementary functions, so results agree with the CPU backends bit for bit
//! (measured on an H100: README, "Measured on a GPU"); the kernels' logic is verified bit-exactly
//! on the CPU through [`super::shim`].

use super::backend::Launcher;
use super::kernels::{nvrtc_program, ptx_arch, Arg, Launch, KERNELS, OLDEST_ARCH};
use crate::error::{Error, Result};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions};
use std::sync::Arc;

/// The CUDA backend on device 0.
pub struct CudaBackend {
    stream: Arc<CudaStream>,
    functions: Vec<(&'static str, CudaFunction)>,
}

/// Runs `f`, turning a panic (cudarc panics when a library cannot be loaded) into `None`
/// without printing it: the caller reports one clear line instead.
fn quietly<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(f).ok();
    std::panic::set_hook(hook);
    out
}

fn unavailable(why: impl std::fmt::Display) -> Error {
    Error::BackendUnavailable("cuda".into(), why.to_string())
}

fn device(e: impl std::fmt::Display) -> Error {
    Error::InvalidParameter(format!("CUDA launch failed: {e}"))
}

/// The virtual architectures the loaded NVRTC can compile for (`nvrtcGetSupportedArchs`).
fn supported_archs() -> Result<Vec<i32>> {
    use cudarc::nvrtc::sys;
    let failed = |what: &str| unavailable(format!("NVRTC could not list its targets ({what})"));
    let mut n: std::ffi::c_int = 0;
    // SAFETY: NVRTC's C API: the first call writes one int, the second `n` ints into a buffer of
    // exactly that length.
    unsafe {
        if sys::nvrtcGetNumSupportedArchs(&mut n) != sys::nvrtcResult::NVRTC_SUCCESS {
            return Err(failed("nvrtcGetNumSupportedArchs"));
        }
        let mut archs = vec![0; n.max(0) as usize];
        if sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) != sys::nvrtcResult::NVRTC_SUCCESS {
            return Err(failed("nvrtcGetSupportedArchs"));
        }
        Ok(archs)
    }
}

impl CudaBackend {
    /// Opens device 0 and compiles every kernel; a clear error when no driver or device answers.
    pub fn new() -> Result<Self> {
        let ctx = quietly(|| CudaContext::new(0))
            .ok_or_else(|| unavailable("the CUDA driver library could not be loaded (no GPU driver on this machine)"))?
            .map_err(|e| unavailable(format!("no CUDA device answers ({e})")))?;
        let stream = ctx.default_stream();
        let arch = quietly(supported_archs).ok_or_else(|| unavailable("NVRTC could not be loaded"))??;
        let arch = ptx_arch(&arch).ok_or_else(|| unavailable(format!("this NVRTC supports no target at or above compute_{OLDEST_ARCH}")))?;
        let (major, minor) = ctx.compute_capability().map_err(|e| unavailable(format!("no compute capability ({e})")))?;
        if major * 10 + minor < arch {
            return Err(unavailable(format!("the GPU's compute capability {major}.{minor} is older than this NVRTC's oldest target, compute_{arch}")));
        }
        // Leaked once per backend: cudarc takes the architecture as a static string.
        let arch: &'static str = Box::leak(format!("compute_{arch}").into_boxed_str());
        let mut functions = vec![];
        for k in &KERNELS {
            // NVRTC_OPTIONS (the arch and fmad are separate fields in cudarc).
            let opts =
                CompileOptions { arch: Some(arch), name: Some(k.file.into()), fmad: Some(false), options: vec!["--std=c++14".into()], ..Default::default() };
            let ptx = quietly(|| compile_ptx_with_opts(nvrtc_program(k), opts))
                .ok_or_else(|| unavailable("NVRTC could not be loaded"))?
                .map_err(|e| unavailable(format!("{} does not compile: {e:?}", k.file)))?;
            let module = ctx.load_module(ptx).map_err(|e| unavailable(format!("{}: {e}", k.file)))?;
            functions.push((k.entry, module.load_function(k.entry).map_err(|e| unavailable(format!("{}: {e}", k.entry)))?));
        }
        Ok(CudaBackend { stream, functions })
    }
}

/// An argument on the device: a buffer it owns, or a scalar.
enum DeviceArg {
    F64(CudaSlice<f64>),
    U64s(CudaSlice<u64>),
    I32(i32),
    U32(u32),
    U64(u64),
    Real(f64),
}

impl Launcher for CudaBackend {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn launch(&self, launch: &Launch) -> Result<Vec<Vec<f64>>> {
        let s = &self.stream;
        let function = self
            .functions
            .iter()
            .find(|(name, _)| *name == launch.kernel.entry)
            .map(|f| &f.1)
            .ok_or_else(|| Error::InvalidParameter(format!("no CUDA kernel '{}'", launch.kernel.entry)))?;
        let mut args: Vec<DeviceArg> = launch
            .args
            .iter()
            .map(|a| {
                Ok(match a {
                    Arg::InF64(v) => DeviceArg::F64(s.clone_htod(v).map_err(device)?),
                    Arg::InU64(v) => DeviceArg::U64s(s.clone_htod(v).map_err(device)?),
                    Arg::OutF64(n) => DeviceArg::F64(s.alloc_zeros::<f64>(*n).map_err(device)?),
                    Arg::I32(v) => DeviceArg::I32(*v),
                    Arg::U32(v) => DeviceArg::U32(*v),
                    Arg::U64(v) => DeviceArg::U64(*v),
                    Arg::F64(v) => DeviceArg::Real(*v),
                })
            })
            .collect::<Result<_>>()?;
        let mut builder = s.launch_builder(function);
        for a in &mut args {
            match a {
                DeviceArg::F64(b) => builder.arg(b),
                DeviceArg::U64s(b) => builder.arg(b),
                DeviceArg::I32(v) => builder.arg(&*v),
                DeviceArg::U32(v) => builder.arg(&*v),
                DeviceArg::U64(v) => builder.arg(&*v),
                DeviceArg::Real(v) => builder.arg(&*v),
            };
        }
        let config = LaunchConfig { grid_dim: (launch.grid(), 1, 1), block_dim: (launch.kernel.block, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the arguments are pushed in the order and with the types of the kernel's
        // parameter table (checked against the kernel's signature by the table's tests and
        // against the PTX by the NVRTC test); every buffer has the length the kernel reads or
        // writes (the job's validation bounds its sizes), and each thread writes only its own
        // path's or sample's entries.
        unsafe { builder.launch(config) }.map_err(device)?;
        drop(builder);
        let outputs = launch.args.iter().zip(&args).filter(|(a, _)| matches!(a, Arg::OutF64(_)));
        outputs
            .map(|(_, d)| match d {
                DeviceArg::F64(b) => s.clone_dtoh(b).map_err(device),
                _ => unreachable!("outputs are f64 buffers"),
            })
            .collect()
    }
}
