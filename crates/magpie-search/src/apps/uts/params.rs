//! [`UtsParams`]: the parameters of a UTS tree, named after the flags of the UTS 2.1
//! reference implementation (`-t -a -d -b -r -q -m`), with its defaults.

use std::fmt;

use super::error::UtsParamsError;

/// How the number of children is drawn (UTS `-t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TreeType {
    /// `-t 0`: the root has `floor(b0)` children, every other node `m` children with
    /// probability `q`, else none.
    Binomial,
    /// `-t 1`: geometric numbers of children whose mean follows the [`GeoShape`].
    Geometric,
    /// `-t 2`: geometric above depth `d / 2`, binomial from there down.
    Hybrid,
    /// `-t 3`: every node above depth `d` has `floor(b0)` children.
    Balanced,
}

/// How the mean branching factor of a geometric tree varies with depth (UTS `-a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GeoShape {
    /// `-a 0`: `b0 * (1 - h/d)`, reaching 0 at depth `d`.
    Linear,
    /// `-a 1`: `b0 * h^(-ln b0 / ln d)`, reaching 1 at depth `d`.
    ExpDec,
    /// `-a 2`: `b0^sin(2πh/d)`, and 0 beyond depth `5d`.
    Cyclic,
    /// `-a 3`: `b0` above depth `d`, 0 from there.
    Fixed,
}

/// The parameters of a UTS tree. The fields are public; values out of range give
/// well-defined (if odd) trees, and [`validate`](Self::validate) rejects them.
///
/// [`Default`] is the UTS default tree `-t 1 -a 0 -d 6 -b 4 -r 0` (with `-q 0.234375
/// -m 4`, unused by geometric trees). [`Display`](fmt::Display) writes the `key=value`
/// form that [`FromStr`](std::str::FromStr) reads back.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UtsParams {
    /// `-t`: the distribution of the number of children.
    pub tree_type: TreeType,
    /// `-a`: the shape of a geometric tree's branching factor.
    pub shape: GeoShape,
    /// `-d`: the depth parameter of geometric shapes, hybrid and balanced trees.
    pub depth: u32,
    /// `-b`: the root's branching factor `b0` (the mean of geometric shapes).
    pub root_branching: f64,
    /// `-r`: the seed of the root's random state.
    pub root_seed: i32,
    /// `-q`: the probability that a binomial node has children.
    pub nonleaf_probability: f64,
    /// `-m`: the number of children of a binomial node that has any.
    pub nonleaf_children: u32,
}

impl Default for UtsParams {
    fn default() -> Self {
        Self {
            tree_type: TreeType::Geometric,
            shape: GeoShape::Linear,
            depth: 6,
            root_branching: 4.0,
            root_seed: 0,
            nonleaf_probability: 15.0 / 64.0,
            nonleaf_children: 4,
        }
    }
}

impl UtsParams {
    /// Checks that `b0` is a finite number `>= 0`, `q` is within `[0, 1]`, and a
    /// geometric `expdec` tree with `b0 > 1` has `d >= 1`: with `d = 0` its exponent
    /// `-ln b0 / ln d` is 0, every level keeps the mean `b0`, and the tree is infinite
    /// (UTS itself would run for ever).
    ///
    /// A supercritical binomial tree (`q * m >= 1`) is allowed, as in UTS; it is
    /// infinite with positive probability only.
    pub fn validate(&self) -> Result<(), UtsParamsError> {
        if !(self.root_branching.is_finite() && self.root_branching >= 0.0) {
            return Err(UtsParamsError::BadBranchingFactor(self.root_branching));
        }
        if self.tree_type == TreeType::Geometric
            && self.shape == GeoShape::ExpDec
            && self.depth == 0
            && self.root_branching > 1.0
        {
            return Err(UtsParamsError::InfiniteExpDec(self.root_branching));
        }
        if !(0.0..=1.0).contains(&self.nonleaf_probability) {
            return Err(UtsParamsError::BadProbability(self.nonleaf_probability));
        }
        Ok(())
    }
}

impl TreeType {
    /// The tree type of UTS code `-t code`.
    pub fn from_code(code: u32) -> Option<Self> {
        [
            Self::Binomial,
            Self::Geometric,
            Self::Hybrid,
            Self::Balanced,
        ]
        .get(usize::try_from(code).ok()?)
        .copied()
    }

    /// The UTS `-t` code.
    pub fn code(self) -> u32 {
        self as u32
    }
}

impl GeoShape {
    /// The shape of UTS code `-a code`.
    pub fn from_code(code: u32) -> Option<Self> {
        [Self::Linear, Self::ExpDec, Self::Cyclic, Self::Fixed]
            .get(usize::try_from(code).ok()?)
            .copied()
    }

    /// The UTS `-a` code.
    pub fn code(self) -> u32 {
        self as u32
    }
}

impl fmt::Display for UtsParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "t={},a={},d={},b={},r={},q={},m={}",
            self.tree_type.code(),
            self.shape.code(),
            self.depth,
            self.root_branching,
            self.root_seed,
            self.nonleaf_probability,
            self.nonleaf_children
        )
    }
}
