//! Choosing a backend by name: what the CLI's `--backend` parses into, and where a GPU is
//! looked for.

use super::backend::Backend;
use super::cpu::CpuBackend;
use super::shim::ShimBackend;
use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// Which Monte Carlo backend to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BackendChoice {
    /// CUDA when a device answers, else the CPU (the results record which ran).
    #[default]
    Auto,
    /// The rayon backend.
    Cpu,
    /// The CUDA backend (a clear error without the `cuda` feature or a device).
    Cuda,
    /// The CUDA kernels run on the CPU through the shim, to verify them without a device.
    Shim,
}

impl BackendChoice {
    /// Every choice, in the order the CLI lists them.
    pub const ALL: [BackendChoice; 4] = [BackendChoice::Auto, BackendChoice::Cpu, BackendChoice::Cuda, BackendChoice::Shim];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Cpu => "cpu",
            BackendChoice::Cuda => "cuda",
            BackendChoice::Shim => "shim",
        }
    }

    /// Opens the backend.
    pub fn open(self) -> Result<Box<dyn Backend>> {
        match self {
            BackendChoice::Cpu => Ok(Box::new(CpuBackend)),
            BackendChoice::Shim => Ok(Box::new(ShimBackend::new())),
            BackendChoice::Cuda => cuda(),
            BackendChoice::Auto => Ok(cuda().unwrap_or_else(|_| Box::new(CpuBackend))),
        }
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for BackendChoice {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        BackendChoice::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| Error::InvalidParameter(format!("unknown backend '{s}' (expected auto, cpu, cuda or shim)")))
    }
}

#[cfg(feature = "cuda")]
fn cuda() -> Result<Box<dyn Backend>> {
    Ok(Box::new(super::cuda::CudaBackend::new()?))
}

#[cfg(not(feature = "cuda"))]
fn cuda() -> Result<Box<dyn Backend>> {
    Err(Error::BackendUnavailable("cuda".into(), "this build has no CUDA support (rebuild with --features cuda)".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_one_clear_error() {
        for c in BackendChoice::ALL {
            assert_eq!(c.name().parse::<BackendChoice>().unwrap(), c);
        }
        let e = "gpu".parse::<BackendChoice>().unwrap_err().to_string();
        assert!(e.contains("'gpu'") && e.contains("auto, cpu, cuda or shim"), "{e}");
        assert!(BackendChoice::Auto.open().map(|b| b.name()).ok().filter(|n| *n == "cpu" || *n == "cuda").is_some());
    }
}
