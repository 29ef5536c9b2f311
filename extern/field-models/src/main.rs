//! The whole ssmcheck command line over this crate's statements: `field-models check`,
//! `report`, `replay`, `explain`, `list`.

fn main() -> std::process::ExitCode {
    ssmcheck::cli::main_with(ssmcheck_field_models::registry())
}
