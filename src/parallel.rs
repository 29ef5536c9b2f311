//! Where the suite's own code runs on several threads, it says so.
//!
//! Every parallel section a claim can reach (the Monte Carlo jobs, the selective scan's channel
//! groups, the realization family's path loops, `lambda_top`'s replicas) calls [`enter`] on the
//! thread that starts it. The test harness reads the count before and after a claim: a claim
//! that ran parallel code is run again on one thread, and its results must be the same bytes
//! (same seed, same results, whatever the thread count). A test below keeps the list honest:
//! every source file that starts a rayon parallel iterator also calls [`enter`].

use std::cell::Cell;

thread_local! {
    static SECTIONS: Cell<u64> = const { Cell::new(0) };
}

/// Marks the start of a parallel section on the current thread.
pub fn enter() {
    SECTIONS.with(|s| s.set(s.get() + 1));
}

/// How many parallel sections the current thread has started.
pub fn sections() -> u64 {
    SECTIONS.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn sections_count_per_thread() {
        let before = sections();
        enter();
        assert_eq!(sections(), before + 1);
        assert_eq!(std::thread::spawn(sections).join().unwrap(), 0);
    }

    /// Files that run claims, shards or benchmarks concurrently (whole claims per task, not
    /// parallel code inside one claim).
    const ACROSS_CLAIMS: [&str; 3] = ["src/claim/runner.rs", "src/shard/run.rs", "src/bench/"];

    fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_parallel_iterator_in_a_claims_reach_is_marked() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![];
        sources(&root.join("src"), &mut files);
        let parallel = ["par_iter(", "into_par_iter(", "par_chunks", "par_bridge(", "rayon::join(", "rayon::scope("];
        let mut unmarked = vec![];
        for file in files {
            let rel = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "src/parallel.rs" || ACROSS_CLAIMS.iter().any(|a| rel.starts_with(a)) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            if parallel.iter().any(|p| text.contains(p)) && !text.contains("parallel::enter()") {
                unmarked.push(rel);
            }
        }
        assert!(unmarked.is_empty(), "parallel code without crate::parallel::enter(): {unmarked:?}");
    }
}
