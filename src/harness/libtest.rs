//! A test runner that speaks libtest's command line and output, so a `harness = false` target
//! behaves under `cargo test` as a built-in one does: filters (`cargo test -- 004.cor1`),
//! `--exact`, `--skip`, `--list` (with `--format terse`, as IDEs ask), `--ignored`,
//! `--test-threads` (and `RUST_TEST_THREADS`), `-q`; `--nocapture`, `--show-output` and
//! `--color` are accepted. Tests run on a pool of threads and report as they finish, each line
//! ending with the test's time; a test that panics fails with the panic's message. Its own, so a
//! crate of conjectures needs no command-line parser (libtest-mimic brings clap).

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// One test: its name, its kind (shown in brackets before the name, as libtest-mimic does) and
/// what it runs (`Err` with the failure's message when it fails).
pub struct Test {
    /// The test's name, which filters match.
    pub name: String,
    /// A tag shown before the name (the claim's family); empty for none.
    pub kind: String,
    /// The test itself.
    pub run: Box<dyn FnOnce() -> Result<(), String> + Send>,
}

/// libtest's arguments that this runner honours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arguments {
    /// Positional filters: a test runs when its name contains one (equals one, with `exact`).
    pub filters: Vec<String>,
    /// `--skip`: names containing (equal to, with `exact`) one of these do not run.
    pub skip: Vec<String>,
    /// `--exact`: filters match whole names.
    pub exact: bool,
    /// `--list`: list the tests instead of running them.
    pub list: bool,
    /// `--format terse` or `-q`: one character per test.
    pub terse: bool,
    /// `--ignored`: run only ignored tests (there are none).
    pub ignored: bool,
    /// `--test-threads N` (or `RUST_TEST_THREADS`); `None`: the machine's parallelism.
    pub threads: Option<usize>,
}

impl Arguments {
    /// Parses libtest's arguments (without the program name); an unknown flag or a bad value is
    /// an error line.
    pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Arguments, String> {
        let mut a = Arguments::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| inline.clone().or_else(|| args.next()).ok_or_else(|| format!("the test harness's {name} needs a value"));
            match flag.as_str() {
                "--exact" => a.exact = true,
                "--list" => a.list = true,
                "--ignored" => a.ignored = true,
                "-q" | "--quiet" => a.terse = true,
                "--include-ignored" | "--nocapture" | "--show-output" | "--bench" | "--test" => {}
                "--skip" => a.skip.push(value("--skip")?),
                "--format" => match value("--format")?.as_str() {
                    "terse" => a.terse = true,
                    "pretty" => a.terse = false,
                    other => return Err(format!("the test harness writes --format pretty or terse, not '{other}'")),
                },
                "--color" => {
                    value("--color")?;
                }
                "-Z" => {
                    value("-Z")?;
                }
                "--test-threads" => a.threads = Some(threads(&value("--test-threads")?)?),
                f if f.starts_with('-') => return Err(format!("the test harness does not know the argument '{f}'")),
                _ => a.filters.push(arg),
            }
        }
        if a.threads.is_none() {
            a.threads = std::env::var("RUST_TEST_THREADS").ok().map(|v| threads(&v)).transpose()?;
        }
        Ok(a)
    }

    /// Whether the test `name` is selected by the filters and not skipped.
    pub fn selects(&self, name: &str) -> bool {
        let hit = |f: &String| if self.exact { name == f } else { name.contains(f.as_str()) };
        (self.filters.is_empty() || self.filters.iter().any(hit)) && !self.skip.iter().any(hit)
    }
}

fn threads(v: &str) -> Result<usize, String> {
    v.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| format!("the test thread count must be a positive integer, not '{v}'"))
}

/// What a run concluded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conclusion {
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed.
    pub failed: usize,
    /// Tests left out by the filters (or `--ignored`).
    pub filtered_out: usize,
}

impl Conclusion {
    /// Whether a test failed.
    pub fn has_failed(&self) -> bool {
        self.failed > 0
    }

    /// 101 (libtest's code) when a test failed, otherwise 0.
    pub fn exit_code(&self) -> std::process::ExitCode {
        if self.has_failed() {
            std::process::ExitCode::from(101)
        } else {
            std::process::ExitCode::SUCCESS
        }
    }
}

fn label(t: &Test) -> String {
    if t.kind.is_empty() {
        t.name.clone()
    } else {
        format!("[{}] {}", t.kind, t.name)
    }
}

/// Lists or runs `tests` as `args` say, printing libtest's output to stdout.
pub fn run(args: &Arguments, tests: Vec<Test>) -> Conclusion {
    let total = tests.len();
    let selected: Vec<Test> = tests.into_iter().filter(|t| !args.ignored && args.selects(&t.name)).collect();
    let filtered_out = total - selected.len();
    if args.list {
        for t in &selected {
            println!("{}: test", label(t));
        }
        if !args.terse {
            println!("\n{} tests, 0 benchmarks", selected.len());
        }
        return Conclusion { filtered_out, ..Conclusion::default() };
    }
    let started = Instant::now();
    let n = selected.len();
    println!("\nrunning {n} test{}", if n == 1 { "" } else { "s" });
    let _ = std::io::stdout().flush();
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get())).min(n.max(1));
    let queue: Mutex<Vec<Option<Test>>> = Mutex::new(selected.into_iter().map(Some).collect());
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(String, Result<(), String>, f64)>();
    let mut failures: Vec<(String, String)> = vec![];
    let mut passed = 0;
    std::thread::scope(|s| {
        for _ in 0..threads {
            let (tx, queue, next) = (tx.clone(), &queue, &next);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = queue.lock().ok().and_then(|mut q| q.get_mut(i).and_then(Option::take)) else { break };
                let name = label(&test);
                let started = Instant::now();
                let result = catch_unwind(AssertUnwindSafe(test.run)).unwrap_or_else(|p| Err(panic_message(&*p)));
                if tx.send((name, result, started.elapsed().as_secs_f64())).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (done, (name, result, seconds)) in rx.iter().enumerate() {
            let ok = result.is_ok();
            if args.terse {
                print!("{}", if ok { '.' } else { 'F' });
                if (done + 1) % 88 == 0 {
                    println!(" {}/{n}", done + 1);
                }
            } else {
                println!("test {name} ... {} ({seconds:.2} s)", if ok { "ok" } else { "FAILED" });
            }
            let _ = std::io::stdout().flush();
            match result {
                Ok(()) => passed += 1,
                Err(why) => failures.push((name, why)),
            }
        }
    });
    if args.terse {
        println!();
    }
    if !failures.is_empty() {
        println!("\nfailures:\n");
        for (name, why) in &failures {
            println!("---- {name} ----\n{why}\n");
        }
        println!("\nfailures:");
        for (name, _) in &failures {
            println!("    {name}");
        }
    }
    let conclusion = Conclusion { passed, failed: failures.len(), filtered_out };
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out; finished in {:.2}s\n",
        if conclusion.has_failed() { "FAILED" } else { "ok" },
        conclusion.passed,
        conclusion.failed,
        conclusion.filtered_out,
        started.elapsed().as_secs_f64()
    );
    conclusion
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    let what =
        p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic without a message".into());
    format!("test panicked: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Arguments, String> {
        Arguments::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn libtests_arguments_parse_and_bad_ones_are_one_error() {
        let a = parse(&["004.cor1", "--exact", "--skip", "x", "--test-threads=3", "--format", "terse", "--nocapture", "--color", "never"]).unwrap();
        assert_eq!(
            a,
            Arguments { filters: vec!["004.cor1".into()], skip: vec!["x".into()], exact: true, list: false, terse: true, ignored: false, threads: Some(3) }
        );
        assert!(parse(&["--list"]).unwrap().list);
        assert!(parse(&["--frobnicate"]).unwrap_err().contains("--frobnicate"));
        assert!(parse(&["--test-threads", "0"]).unwrap_err().contains("positive"));
        assert!(parse(&["--skip"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["--format", "json"]).unwrap_err().contains("json"));
    }

    #[test]
    fn filters_select_by_substring_or_whole_name_and_skip_wins() {
        let a = parse(&["cor1"]).unwrap();
        assert!(a.selects("004.cor1.printed") && !a.selects("004.eq10"));
        let a = parse(&["--exact", "004.cor1"]).unwrap();
        assert!(!a.selects("004.cor1.printed") && a.selects("004.cor1"));
        let a = parse(&["004", "--skip", "printed"]).unwrap();
        assert!(a.selects("004.eq10") && !a.selects("004.cor1.printed"));
        assert!(parse(&[]).unwrap().selects("anything"));
    }

    #[test]
    fn a_run_counts_passes_failures_panics_and_filtered_tests() {
        let test = |name: &str, r: Result<(), String>| Test { name: name.into(), kind: "k".into(), run: Box::new(move || r) };
        let tests = vec![
            test("a.pass", Ok(())),
            test("a.fail", Err("wrong verdict".into())),
            Test { name: "a.panic".into(), kind: String::new(), run: Box::new(|| panic!("boom")) },
            test("b.left_out", Ok(())),
        ];
        let c = run(&parse(&["a.", "--test-threads", "2"]).unwrap(), tests);
        assert_eq!(c, Conclusion { passed: 1, failed: 2, filtered_out: 1 });
        assert!(c.has_failed());
        assert_eq!(panic_message(&*std::panic::catch_unwind(|| panic!("boom")).unwrap_err()), "test panicked: boom");
        let listed = run(&parse(&["--list"]).unwrap(), vec![test("x", Err("not run".into()))]);
        assert_eq!(listed, Conclusion::default());
    }
}
