//! The crate's error type: errors are values, never panics in library code.

use std::path::PathBuf;

/// Everything that can go wrong in ssmcheck, each with a one-line message for the CLI.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A claim id that is not registered.
    #[error("unknown claim id '{0}' (run `ssmcheck list` to see the registered ids)")]
    UnknownClaim(String),
    /// A family name that does not exist.
    #[error("unknown family '{0}' (expected one of: {1})")]
    UnknownFamily(String, String),
    /// A parameter outside its domain (negative length, NaN, empty set...).
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// A backend that cannot run here.
    #[error("backend '{0}' is not available: {1}")]
    BackendUnavailable(String, String),
    /// A file or directory that could not be written or read.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was attempted ("write", "create directory", "read").
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Shard parts that do not make one run (missing, duplicated or mismatched).
    #[error("cannot merge: {0}")]
    Merge(String),
    /// A tensor operation of a training run failed (candle's message, with the operation named).
    #[error("training ({what}): {message}")]
    Training {
        /// What was being done ("training", "reading the weights", …).
        what: String,
        /// candle's message.
        message: String,
    },
    /// Malformed results JSON.
    #[error("malformed results JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
