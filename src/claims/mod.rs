//! The claim families. Each module registers its claims; `register_all` lists the families.

use crate::claim::Registry;

pub mod copy;
pub mod cot;
pub mod decay;
pub mod haar;
pub mod realization;
pub mod recall;
pub mod stability;

/// The source line of seed 004.
pub const PAPER_004: &str = "004 Rethinking the long-range dependency in Mamba/SSM and transformer models (Ma, Najarian)";
/// The source line of seed 000.
pub const PAPER_000: &str = "000 Understanding Input Selectivity in Mamba (Huang et al., ICML 2025)";

/// The source line of seed 002.
pub const PAPER_002: &str = "002 How does Mamba Perform Associative Recall? A Mechanistic Study (Le Corre, Huang, Bietti)";

/// The source line of seed 003.
pub const PAPER_003: &str = "003 Can Mamba Always Enjoy the \"Free Lunch\"? (Ren, Li, Liu)";

/// The source line of seed 001.
pub const PAPER_001: &str = "001 B'MOJO: Hybrid State Space Realizations of Foundation Models with Eidetic and Fading Memory (Zancato et al.)";

/// Every shipped claim of every family, in report order.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    register_all(&mut r);
    r
}

/// Registers every claim of every family.
pub fn register_all(r: &mut Registry) {
    decay::register(r);
    stability::register(r);
    haar::register(r);
    recall::register(r);
    copy::register(r);
    cot::register(r);
    realization::register(r);
}
