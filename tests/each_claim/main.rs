//! Every shipped claim as its own test, at the quick budget (or `SSMCHECK_SEED` /
//! `SSMCHECK_BUDGET`): a theorem must hold with its negative control refuted at the same sample
//! size, an erratum must be refuted by the search. `cargo test --test each_claim -- 004.cor1`
//! runs the claims whose id contains `004.cor1`; the output ends with the verdict table. After a
//! run of every claim (the trained experiments may be skipped), the run as a whole is checked on
//! the same results ([`whole_run`]: the report, the errata recomputed from the JSON alone, their
//! certificates).

mod whole_run;

use ssmcheck::claim::Kind;
use std::collections::HashSet;

fn main() -> std::process::ExitCode {
    let claims = ssmcheck::claims::registry().into_claims();
    // The whole run is checked when every claim ran but, possibly, the trained experiments (CI's
    // second seed leaves them out: `--skip` each).
    let untrained: Vec<String> = claims.iter().filter(|c| c.meta.kind != Kind::Training).map(|c| c.meta.id.clone()).collect();
    let finished = ssmcheck::harness::run(claims);
    let ran: HashSet<&str> = finished.results.claims.iter().map(|c| c.meta.id.as_str()).collect();
    if finished.error.is_some() || !untrained.iter().all(|id| ran.contains(id.as_str())) {
        return finished.exit_code();
    }
    let claims_code = finished.exit_code();
    let whole = whole_run::run(finished.results);
    if whole.has_failed() {
        return whole.exit_code();
    }
    claims_code
}
