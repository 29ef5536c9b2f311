//! How the training's memory churn is served. Every candle operation allocates its output, and a
//! training step of the suite's models allocates and frees thousands of buffers, many of them
//! over glibc's dynamic mmap threshold (128 KiB at first): each such buffer is mapped, zeroed by
//! the kernel page by page, and unmapped again. Measured on a two-layer Transformer step (T = 64,
//! batch 16; perf, Zen 4): a quarter of the time in the kernel's page faults and page clearing.
//! [`keep_freed_memory`] raises glibc's mmap and trim thresholds so that freed buffers are
//! reused from the heap (35% less time per step there, the same bits: allocation does not touch
//! values). It is called once per process when the first optimiser is built.
//!
//! The cost is memory kept: a thread's arena (glibc gives threads arenas of their own, up to eight
//! per core, each a chain of 64 MiB heaps) never shrinks under a 1 GiB trim threshold, so the
//! process keeps each arena's peak until it exits. Every shared training run starts a pool of
//! threads of its own ([`crate::claims`]' `shared`), so over a long run the arenas multiply:
//! `003.fig2.trained` at the deep budget held 117 heaps of 64 MiB, 8.2–8.7 GB resident, and
//! growing (AMD EPYC family 25 model 17, 2026-12-06). So the arenas are also capped at one per
//! core, from the start of the process ([`cap_arenas`]): `003.fig2.left` at quick seed 22 then
//! peaks at 0.72 GB resident instead of 1.29 GB (`/usr/bin/time -v`, 2 cores, another run
//! beside it), with 3 s of system time instead of 11 s and the same results JSON.

use std::sync::Once;

/// Serves allocations up to 256 MiB from the heap and trims the heap only past 1 GiB of free
/// space (`mallopt`'s `M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`), with the arenas capped
/// ([`cap_arenas`]); once per process, and nothing on other C libraries.
pub fn keep_freed_memory() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        cap_arenas();
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: mallopt only changes two thresholds of glibc's allocator; it takes the
        // allocator's own lock and is safe to call while other threads allocate.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        }
    });
}

/// Caps glibc's arenas at one per core (`mallopt`'s `M_ARENA_MAX`); once per process, and
/// nothing on other C libraries. glibc applies the cap when it would make another arena and
/// keeps those made before it, so a process that trains calls this first thing: the command
/// line, the test harness and the Python module (at import) do (by the first optimiser, a claim's parallel loops have
/// already made their arenas: called only there, the cap changed nothing).
pub fn cap_arenas() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            // SAFETY: as above; M_ARENA_MAX only bounds how many arenas glibc makes.
            unsafe {
                libc::mallopt(libc::M_ARENA_MAX, libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX));
            }
        }
    });
}
