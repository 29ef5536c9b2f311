//! Every shipped claim as its own test, at the quick budget (or `SSMCHECK_SEED` /
//! `SSMCHECK_BUDGET`): a theorem must hold with its negative control refuted at the same sample
//! size, an erratum must be refuted by the search. `cargo test --test each_claim -- 004.cor1`
//! runs the claims whose id contains `004.cor1`; the output ends with the verdict table.

fn main() -> std::process::ExitCode {
    ssmcheck::harness::main(ssmcheck::claims::registry().into_claims())
}
