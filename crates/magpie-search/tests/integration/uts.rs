//! UTS: the published sizes of the sample trees under every coordination, the
//! skeleton against the hand-written reference, and the parameter parser.

use crate::common;

use magpie_search::apps::uts::{
    reference, uts_count, GeoShape, TreeSummary, TreeType, Uts, UtsNode, UtsParams, UtsParamsError,
    PRESETS,
};
use magpie_search::{SearchConfig, SearchSpace};

/// The published (nodes, leaves, depth) of each preset (UTS 2.1 `sample_trees.sh`).
const KNOWN: [(&str, TreeSummary); 6] = [
    ("default", summary(1732, 1050, 6)),
    ("T1", summary(4_130_071, 3_305_118, 10)),
    ("T2", summary(4_117_769, 2_342_762, 81)),
    ("T3", summary(4_112_897, 3_599_034, 1572)),
    ("T4", summary(4_132_453, 3_108_986, 134)),
    ("T5", summary(4_147_582, 2_181_318, 20)),
];

const fn summary(nodes: u64, leaves: u64, max_depth: u64) -> TreeSummary {
    TreeSummary {
        nodes,
        leaves,
        max_depth,
    }
}

fn preset(name: &str) -> (UtsParams, TreeSummary) {
    let params = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
    let (_, expected) = KNOWN
        .iter()
        .find(|(known, _)| *known == name)
        .unwrap_or_else(|| panic!("no known answer for {name}"));
    (params, *expected)
}

/// Checks the tree of `params` under every coordination in a pool of `threads`;
/// each run must also count one node expansion per tree node.
fn check_every_coordination(what: &str, params: &UtsParams, expected: TreeSummary, threads: usize) {
    let pool = common::pool(threads);
    for (name, config) in common::every_coordination(&pool) {
        let outcome = uts_count(params, &config);
        assert_eq!(outcome.answer, expected, "{what}, {name}");
        assert_eq!(
            outcome.stats.nodes_expanded, expected.nodes,
            "{what}, {name}"
        );
    }
}

#[test]
fn default_tree_under_every_coordination() {
    let (params, expected) = preset("default");
    assert_eq!(params, UtsParams::default());
    check_every_coordination("default", &params, expected, 1);
    check_every_coordination("default", &params, expected, 2);
    assert_eq!(reference::summarise(&params), expected);
}

#[test]
fn t1_under_every_coordination_with_two_threads() {
    let (params, expected) = preset("T1");
    check_every_coordination("T1", &params, expected, 2);
}

#[test]
fn t1_with_one_thread_and_the_reference() {
    let (params, expected) = preset("T1");
    let pool = common::pool(1);
    for config in [SearchConfig::stack_stealing(false), SearchConfig::budget(1)] {
        let config = config.in_pool(&pool);
        let outcome = uts_count(&params, &config);
        assert_eq!(outcome.answer, expected, "{:?}", config.coordination);
    }
    assert_eq!(reference::summarise(&params), expected);
}

/// T3 is 1572 levels deep: no thread's stack may overflow, in or out of the pool.
#[test]
fn deep_binomial_t3_under_every_coordination() {
    let (params, expected) = preset("T3");
    check_every_coordination("T3", &params, expected, 2);
}

#[test]
fn cyclic_hybrid_and_linear_presets_sequentially() {
    for name in ["T2", "T4", "T5"] {
        let (params, expected) = preset(name);
        let outcome = uts_count(&params, &SearchConfig::sequential());
        assert_eq!(outcome.answer, expected, "{name}");
    }
}

#[test]
fn every_preset_has_a_known_answer() {
    let names: Vec<&str> = PRESETS.iter().map(|(name, _)| *name).collect();
    let known: Vec<&str> = KNOWN.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, known);
}

#[test]
fn expdec_trees_match_the_reference() {
    for text in ["t=1,a=1,d=10,b=4,r=1", "t=1,a=1,d=14,b=5,r=1"] {
        let params: UtsParams = text.parse().expect("valid");
        assert_eq!(params.shape, GeoShape::ExpDec);
        let expected = reference::summarise(&params);
        assert!(expected.nodes > 1000, "{text}: a non-trivial tree");
        check_every_coordination(text, &params, expected, 2);
        let one = common::pool(1);
        let config = SearchConfig::budget(100).in_pool(&one);
        assert_eq!(uts_count(&params, &config).answer, expected, "{text}");
    }
}

#[test]
fn balanced_trees_are_complete() {
    // floor(3.5) = 3 children per node above depth 5: 1 + 3 + ... + 3^5 nodes.
    let params: UtsParams = "t=3,b=3.5,d=5".parse().expect("valid");
    let expected = summary(364, 243, 5);
    assert_eq!(reference::summarise(&params), expected);
    check_every_coordination("balanced", &params, expected, 2);
}

#[test]
fn children_are_the_nodes_hashed_from_their_index() {
    let params = UtsParams::default();
    let space = Uts::new(params);
    let root = space.root();
    assert_eq!(root, UtsNode::root(&params));
    let children = space.children(&root);
    assert_eq!(children.len(), root.child_count() as usize);
    for (index, child) in (0..).zip(children) {
        assert_eq!(child, root.child(&params, index));
        assert_eq!(child.height(), 1);
    }
}

#[test]
fn parameters_parse_from_presets_and_key_value_lists() {
    let t1: UtsParams = "t=1,a=3,d=10,b=4,r=19".parse().expect("valid");
    assert_eq!(t1, "T1".parse().expect("a preset"));
    assert_eq!(t1, " t1 ".parse().expect("case and spaces are ignored"));
    assert_eq!(t1.tree_type, TreeType::Geometric);
    assert_eq!(t1.shape, GeoShape::Fixed);
    let t3: UtsParams = "t=0, b=2000, q=0.124875, m=8, r=42,"
        .parse()
        .expect("valid");
    assert_eq!(t3, UtsParams::preset("T3").expect("a preset"));
    let t4: UtsParams = "t=2,a=0,d=16,b=6,r=1,q=0.234375,m=4"
        .parse()
        .expect("valid");
    assert_eq!(t4, UtsParams::preset("t4").expect("a preset"));
    // Supercritical binomial trees are allowed, as in UTS.
    assert!("t=0,q=0.5,m=4".parse::<UtsParams>().is_ok());
    assert!("r=-7".parse::<UtsParams>().is_ok());
}

#[test]
fn parameters_display_as_text_that_parses_back() {
    for (name, params) in PRESETS {
        let text = params.to_string();
        assert_eq!(text.parse::<UtsParams>(), Ok(params), "{name}: {text}");
    }
}

#[test]
fn invalid_parameters_are_typed_errors() {
    use UtsParamsError::*;
    let cases = [
        ("", Empty),
        ("  ", Empty),
        ("T9", UnknownPreset("T9".into())),
        ("x=1", UnknownKey("x".into())),
        ("t=1,z=2", UnknownKey("z".into())),
        ("b=", MissingValue("b".into())),
        ("d=3,b", MissingValue("b".into())),
        ("d=3,d=4", RepeatedKey("d".into())),
        (
            "d=-1",
            BadNumber {
                key: "d".into(),
                value: "-1".into(),
            },
        ),
        (
            "b=four",
            BadNumber {
                key: "b".into(),
                value: "four".into(),
            },
        ),
        (
            "m=2.5",
            BadNumber {
                key: "m".into(),
                value: "2.5".into(),
            },
        ),
        ("t=4", UnknownTreeType(4)),
        ("a=7", UnknownShape(7)),
        ("b=-1", BadBranchingFactor(-1.0)),
        ("b=inf", BadBranchingFactor(f64::INFINITY)),
        ("q=1.5", BadProbability(1.5)),
        ("q=-0.1", BadProbability(-0.1)),
        ("t=1,a=1,d=0,b=2", InfiniteExpDec(2.0)),
    ];
    for (text, expected) in cases {
        let error = text.parse::<UtsParams>().expect_err(text);
        assert_eq!(error, expected, "{text:?}");
        let message = error.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    // Finite expdec trees at the edge: d=1, or d=0 with b <= 1.
    for text in ["t=1,a=1,d=1,b=2", "t=1,a=1,d=0,b=1", "t=1,a=1,d=0,b=0.5"] {
        assert!(text.parse::<UtsParams>().is_ok(), "{text}");
    }
    // NaN is never equal to itself, so match instead.
    assert!(matches!(
        "b=NaN".parse::<UtsParams>(),
        Err(BadBranchingFactor(b)) if b.is_nan()
    ));
    assert!(matches!(
        "q=nan".parse::<UtsParams>(),
        Err(BadProbability(q)) if q.is_nan()
    ));
}
