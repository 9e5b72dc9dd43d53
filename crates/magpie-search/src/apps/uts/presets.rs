//! Named sample trees of the UTS 2.1 distribution (`sample_trees.sh`), each about
//! four million nodes except `default`. Their sizes are checked in `tests/integration/uts.rs`.

use super::params::{GeoShape, TreeType, UtsParams};

/// The preset names accepted by [`UtsParams::preset`] and by parsing, with their
/// parameters.
pub const PRESETS: [(&str, UtsParams); 6] = [
    // -t 1 -a 0 -d 6 -b 4 -r 0: 1732 nodes.
    ("default", geometric(GeoShape::Linear, 6, 4.0, 0)),
    // -t 1 -a 3 -d 10 -b 4 -r 19: 4130071 nodes.
    ("T1", geometric(GeoShape::Fixed, 10, 4.0, 19)),
    // -t 1 -a 2 -d 16 -b 6 -r 502: 4117769 nodes.
    ("T2", geometric(GeoShape::Cyclic, 16, 6.0, 502)),
    // -t 0 -b 2000 -q 0.124875 -m 8 -r 42: 4112897 nodes.
    (
        "T3",
        UtsParams {
            tree_type: TreeType::Binomial,
            root_branching: 2000.0,
            nonleaf_probability: 0.124875,
            nonleaf_children: 8,
            root_seed: 42,
            ..geometric(GeoShape::Linear, 6, 4.0, 0)
        },
    ),
    // -t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4: 4132453 nodes.
    (
        "T4",
        UtsParams {
            tree_type: TreeType::Hybrid,
            ..geometric(GeoShape::Linear, 16, 6.0, 1)
        },
    ),
    // -t 1 -a 0 -d 20 -b 4 -r 34: 4147582 nodes.
    ("T5", geometric(GeoShape::Linear, 20, 4.0, 34)),
];

/// A geometric tree with the UTS defaults for the binomial parameters.
const fn geometric(shape: GeoShape, depth: u32, root_branching: f64, root_seed: i32) -> UtsParams {
    UtsParams {
        tree_type: TreeType::Geometric,
        shape,
        depth,
        root_branching,
        root_seed,
        nonleaf_probability: 15.0 / 64.0,
        nonleaf_children: 4,
    }
}

impl UtsParams {
    /// The preset called `name` (ignoring case), if any: see [`PRESETS`].
    pub fn preset(name: &str) -> Option<Self> {
        PRESETS
            .iter()
            .find(|(preset, _)| preset.eq_ignore_ascii_case(name))
            .map(|&(_, params)| params)
    }
}
