//! Multi-query associative recall (Arora et al. 2024; 000 eq 46–47, App. D.3):
//! `[k_1 v_1 … k_κ v_κ | … k_{i_1} … k_{i_κ} …]` — κ key–value pairs (the κ keys of the key set,
//! in random order, i.e. drawn without replacement; values i.i.d. uniform on the |V| values), then
//! the keys queried once each in shuffled order at random positions of the query region, the
//! other positions filled with noise values. The target at a query is the value paired with that
//! key; loss and accuracy count query positions only.
//!
//! [`MqarInstance::to_zoology`] writes an instance in the token/label layout of the Zoology
//! generator (`zoology/data/multiquery_ar.py`), so the same data can be fed to other models.

use super::{permutation, uniform_index};
use crate::error::{Error, Result};
use crate::mc::Stream;
use serde::{Deserialize, Serialize};

/// A token of an MQAR sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Token {
    /// Key i ∈ 0..κ.
    Key(usize),
    /// Value j ∈ 0..|V| (values and noise share this vocabulary).
    Value(usize),
}

/// How the generator places the queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum QueryPlacement {
    /// Every query preceded by a noise value (the constructions' closed forms assume this).
    #[default]
    Separated,
    /// Anywhere in the query region, adjacent queries allowed.
    Anywhere,
    /// Anywhere, and the κ queried keys drawn with replacement, so that a key can be queried more
    /// than once (outside 000 eq 47, where the queries are the κ keys shuffled).
    Repeated,
}

/// MQAR sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MqarSpec {
    /// Keys κ (the key set has exactly κ keys).
    pub keys: usize,
    /// Values |V|.
    pub values: usize,
    /// Sequence length T.
    pub len: usize,
    /// Query placement.
    pub placement: QueryPlacement,
}

/// One MQAR sequence with its targets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MqarInstance {
    /// The sizes it was drawn with.
    pub spec: MqarSpec,
    /// The tokens x_1..x_T.
    pub tokens: Vec<Token>,
    /// `Some(value)` at query positions, `None` elsewhere.
    pub targets: Vec<Option<usize>>,
}

impl MqarSpec {
    /// Rejects κ = 0, |V| = 0 and sequences too short for the pairs and separated queries.
    pub fn validate(&self) -> Result<()> {
        let need = 2 * self.keys + if self.placement == QueryPlacement::Separated { 2 * self.keys } else { self.keys };
        if self.keys == 0 || self.values == 0 || self.len < need {
            return Err(Error::InvalidParameter(format!(
                "MQAR needs κ ≥ 1, |V| ≥ 1 and T ≥ {need} (κ = {}, |V| = {}, T = {})",
                self.keys, self.values, self.len
            )));
        }
        Ok(())
    }

    /// Draws an instance: the key order, the values, the query slots, the query order and the
    /// noise values, in that order, then [`MqarSpec::assemble`].
    pub fn sample(&self, s: &mut Stream) -> Result<MqarInstance> {
        self.validate()?;
        let (kappa, len) = (self.keys, self.len);
        let keys = permutation(s, kappa);
        let values: Vec<usize> = (0..kappa).map(|_| uniform_index(s, self.values)).collect();
        // Query slots in the region of length R = T − 2κ. Separated: slots are odd offsets of a
        // region viewed as (noise, query) pairs, i.e. choose κ of ⌊R/2⌋ pair slots.
        let region = len - 2 * kappa;
        let slots: Vec<usize> = match self.placement {
            QueryPlacement::Separated => {
                let mut pairs = permutation(s, region / 2);
                pairs.truncate(kappa);
                pairs.into_iter().map(|p| 2 * p + 1).collect()
            }
            QueryPlacement::Anywhere | QueryPlacement::Repeated => {
                let mut any = permutation(s, region);
                any.truncate(kappa);
                any
            }
        };
        let order = match self.placement {
            QueryPlacement::Repeated => (0..kappa).map(|_| uniform_index(s, kappa)).collect(),
            _ => permutation(s, kappa),
        };
        let noise: Vec<usize> = (0..region - kappa).map(|_| uniform_index(s, self.values)).collect();
        self.assemble(&keys, &values, &slots, &order, &noise)
    }

    /// The instance with these fields: `keys[i]` is the i-th pair's key and `values[i]` its
    /// value; the queries sit at `slots` (offsets into the region after the pairs, in order of
    /// `order`: the query at `slots[j]` asks for pair `order[j]`); `noise` fills the other
    /// region positions in order. Refuses fields that do not fit the spec (a key or value out
    /// of range, a slot outside the region or used twice, too little noise), so a strategy can
    /// build instances field by field.
    pub fn assemble(&self, keys: &[usize], values: &[usize], slots: &[usize], order: &[usize], noise: &[usize]) -> Result<MqarInstance> {
        self.validate()?;
        let (kappa, len) = (self.keys, self.len);
        let region = len - 2 * kappa;
        let bad = |what: &str| Err(Error::InvalidParameter(format!("MQAR fields do not fit the spec: {what}")));
        if keys.len() != kappa || values.len() != kappa || slots.len() != kappa || order.len() != kappa || noise.len() != region - kappa {
            return bad("wrong number of keys, values, slots, queries or noise values");
        }
        if keys.iter().any(|&k| k >= kappa) || values.iter().chain(noise).any(|&v| v >= self.values) || order.iter().any(|&i| i >= kappa) {
            return bad("a key, value or query index out of range");
        }
        let mut query_at = vec![None; region];
        for (&slot, &i) in slots.iter().zip(order) {
            if slot >= region || query_at[slot].is_some() || (self.placement == QueryPlacement::Separated && slot % 2 == 0) {
                return bad("a query slot outside the region, used twice, or (separated placement) not after a noise value");
            }
            query_at[slot] = Some(i);
        }
        let mut tokens = Vec::with_capacity(len);
        let mut targets = vec![None; len];
        for (&k, &v) in keys.iter().zip(values) {
            tokens.push(Token::Key(k));
            tokens.push(Token::Value(v));
        }
        let mut noise = noise.iter();
        for (offset, q) in query_at.into_iter().enumerate() {
            match q {
                Some(i) => {
                    targets[2 * kappa + offset] = Some(values[i]);
                    tokens.push(Token::Key(keys[i]));
                }
                None => tokens.push(Token::Value(*noise.next().expect("counted above"))),
            }
        }
        Ok(MqarInstance { spec: *self, tokens, targets })
    }
}

/// One sequence in the Zoology layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoologyExample {
    /// Token ids, length T.
    pub inputs: Vec<i64>,
    /// The target id at query positions, −100 (ignored by the loss) elsewhere.
    pub labels: Vec<i64>,
}

impl MqarInstance {
    /// The query positions.
    pub fn queries(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.targets.iter().enumerate().filter_map(|(t, v)| v.map(|v| (t, v)))
    }

    /// The instance in the token/label layout of Zoology's `multiquery_ar` with vocabulary
    /// size `vocab`: key i ↦ id 1 + i (Zoology's key ids are 1..vocab/2), value j ↦ vocab/2 + j
    /// (its value ids are vocab/2..vocab), noise values like values; `labels[t]` is the value id
    /// at a query position t and −100 elsewhere (Zoology's labels are the inputs shifted by one,
    /// so the label of a query sits at the query's own position, as here).
    pub fn to_zoology(&self, vocab: usize) -> Result<ZoologyExample> {
        let half = vocab / 2;
        if self.spec.keys >= half || self.spec.values > vocab - half {
            return Err(Error::InvalidParameter(format!(
                "a Zoology vocabulary of {vocab} holds κ ≤ {} keys and |V| ≤ {} values",
                half.saturating_sub(1),
                vocab - half
            )));
        }
        let id = |t: &Token| match *t {
            Token::Key(i) => (1 + i) as i64,
            Token::Value(j) => (half + j) as i64,
        };
        Ok(ZoologyExample {
            inputs: self.tokens.iter().map(id).collect(),
            labels: self.targets.iter().map(|v| v.map_or(-100, |j| (half + j) as i64)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::StreamKey;

    fn spec(placement: QueryPlacement) -> MqarSpec {
        MqarSpec { keys: 4, values: 16, len: 24, placement }
    }

    #[test]
    fn every_key_is_queried_once_with_its_value() {
        for (i, placement) in [QueryPlacement::Separated, QueryPlacement::Anywhere].into_iter().enumerate() {
            let mut s = Stream::new(StreamKey::new(1, "mqar"), i as u64);
            let inst = spec(placement).sample(&mut s).unwrap();
            assert_eq!(inst.tokens.len(), 24);
            let mut queried: Vec<usize> = vec![];
            for (t, v) in inst.queries() {
                let Token::Key(k) = inst.tokens[t] else { panic!("query at a value") };
                let pair = (0..4).find(|&p| inst.tokens[2 * p] == Token::Key(k)).unwrap();
                assert_eq!(inst.tokens[2 * pair + 1], Token::Value(v));
                assert!(t >= 8);
                if placement == QueryPlacement::Separated {
                    assert!(matches!(inst.tokens[t - 1], Token::Value(_)));
                }
                queried.push(k);
            }
            queried.sort_unstable();
            assert_eq!(queried, vec![0, 1, 2, 3]);
        }
        assert!(MqarSpec { len: 15, ..spec(QueryPlacement::Separated) }.validate().is_err());
    }

    #[test]
    fn repeated_queries_repeat_keys_with_their_values() {
        // κ = 4 draws with replacement: over a few instances some key is queried twice, and every
        // query's target is still its key's prefix value.
        let mut repeated = false;
        for i in 0..8 {
            let mut s = Stream::new(StreamKey::new(3, "mqar"), i);
            let inst = spec(QueryPlacement::Repeated).sample(&mut s).unwrap();
            let mut queried: Vec<usize> = vec![];
            for (t, v) in inst.queries() {
                let Token::Key(k) = inst.tokens[t] else { panic!("query at a value") };
                let pair = (0..4).find(|&p| inst.tokens[2 * p] == Token::Key(k)).unwrap();
                assert_eq!(inst.tokens[2 * pair + 1], Token::Value(v));
                queried.push(k);
            }
            assert_eq!(queried.len(), 4);
            queried.sort_unstable();
            queried.dedup();
            repeated |= queried.len() < 4;
        }
        assert!(repeated);
    }

    #[test]
    fn zoology_layout_marks_only_queries() {
        let mut s = Stream::new(StreamKey::new(2, "mqar"), 0);
        let inst = spec(QueryPlacement::Separated).sample(&mut s).unwrap();
        let z = inst.to_zoology(64).unwrap();
        assert_eq!(z.inputs.len(), 24);
        for (t, &l) in z.labels.iter().enumerate() {
            match inst.targets[t] {
                Some(v) => assert_eq!(l, 32 + v as i64),
                None => assert_eq!(l, -100),
            }
            assert!((1..64).contains(&z.inputs[t]));
        }
        // Keys in 1..32, values in 32..64, as Zoology lays them out.
        assert!(z.inputs[..8].iter().step_by(2).all(|&k| (1..32).contains(&k)));
        assert!(inst.to_zoology(8).is_err());
    }
}
