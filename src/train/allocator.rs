//! How the training's memory churn is served. Every candle operation allocates its output, and a
//! training step of the suite's models allocates and frees thousands of buffers, many of them
//! over glibc's dynamic mmap threshold (128 KiB at first): each such buffer is mapped, zeroed by
//! the kernel page by page, and unmapped again. Measured on a two-layer Transformer step (T = 64,
//! batch 16; perf, Zen 4): a quarter of the time in the kernel's page faults and page clearing.
//! [`keep_freed_memory`] raises glibc's mmap and trim thresholds so that freed buffers are
//! reused from the heap (35% less time per step there, the same bits: allocation does not touch
//! values). It is called once per process when the first optimiser is built. The cost: the
//! process keeps up to its peak heap (1 GiB before it trims) until it exits.

use std::sync::Once;

/// Serves allocations up to 256 MiB from the heap and trims the heap only past 1 GiB of free
/// space (glibc's `mallopt` `M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`); once per process, and
/// nothing on other C libraries.
pub fn keep_freed_memory() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: mallopt only changes two thresholds of glibc's allocator; it takes the
        // allocator's own lock and is safe to call while other threads allocate.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        }
    });
}
