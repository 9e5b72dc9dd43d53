//! How many children a node has, following `uts_numChildren` of UTS 2.1: drawn from
//! the node's random number by the tree type, then capped at 100 (except the root of
//! a binomial tree and balanced trees).

use std::f64::consts::PI;

use super::params::{GeoShape, TreeType, UtsParams};
use super::rng::{uniform, RngState};

/// The cap on the number of children (UTS `MAXNUMCHILDREN`).
pub const MAX_CHILDREN: u32 = 100;

/// Where a hybrid tree switches from geometric to binomial, as a fraction of `d`
/// (UTS `-f`, default 0.5).
const HYBRID_SHIFT: f64 = 0.5;

impl UtsParams {
    /// The number of children of the node with random state `state` at `height`.
    pub(super) fn child_count(&self, state: &RngState, height: u32) -> u32 {
        let u = uniform(state);
        match self.tree_type {
            // floor(b0) <= ceil(b0), the cap of a binomial root.
            TreeType::Binomial if height == 0 => saturating_count(self.root_branching),
            TreeType::Binomial => self.binomial(u).min(MAX_CHILDREN),
            TreeType::Geometric => self.geometric(u, height).min(MAX_CHILDREN),
            TreeType::Hybrid if f64::from(height) < HYBRID_SHIFT * f64::from(self.depth) => {
                self.geometric(u, height).min(MAX_CHILDREN)
            }
            TreeType::Hybrid => self.binomial(u).min(MAX_CHILDREN),
            TreeType::Balanced if height < self.depth => saturating_count(self.root_branching),
            TreeType::Balanced => 0,
        }
    }

    /// `m` children with probability `q`, else none.
    fn binomial(&self, u: f64) -> u32 {
        if u < self.nonleaf_probability {
            self.nonleaf_children
        } else {
            0
        }
    }

    /// A geometric number of children whose mean is the shape's branching factor at
    /// `height`: `floor(ln(1 - u) / ln(1 - p))` with `p = 1 / (1 + b)`.
    fn geometric(&self, u: f64, height: u32) -> u32 {
        let b = self.geometric_mean(height);
        let p = 1.0 / (1.0 + b);
        saturating_count((1.0 - u).ln() / (1.0 - p).ln())
    }

    /// The mean branching factor of a geometric tree at `height`.
    fn geometric_mean(&self, height: u32) -> f64 {
        let b0 = self.root_branching;
        if height == 0 {
            return b0;
        }
        let (h, d) = (f64::from(height), f64::from(self.depth));
        match self.shape {
            GeoShape::Linear => b0 * (1.0 - h / d),
            GeoShape::ExpDec => b0 * h.powf(-b0.ln() / d.ln()),
            GeoShape::Cyclic if u64::from(height) > 5 * u64::from(self.depth) => 0.0,
            GeoShape::Cyclic => b0.powf((2.0 * PI * h / d).sin()),
            GeoShape::Fixed if height < self.depth => b0,
            GeoShape::Fixed => 0.0,
        }
    }
}

/// `floor(x)` as a count: negative and NaN give 0 (where UTS, converting to `int`,
/// gets a negative number and generates no children), huge values saturate.
fn saturating_count(x: f64) -> u32 {
    // `as` saturates and maps NaN to 0.
    x.floor() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_with_uniform(u: f64) -> RngState {
        let mut state = [0; 20];
        let bits = (u * 2_147_483_648.0) as u32;
        state[16..].copy_from_slice(&bits.to_be_bytes());
        state
    }

    #[test]
    fn linear_trees_stop_at_depth_d() {
        let params = UtsParams::default();
        for u in [0.0, 0.5, 0.999_999] {
            assert_eq!(params.child_count(&state_with_uniform(u), 6), 0);
        }
        // ln(0.5) / ln(1 - 1/5) = 3.1: three children at the root for u = 0.5.
        assert_eq!(params.child_count(&state_with_uniform(0.5), 0), 3);
    }

    #[test]
    fn geometric_counts_are_capped_and_binomial_roots_are_not() {
        let huge = UtsParams {
            root_branching: 10_000.0,
            ..UtsParams::default()
        };
        let nearly_one = state_with_uniform(0.999_999);
        assert_eq!(huge.child_count(&nearly_one, 0), MAX_CHILDREN);
        let binomial = UtsParams {
            tree_type: TreeType::Binomial,
            ..huge
        };
        assert_eq!(binomial.child_count(&nearly_one, 0), 10_000);
        assert_eq!(binomial.child_count(&state_with_uniform(0.0), 1), 4);
        assert_eq!(binomial.child_count(&state_with_uniform(0.5), 1), 0);
    }

    #[test]
    fn hybrid_trees_switch_at_half_the_depth() {
        let hybrid = UtsParams {
            tree_type: TreeType::Hybrid,
            nonleaf_probability: 1.0,
            nonleaf_children: 7,
            depth: 16,
            ..UtsParams::default()
        };
        let state = state_with_uniform(0.5);
        assert_ne!(hybrid.child_count(&state, 7), 7);
        assert_eq!(hybrid.child_count(&state, 8), 7);
    }

    #[test]
    fn balanced_trees_have_floor_b0_children_above_depth_d() {
        let balanced = UtsParams {
            tree_type: TreeType::Balanced,
            root_branching: 3.7,
            ..UtsParams::default()
        };
        let state = state_with_uniform(0.3);
        assert_eq!(balanced.child_count(&state, 5), 3);
        assert_eq!(balanced.child_count(&state, 6), 0);
    }
}
