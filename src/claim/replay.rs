//! Replaying one instance through a check: how a reader re-evaluates a counterexample from the
//! results JSON, or a candidate instance of their own, and sees both sides of the relation.

use super::comparison::Violation;
use super::rate::RateCell;
use super::statistical::{judge_cell, TailCell, TailCellReport};
use crate::error::{Error, Result};
use serde_json::Value;

/// What re-evaluating one instance gave.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Replay {
    /// The relation with both sides (a negative margin: the instance violates the claim).
    Evaluated(Violation),
    /// The instance does not meet the claim's assumptions.
    Rejected(&'static str),
}

/// The instance to replay from a JSON document: a results JSON (`{"claims": [...]}`) gives the
/// counterexample of claim `id` (or of its negative control); anything else is the instance.
pub fn instance_in(json: &Value, id: &str, control: bool) -> Result<Value> {
    let Some(claims) = json.get("claims").and_then(Value::as_array) else {
        return Ok(json.clone());
    };
    let claim = claims
        .iter()
        .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
        .ok_or_else(|| Error::InvalidParameter(format!("the results JSON has no claim '{id}'")))?;
    let holder = if control { claim.get("control").filter(|c| !c.is_null()) } else { Some(claim) };
    let what = if control { "negative control" } else { "claim" };
    holder
        .and_then(|h| h.get("counterexample"))
        .filter(|c| !c.is_null())
        .cloned()
        .ok_or_else(|| Error::InvalidParameter(format!("the {what} '{id}' has no counterexample in these results (it was not refuted)")))
}

/// Re-judges a statistical or rate cell from its recorded numbers: a Clopper–Pearson interval
/// recomputed from the counts at the recorded confidence, or a rate cell's interval against its
/// prediction. `None` when the JSON is neither.
pub fn rejudge_cell(instance: &Value) -> Option<Violation> {
    if let Ok(report) = serde_json::from_value::<TailCellReport>(instance.clone()) {
        return Some(judge_cell(report.cell, report.interval.confidence).violation());
    }
    if let Ok(cell) = serde_json::from_value::<TailCell>(instance.clone()) {
        let confidence = instance.get("confidence").and_then(Value::as_f64).unwrap_or(0.95);
        return Some(judge_cell(cell, confidence).violation());
    }
    if let Ok(cell) = serde_json::from_value::<RateCell>(instance.clone()) {
        return Some(cell.violation());
    }
    None
}

/// The error for a check that cannot re-evaluate a lone instance.
pub fn not_replayable(why: &str) -> Error {
    Error::InvalidParameter(format!("this check cannot replay a single instance: {why}"))
}

/// Re-evaluates an instance through `claim`'s check, or its negative control, as `ssmcheck
/// replay` does: `doc` is a results JSON (the counterexample is taken from it, with the run's
/// seed and budget, by which a property's trial streams are keyed) or an instance of one's own
/// (replayed at seed 1, quick).
pub fn replay_document(claim: &super::Claim, doc: &Value, control: bool) -> Result<Replay> {
    let id = claim.meta.id.as_str();
    let check = if control {
        claim.control.as_ref().ok_or_else(|| Error::InvalidParameter(format!("claim '{id}' has no negative control")))?.check.as_ref()
    } else {
        claim.check.as_ref()
    };
    let instance = instance_in(doc, id, control)?;
    let seed = doc.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let budget = doc.get("budget").and_then(|b| serde_json::from_value(b.clone()).ok()).unwrap_or(super::Budget::Quick);
    let bar = crate::progress::Silent;
    check.replay(&instance, &super::Context::new(seed, budget, &crate::mc::CpuBackend, id, &bar))
}
