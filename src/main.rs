//! The `ssmcheck` binary: the command line over the shipped claims.

fn main() -> std::process::ExitCode {
    ssmcheck::cli::main_with(ssmcheck::claims::registry())
}
