//! Shrinking a property's counterexample: a searched instance's choices toward short dyadics,
//! then proptest's simplify/complicate on its value tree, keeping its class of refutation.

use super::{Judge, Tree};
use crate::claim::budget::Context;
use crate::claim::eval::Eval;
use crate::claim::instance::Instance;
use crate::claim::search::{self, rank, Found, Objective};
use proptest::strategy::ValueTree;

impl Judge {
    /// Shrinks a refuting instance. A random draw shrinks its own value tree (`drawn`); a
    /// searched instance first shrinks its choices toward short dyadics (clearing low bits of
    /// each of the first 64 words, at most 128 evaluations), then the value tree they rebuild with proptest's simplify/complicate. Returns the
    /// simplest refuting value, its evaluation and the number of shrink steps.
    pub(super) fn shrink(&self, ctx: &Context, found: Found, drawn: Option<Tree>) -> (Instance, Eval, u32) {
        let Found { mut value, mut choices, mut eval, .. } = found;
        let mut steps = 0u32;
        if let Some(tree) = drawn {
            return self.shrink_tree(ctx, tree, value, eval, 0);
        }
        let budget = 128u32;
        // The first 64 words (the leading parameters; later ones are proptest's to shrink).
        'words: for i in 0..search::word_count(&choices).min(64) {
            for bits in [32, 24, 16, 8] {
                if steps >= budget || ctx.out_of_time() {
                    break 'words;
                }
                let Some(c) = search::shorten(&choices, i, bits) else { continue };
                let Some(tree) = search::replay(&self.strategy, &c) else { continue };
                steps += 1;
                let v = tree.current();
                let e = self.evaluate(ctx, &v);
                if e.refutes() && rank(&e).0 <= rank(&eval).0 {
                    (value, choices, eval) = (v, c, e);
                    break;
                }
            }
        }
        match search::replay_to_shrink(&self.strategy, &choices) {
            Some(tree) => self.shrink_tree(ctx, tree, value, eval, steps),
            None => (value, eval, steps),
        }
    }

    /// Proptest's simplify/complicate on a refuting value tree, keeping refutations of the same
    /// class (a strict violation stays strict).
    fn shrink_tree(&self, ctx: &Context, mut tree: Tree, mut value: Instance, mut eval: Eval, steps: u32) -> (Instance, Eval, u32) {
        if !tree.simplify() {
            return (value, eval, steps);
        }
        let class = rank(&eval).0;
        let mut tree_steps = 0;
        while tree_steps < self.max_shrink_iters && !ctx.out_of_time() {
            tree_steps += 1;
            let candidate = tree.current();
            let e = self.evaluate(ctx, &candidate);
            if e.refutes() && rank(&e).0 <= class {
                (value, eval) = (candidate, e);
                if !tree.simplify() {
                    break;
                }
            } else if !tree.complicate() {
                break;
            }
        }
        (value, eval, steps + tree_steps)
    }
}
