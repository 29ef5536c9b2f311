//! The random MQAR instances that 000 Theorems 2–4's constructions
//! ([`constructions::mqar`](crate::constructions::mqar)) are run on, and how a construction's
//! answers are judged ([`QueryMargin`]).

use crate::claim::{Comparison, Eval, Relation};
use crate::constructions::mqar::{correct_margin, Construction};
use crate::mc::{Stream, StreamKey};
use crate::tasks::mqar::{MqarInstance, MqarSpec, QueryPlacement};
use nalgebra::DVector;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A random MQAR instance, drawn from `seed` (so that proptest can shrink κ, |V| and T).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    /// κ.
    pub keys: usize,
    /// |V|.
    pub values: usize,
    /// Extra length beyond 4κ.
    pub extra: usize,
    /// Instance seed.
    pub seed: u64,
    /// Where the queries sit: separated by noise (eq 47's layout) or anywhere, so that a query can
    /// follow another key (the adjacent-key case of eq 64–66).
    #[serde(default)]
    pub placement: QueryPlacement,
}

impl Case {
    /// The MQAR instance (and a stream for any random codes).
    pub fn instance(&self) -> (MqarInstance, Stream) {
        let spec = MqarSpec { keys: self.keys, values: self.values, len: 4 * self.keys + self.extra, placement: self.placement };
        let mut s = Stream::new(StreamKey::new(self.seed, "mqar-case"), 0);
        let inst = spec.sample(&mut s).expect("valid spec");
        (inst, s)
    }
}

/// Small instances (2 ≤ κ ≤ `max_keys`, 2 ≤ |V| ≤ `max_values`), queries separated by noise.
pub(super) fn cases(max_keys: usize, max_values: usize) -> impl Strategy<Value = Case> {
    (2..=max_keys, 2..=max_values, 0usize..=24, any::<u64>()).prop_map(|(keys, values, extra, seed)| Case {
        keys,
        values,
        extra,
        seed,
        placement: QueryPlacement::Separated,
    })
}

/// The largest κ and |V| the constructions are run at.
pub const LARGE: (usize, usize) = (64, 1024);

/// Four draws in five as [`cases`] (κ ≤ `max_keys`, |V| ≤ `max_values`), one in five large: κ ≤ 64 and |V| ≤ 1024 with κ|V| ≤
/// `max_product` (the width of Theorem 4's one-hot block embedding). With `adjacent`, half of all
/// draws place the queries anywhere, so that some follow another key (eq 64–66).
pub(super) fn cases_to_large(max_keys: usize, max_values: usize, max_product: usize, adjacent: bool) -> impl Strategy<Value = Case> {
    let large = (2..=LARGE.0).prop_flat_map(move |keys| (Just(keys), 2..=LARGE.1.min(max_product / keys).max(2), 0usize..=24, any::<u64>()));
    let sizes = prop_oneof![4 => (2..=max_keys, 2..=max_values, 0usize..=24, any::<u64>()), 1 => large];
    let other = if adjacent { QueryPlacement::Anywhere } else { QueryPlacement::Separated };
    let placement = prop_oneof![Just(QueryPlacement::Separated), Just(other)];
    (sizes, placement).prop_map(|((keys, values, extra, seed), placement)| Case { keys, values, extra, seed, placement })
}

/// How [`QueryMargin::margin`] is computed.
pub const QUERY_MARGIN_FORMULA: &str =
    "(lhs − rhs)/scale − 1e−12 at the worst query (a tie counts as a wrong answer); scale = the closed-form peak logit, or 1";

/// The concrete content of an MQAR instance and its codes, for a counterexample: the tokens
/// (`{"Key": i}` / `{"Value": j}`), the target at each position (null off the queries) and each
/// code book as built ([`code_book_content`]; code i = row i).
pub fn instance_content(inst: &MqarInstance, codes: &[(&str, &[DVector<f64>])]) -> serde_json::Value {
    let mut out = serde_json::json!({ "tokens": inst.tokens, "targets": inst.targets, "len": inst.tokens.len() });
    for (name, book) in codes {
        out[*name] = code_book_content(book);
    }
    out
}

/// A code book as it was built: Rademacher codes (every entry ±1/√p, p the width) as their
/// signs ([`SignCodes`](crate::strategy::SignCodes): `{"width": p, "signs": ["+-+…", …]}`), any
/// other as its numbers.
pub fn code_book_content(book: &[DVector<f64>]) -> serde_json::Value {
    let width = book.first().map_or(0, |c| c.len());
    let signs = crate::strategy::SignCodes { width, signs: book.iter().map(|c| c.iter().map(|&x| if x > 0.0 { '+' } else { '-' }).collect()).collect() };
    if width > 0 && book.iter().all(|c| c.len() == width) && signs.entries().iter().flatten().eq(book.iter().flatten()) {
        serde_json::json!(signs)
    } else {
        serde_json::json!(book.iter().map(|c| c.iter().copied().collect::<Vec<f64>>()).collect::<Vec<_>>())
    }
}

/// A construction's answers judged as a relation: the worst query's margin.
pub trait QueryMargin {
    /// Smallest `(z_target − max_other)/scale` over the queries, less 1e−12 so that a tie (an
    /// ambiguous argmax) counts as a wrong answer; the sides are the target's logit and the
    /// largest other logit at that query.
    fn margin(&self, inst: &MqarInstance, scale: f64) -> Eval;
}

impl QueryMargin for Construction {
    fn margin(&self, inst: &MqarInstance, scale: f64) -> Eval {
        let worst = self.query_logits(inst).into_iter().map(|(z, v)| (correct_margin(&z, v), z, v)).min_by(|a, b| a.0.total_cmp(&b.0));
        match worst {
            Some((m, z, v)) => Eval::Compared(Comparison::custom(z[v], z[v] - m, Relation::AtLeast, m / scale - 1e-12, QUERY_MARGIN_FORMULA)),
            None => Eval::Margin(f64::INFINITY),
        }
    }
}
