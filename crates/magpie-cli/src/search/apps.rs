//! Each application's flags and runner: read the input, search, build the [`Report`].

use std::path::PathBuf;

use clap::Args;
use magpie_search::apps::{clique, knapsack, semigroups, tsp, uts};
use magpie_search::SearchConfig;
use serde_json::json;

use super::engine::Engine;
use super::report::Report;
use super::{SearchError, SearchOptions};

/// A runner's result: the report, or `None` on a rank that does not report.
pub type Reported = Result<Option<Report>, SearchError>;

/// `magpie search clique FILE [--decide K]`
#[derive(Args, Debug)]
pub struct CliqueArgs {
    /// A DIMACS graph (`p edge N M` or `p col N M`, then `e U V` lines)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Decide whether a clique of exactly K vertices exists instead of maximising
    #[arg(long, value_name = "K")]
    decide: Option<usize>,
    /// The upper bound to prune with: `colour` (greedy colouring with MCS's
    /// Re-NUMBER) or `infra-chromatic` (BBMCX's triplets generalised by MaxCLQ's unit
    /// propagation: fewer nodes, more work per node)
    #[arg(long, value_name = "BOUND", default_value = "colour")]
    bound: clique::CliqueBound,
    #[command(flatten)]
    pub options: SearchOptions,
}

impl CliqueArgs {
    /// A maximum-clique search of `file` with the default options.
    pub fn new(file: PathBuf) -> Self {
        Self {
            file,
            decide: None,
            bound: clique::CliqueBound::Colour,
            options: SearchOptions::default(),
        }
    }
}

/// Vertex numbers as DIMACS writes them (1-based).
fn one_based(vertices: &[usize]) -> String {
    let numbers: Vec<String> = vertices.iter().map(|v| (v + 1).to_string()).collect();
    numbers.join(" ")
}

pub fn clique(args: &CliqueArgs, config: &SearchConfig<'_>, engine: &mut dyn Engine) -> Reported {
    let input = args.file.display().to_string();
    let graph = clique::read_dimacs(&args.file).map_err(|e| SearchError::input(&input, e))?;
    clique_of_graph(args, input, &graph, config, engine)
}

/// [`clique`] on a graph already read (the tour's embedded instance); `input` names
/// it in the report.
pub fn clique_of_graph(
    args: &CliqueArgs,
    input: String,
    graph: &clique::Graph,
    config: &SearchConfig<'_>,
    engine: &mut dyn Engine,
) -> Reported {
    let shape = format!(
        "{} vertices, {} edges; bound: {}",
        graph.order(),
        graph.edge_count(),
        args.bound
    );
    let bound = args.bound.to_string();
    let order = graph.order();
    let edges = graph.edge_count();
    Ok(Some(match args.decide {
        None => {
            let Some(outcome) = engine.maximum_clique(graph, args.bound, config)? else {
                return Ok(None);
            };
            let clique = outcome.answer;
            Report::new(
                "clique",
                input,
                format!("maximum clique size {}", clique.len()),
                json!({ "size": clique.len(), "vertices": clique.iter().map(|v| v + 1).collect::<Vec<_>>(), "bound": bound, "graph_vertices": order, "graph_edges": edges }),
                outcome.stats,
            )
            .distributed(outcome.distributed)
            .detail(shape)
            .detail(format!("vertices (1-based): {}", one_based(&clique)))
        }
        Some(size) => {
            let Some(outcome) = engine.clique_of_size(graph, size, args.bound, config)? else {
                return Ok(None);
            };
            let report = match &outcome.answer {
                Some(clique) => Report::new(
                    "clique",
                    input,
                    format!("a clique of size {size} exists"),
                    json!({ "size": size, "exists": true, "vertices": clique.iter().map(|v| v + 1).collect::<Vec<_>>(), "bound": bound, "graph_vertices": order, "graph_edges": edges }),
                    outcome.stats,
                )
                .detail(format!("vertices (1-based): {}", one_based(clique))),
                None => Report::new(
                    "clique",
                    input,
                    format!("no clique of size {size}"),
                    json!({ "size": size, "exists": false, "bound": bound, "graph_vertices": order, "graph_edges": edges }),
                    outcome.stats,
                ),
            };
            report.distributed(outcome.distributed).detail(shape)
        }
    }))
}

/// `magpie search semigroups [G] [-g G]`
#[derive(Args, Debug)]
pub struct SemigroupsArgs {
    /// Count up to this genus
    #[arg(value_name = "G", required_unless_present = "genus")]
    max_genus: Option<usize>,
    /// Count up to this genus (same as the positional G)
    #[arg(
        short = 'g',
        long = "genus",
        value_name = "G",
        conflicts_with = "max_genus"
    )]
    genus: Option<usize>,
    #[command(flatten)]
    pub options: SearchOptions,
}

impl SemigroupsArgs {
    /// The genus to count up to (positional or `-g`).
    pub fn max_genus(&self) -> usize {
        self.max_genus.or(self.genus).unwrap_or_default()
    }
}

pub fn semigroups(
    args: &SemigroupsArgs,
    config: &SearchConfig<'_>,
    engine: &mut dyn Engine,
) -> Reported {
    let max_genus = args.max_genus();
    let input = format!("genus 0..={max_genus}");
    let space =
        semigroups::Semigroups::new(max_genus).map_err(|e| SearchError::input(&input, e))?;
    let Some(outcome) = engine.count_by_genus(&space, config)? else {
        return Ok(None);
    };
    let counts = outcome.answer;
    let total: u64 = counts.iter().sum();
    let last = counts.last().copied().unwrap_or_default();
    let per_genus: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(g, n)| format!("{g}:{n}"))
        .collect();
    Ok(Some(
        Report::new(
            "semigroups",
            input,
            format!("{last} numerical semigroups of genus {max_genus} ({total} up to it)"),
            json!({ "max_genus": max_genus, "counts": counts, "total": total }),
            outcome.stats,
        )
        .distributed(outcome.distributed)
        .detail(format!("by genus: {}", per_genus.join(" "))),
    ))
}

/// `magpie search uts [TREE]`
#[derive(Args, Debug)]
pub struct UtsArgs {
    /// A sample tree (default, T1 .. T5) or UTS parameters as key=value pairs, e.g.
    /// t=1,a=3,d=10,b=4,r=19 (t tree type, a shape, d depth, b branching, r seed, q, m)
    #[arg(value_name = "TREE", default_value = "T1")]
    tree: String,
    #[command(flatten)]
    pub options: SearchOptions,
}

pub fn uts(args: &UtsArgs, config: &SearchConfig<'_>, engine: &mut dyn Engine) -> Reported {
    let params: uts::UtsParams = args
        .tree
        .parse()
        .map_err(|e| SearchError::input(&args.tree, e))?;
    let Some(outcome) = engine.uts_count(&params, config)? else {
        return Ok(None);
    };
    let tree = outcome.answer;
    Ok(Some(
        Report::new(
            "uts",
            args.tree.clone(),
            format!(
                "{} nodes, {} leaves, depth {}",
                tree.nodes, tree.leaves, tree.max_depth
            ),
            json!({
                "parameters": params.to_string(),
                "nodes": tree.nodes,
                "leaves": tree.leaves,
                "max_depth": tree.max_depth,
            }),
            outcome.stats,
        )
        .distributed(outcome.distributed)
        .detail(format!("parameters {params}")),
    ))
}

/// `magpie search knapsack FILE [--instance NAME|N]`
#[derive(Args, Debug)]
pub struct KnapsackArgs {
    /// A knapsack file as published: `.kp` (capacity, known optimum, then `profit
    /// weight` lines), large-scale or low-dimensional (`n` and the capacity, `profit
    /// weight` lines, optionally the optimal 0/1 vector), or Pisinger's `knapPI` files
    /// (`n`, `c`, `z`, `time` lines, `i,p,w,x` rows, several instances per file)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Which instance of a file that holds several (Pisinger's hold 100): its name or
    /// its 1-based position [default: the first]
    #[arg(long, value_name = "NAME|N")]
    instance: Option<String>,
    /// Read the file in this format instead of guessing it from the text and the
    /// extension: `kp`, `low-dimensional` (also `large-scale`) or `knappi`
    #[arg(long, value_name = "FORMAT")]
    format: Option<knapsack::KnapsackFormat>,
    #[command(flatten)]
    pub options: SearchOptions,
}

/// The instance `wanted` (a name or a 1-based position) of `instances`, with its
/// position.
fn select_instance<'i>(
    input: &str,
    instances: &'i [knapsack::KnapsackInstance],
    wanted: Option<&str>,
) -> Result<(usize, &'i knapsack::KnapsackInstance), SearchError> {
    let Some(wanted) = wanted else {
        return instances
            .first()
            .map(|first| (0, first))
            .ok_or_else(|| SearchError::input(input, "the file holds no instance"));
    };
    let by_name = instances
        .iter()
        .position(|instance| instance.name() == Some(wanted));
    let by_position = wanted
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|&i| i < instances.len());
    match by_name.or(by_position) {
        Some(i) => Ok((i, &instances[i])),
        None => Err(SearchError::Usage(format!(
            "--instance {wanted}: the file holds {} instance(s); give a name in it or a \
             position from 1 to {}",
            instances.len(),
            instances.len()
        ))),
    }
}

pub fn knapsack(
    args: &KnapsackArgs,
    config: &SearchConfig<'_>,
    engine: &mut dyn Engine,
) -> Reported {
    let input = args.file.display().to_string();
    let instances = match args.format {
        Some(format) => knapsack::read_knapsack_instances_as(&args.file, format),
        None => knapsack::read_knapsack_instances(&args.file),
    }
    .map_err(|e| SearchError::input(&input, e))?;
    let (position, instance) = select_instance(&input, &instances, args.instance.as_deref())?;
    let Some(outcome) = engine.knapsack(instance, config)? else {
        return Ok(None);
    };
    let best = outcome.answer;
    let items: Vec<usize> = best.items.iter().map(|i| i + 1).collect();
    let numbers: Vec<String> = items.iter().map(usize::to_string).collect();
    // The reader checked the packing's items: distinct and in range, so totals exist.
    let stated_packing = instance.stated_solution().and_then(|packing| {
        let (profit, weight) = instance.totals(packing)?;
        let items: Vec<usize> = packing.iter().map(|i| i + 1).collect();
        Some((profit, weight, items))
    });
    let mut answer = json!({
        "profit": best.profit.to_string(),
        "weight": best.weight.to_string(),
        "items": items,
        "item_count": instance.item_count(),
        "capacity": instance.capacity().to_string(),
    });
    // The file's format: `--format`, or the guess (where the text is ambiguous, the
    // extension chose it).
    let format_name = instance.format().map_or("code", |f| f.name());
    answer["format"] = json!(format_name);
    if let Some(name) = instance.name() {
        answer["instance"] = json!(name);
    }
    if instances.len() > 1 {
        answer["instance_position"] = json!(position + 1);
        answer["instances_in_file"] = json!(instances.len());
    }
    if let Some(optimum) = instance.stated_optimum() {
        answer["stated_optimum"] = json!(optimum.to_string());
    }
    if let Some((profit, weight, items)) = &stated_packing {
        answer["stated_packing"] = json!({
            "profit": profit.to_string(),
            "weight": weight.to_string(),
            "items": items,
        });
    }
    let mut report = Report::new(
        "knapsack",
        input,
        format!("best profit {}", best.profit),
        answer,
        outcome.stats,
    )
    .distributed(outcome.distributed);
    if let Some(name) = instance.name() {
        let of = match instances.len() {
            1 => String::new(),
            n => format!(" ({} of {n} in the file)", position + 1),
        };
        report = report.detail(format!("instance {name}{of}"));
    }
    report = report
        .detail(format!(
            "{} items, capacity {} (read as {}); packed weight {}",
            instance.item_count(),
            instance.capacity(),
            format_name,
            best.weight
        ))
        .detail(format!("items (1-based): {}", numbers.join(" ")));
    if let Some(optimum) = instance.stated_optimum() {
        report = report.check(
            optimum == best.profit,
            format!("the optimum stated in the file ({optimum})"),
        );
    }
    if let Some((profit, weight, _)) = stated_packing {
        report = report.check(
            profit == best.profit,
            format!("the optimal packing stated in the file (profit {profit}, weight {weight})"),
        );
    }
    Ok(Some(report))
}

/// `magpie search tsp FILE`
#[derive(Args, Debug)]
pub struct TspArgs {
    /// A TSPLIB file (EUC_2D, CEIL_2D, ATT, GEO, or EXPLICIT matrices)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    pub options: SearchOptions,
}

pub fn tsp(args: &TspArgs, config: &SearchConfig<'_>, engine: &mut dyn Engine) -> Reported {
    let input = args.file.display().to_string();
    let instance = tsp::read_tsplib(&args.file).map_err(|e| SearchError::input(&input, e))?;
    let Some(outcome) = engine.solve_tsp(&instance, config)? else {
        return Ok(None);
    };
    let tour = outcome.answer;
    let cities: Vec<usize> = tour.cities.iter().map(|c| c + 1).collect();
    let numbers: Vec<String> = cities.iter().map(usize::to_string).collect();
    Ok(Some(
        Report::new(
            "tsp",
            input,
            format!("optimal tour length {}", tour.length),
            json!({ "length": tour.length, "tour": cities, "name": instance.name(), "cities": instance.cities() }),
            outcome.stats,
        )
        .distributed(outcome.distributed)
        .detail(format!(
            "{} ({} cities)",
            instance.name(),
            instance.cities()
        ))
        .detail(format!("tour (TSPLIB node numbers): {}", numbers.join(" "))),
    ))
}
