//! 000's Keep n-th tables as printed (n = 5, |V| = 128): App. D.2's Tables A.1–A.4, the accuracy
//! at every (d, N, T) and the parameter counts of the four one-layer models. One copy of the data
//! for the claims that read it: Table 1 against the appendix (`claims::haar`'s printed data) and
//! the Discussion against the sweep (`claims::training`'s).

use serde::{Deserialize, Serialize};

/// A model of Tables A.1–A.4 (simplified: embedding, one SSM layer, linear read-out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Model {
    /// "Mamba (+PE)" (Tables A.1, A.2).
    MambaPe,
    /// "S4D (+PE)" (Tables A.1, A.2).
    S4dPe,
    /// "Mamba" without PE (Tables A.3, A.4).
    Mamba,
    /// "S4D" without PE (Tables A.3, A.4).
    S4d,
}

/// The embedding sizes d and state sizes N of the tables' rows.
pub const SIZES: [u32; 3] = [8, 32, 64];
/// The sequence lengths T of the tables' columns.
pub const LENGTHS: [u32; 5] = [10, 20, 30, 40, 50];

/// One model's printed rows: accuracy at each T (two decimals) and the parameter count in
/// thousands (one decimal), indexed by d, then N, as [`SIZES`].
pub struct Printed {
    /// Accuracy, `[d][N][T]`.
    pub accuracy: [[[f64; 5]; 3]; 3],
    /// "# prm." in thousands, `[d][N]` (the same at every T for the SSMs).
    pub params_k: [[f64; 3]; 3],
}

/// Tables A.1 (T = 10, 20) and A.2 (T = 30, 40, 50), Mamba (+PE).
pub const MAMBA_PE: Printed = Printed {
    accuracy: [
        [[1.00, 1.00, 0.94, 0.85, 0.22], [1.00, 1.00, 1.00, 0.58, 0.28], [1.00, 1.00, 1.00, 0.59, 0.98]],
        [[1.00, 1.00, 1.00, 1.00, 1.00], [1.00, 1.00, 1.00, 1.00, 1.00], [1.00, 1.00, 1.00, 1.00, 1.00]],
        [[0.99, 0.99, 1.00, 1.00, 0.99], [1.00, 1.00, 1.00, 1.00, 0.99], [1.00, 1.00, 1.00, 1.00, 0.98]],
    ],
    params_k: [[2.2, 2.8, 3.5], [9.2, 11.5, 14.5], [18.7, 23.3, 29.4]],
};

/// Tables A.1 and A.2, S4D (+PE).
pub const S4D_PE: Printed = Printed {
    accuracy: [
        [[0.99, 0.43, 0.14, 0.03, 0.03], [0.99, 0.46, 0.46, 0.15, 0.04], [0.99, 0.43, 0.43, 0.13, 0.04]],
        [[0.94, 0.72, 0.72, 0.09, 0.08], [0.93, 0.72, 0.72, 0.09, 0.09], [0.93, 0.73, 0.73, 0.09, 0.09]],
        [[0.79, 0.14, 0.14, 0.09, 0.09], [0.79, 0.14, 0.14, 0.10, 0.10], [0.79, 0.14, 0.14, 0.09, 0.09]],
    ],
    params_k: [[2.1, 2.5, 3.0], [8.7, 10.3, 12.4], [17.5, 20.6, 24.8]],
};

/// Tables A.3 (T = 10, 20) and A.4 (T = 30, 40, 50), Mamba without PE.
pub const MAMBA: Printed = Printed {
    accuracy: [
        [[0.20, 0.05, 0.04, 0.04, 0.03], [0.18, 0.05, 0.04, 0.04, 0.03], [0.17, 0.05, 0.04, 0.04, 0.03]],
        [[0.21, 0.10, 0.09, 0.09, 0.08], [0.25, 0.11, 0.09, 0.09, 0.08], [0.28, 0.11, 0.09, 0.09, 0.08]],
        [[0.19, 0.11, 0.09, 0.09, 0.09], [0.20, 0.11, 0.09, 0.09, 0.09], [0.21, 0.11, 0.09, 0.09, 0.09]],
    ],
    params_k: [[2.3, 2.9, 3.6], [9.3, 11.6, 14.7], [18.8, 23.4, 29.6]],
};

/// Tables A.3 and A.4, S4D without PE.
pub const S4D: Printed = Printed {
    accuracy: [
        [[0.08, 0.04, 0.03, 0.03, 0.03], [0.08, 0.04, 0.03, 0.03, 0.03], [0.08, 0.04, 0.03, 0.03, 0.03]],
        [[0.20, 0.10, 0.08, 0.09, 0.09], [0.20, 0.10, 0.08, 0.09, 0.09], [0.20, 0.10, 0.08, 0.09, 0.09]],
        [[0.20, 0.11, 0.09, 0.09, 0.09], [0.20, 0.11, 0.09, 0.09, 0.09], [0.20, 0.11, 0.09, 0.09, 0.09]],
    ],
    params_k: [[2.2, 2.6, 3.2], [8.8, 10.4, 12.5], [17.7, 20.8, 24.9]],
};

impl Model {
    /// The model's printed rows.
    pub fn printed(self) -> &'static Printed {
        match self {
            Model::MambaPe => &MAMBA_PE,
            Model::S4dPe => &S4D_PE,
            Model::Mamba => &MAMBA,
            Model::S4d => &S4D,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data as entered: the rows the sentences quote are where the text says (spot values
    /// typed from the tables).
    #[test]
    fn the_tables_are_entered_as_printed() {
        assert_eq!(MAMBA_PE.accuracy[0][0], [1.00, 1.00, 0.94, 0.85, 0.22]);
        assert_eq!(S4D_PE.accuracy[2][2][4], 0.09);
        assert_eq!((MAMBA.params_k[1][0], S4D.params_k[1][0]), (9.3, 8.8));
        assert_eq!((Model::S4d.printed().params_k[1][0], LENGTHS[4], SIZES[1]), (8.8, 50, 32));
    }
}
