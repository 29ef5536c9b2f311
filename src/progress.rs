//! Progress of long runs, as an observer: the engine reports work expected and work done, and
//! the caller decides what to show (a terminal bar, nothing, a log). Nothing computed depends on
//! the observer.

use std::sync::OnceLock;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// Receives progress reports from Monte Carlo jobs and checks. Implementations must be cheap:
/// jobs call [`advance`](Progress::advance) once per path or per chunk of 1024 samples.
pub trait Progress: Sync {
    /// `n` more units of work are expected.
    fn expect(&self, n: u64);
    /// `n` units of work are done.
    fn advance(&self, n: u64);
}

/// Shows nothing (tests, JSON-only runs, non-terminals).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn expect(&self, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// A progress bar on the terminal's standard error, labelled with what is running; cleared when
/// dropped. Bars of checks running at the same time (claims run concurrently) stack, one line
/// each, in one [`MultiProgress`].
pub struct TerminalBar(ProgressBar);

/// The one set of bars of this process, so concurrent bars do not overwrite each other's line.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(MultiProgress::new)
}

impl TerminalBar {
    /// A bar labelled `label` (drawn only when standard error is a terminal).
    pub fn new(label: &str) -> Self {
        let bar = bars().add(ProgressBar::new(0).with_prefix(label.to_string()));
        bar.set_style(ProgressStyle::with_template("{prefix:>24} [{bar:30}] {pos}/{len} {elapsed}").expect("valid template").progress_chars("=> "));
        TerminalBar(bar)
    }
}

impl Progress for TerminalBar {
    fn expect(&self, n: u64) {
        self.0.inc_length(n);
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
}

impl Drop for TerminalBar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
        bars().remove(&self.0);
    }
}

/// The observer for one running check: a terminal bar when `show`, else [`Silent`].
pub fn observer(label: &str, show: bool) -> Box<dyn Progress> {
    if show {
        Box::new(TerminalBar::new(label))
    } else {
        Box::new(Silent)
    }
}
