//! Experiment 1 (BWoS §6.2.1): the owner alone puts until full, then gets until empty;
//! (puts + gets) / s against the sequential bound and the peers of the same flavour.

use serde::Serialize;

use super::rows::Rows;
use super::{cpu_share, retry_budget, Family, Flavour, Impl, Notes, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si};
use crate::{BenchError, TargetCheck};

/// A row of `exp1_owner_runs.csv`: one measured run.
#[derive(Serialize)]
struct RunRow {
    experiment: &'static str,
    #[serde(rename = "impl")]
    implementation: &'static str,
    family: &'static str,
    flavour: &'static str,
    rep: usize,
    capacity: usize,
    rounds: u64,
    puts: u64,
    gets: u64,
    seconds: String,
    ops_per_sec: String,
    owner_pinned: bool,
    owner_cpu_share: String,
    tries: usize,
}

/// A row of `exp1_owner_summary.csv`: one implementation over its repetitions.
#[derive(Serialize)]
struct SummaryRow {
    #[serde(rename = "impl")]
    implementation: &'static str,
    family: &'static str,
    flavour: &'static str,
    reps: usize,
    median_ops_per_sec: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
    ratio_vs_sequential: String,
    magpie_over_this: String,
}

/// Runs experiment 1 and writes `exp1_owner_runs.csv`, `exp1_owner_summary.csv` and
/// `exp1_owner.svg` into `dir`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let impls = Impl::all();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); impls.len()];
    let mut runs = Vec::new();
    let mut retries = retry_budget(impls.len() * p.reps);
    let mut notes = Notes::default();
    let mut min_cpu: Vec<Option<f64>> = vec![None; impls.len()];
    crate::order::interleave("exp1 (owner only)", impls.len(), p.reps, |rep, i| {
        let imp = &impls[i];
        let (r, tries) = imp.measure(p.cap, p.exp1_rounds, None, &mut retries)?;
        let r = r.owner;
        notes.count(tries, r.pinned, r.cpu_share);
        samples[i].push(r.ops_per_sec());
        if let Some(c) = r.cpu_share {
            min_cpu[i] = Some(min_cpu[i].map_or(c, |m: f64| m.min(c)));
        }
        runs.push(RunRow {
            experiment: "owner",
            implementation: imp.name(),
            family: imp.family.name(),
            flavour: imp.flavour.name(),
            rep: rep + 1,
            capacity: p.cap,
            rounds: p.exp1_rounds,
            puts: r.puts,
            gets: r.gets,
            seconds: format!("{:.6}", r.secs),
            ops_per_sec: format!("{:.0}", r.ops_per_sec()),
            owner_pinned: r.pinned,
            owner_cpu_share: cpu_share(r.cpu_share),
            tries,
        });
        Ok::<(), BenchError>(())
    })?;
    let keys: Vec<(Family, Flavour)> = impls.iter().map(|i| (i.family, i.flavour)).collect();
    let sums = CellSummaries::new(&keys, &samples)?;
    let find = |fam: Family, fl: Flavour| sums.get((fam, fl));

    let (mut summary, mut table) = (Vec::new(), Rows::default());
    for ((imp, (key, s)), cpu) in impls.iter().zip(sums.iter()).zip(&min_cpu) {
        let seq = sums.ratio(key, (Family::Sequential, imp.flavour));
        let mag = sums.ratio((Family::Magpie, imp.flavour), key);
        let [median, min, max, q1, q3, spread_pct] = s.csv_fields(0);
        summary.push(SummaryRow {
            implementation: imp.name(),
            family: imp.family.name(),
            flavour: imp.flavour.name(),
            reps: s.n,
            median_ops_per_sec: median,
            min,
            max,
            q1,
            q3,
            spread_pct,
            ratio_vs_sequential: f2(seq),
            magpie_over_this: f2(mag),
        });
        table.push([
            ("impl", imp.name().to_string()),
            ("flavour", imp.flavour.name().to_string()),
            ("median ops/s", si(s.median)),
            ("min", si(s.min)),
            ("max", si(s.max)),
            ("spread %", format!("{:.1}", s.spread_pct())),
            (
                "min cpu %",
                cpu.map_or("n/a".into(), |c| format!("{:.0}", c * 100.0)),
            ),
            ("x seq", f2(seq)),
            ("magpie x", f2(mag.filter(|_| imp.family != Family::Magpie))),
        ]);
    }

    let mut targets = Vec::new();
    for fl in Flavour::ALL {
        if find(Family::Magpie, fl).is_none() {
            continue;
        }
        let sequential = match fl {
            Flavour::Lifo => "sequential bound (Vec)",
            Flavour::Fifo => "sequential bound (VecDeque)",
        };
        for (peer, peer_name, threshold) in [
            (Family::Sequential, sequential, 0.9),
            (Family::Crossbeam, Family::Crossbeam.name(), 5.0),
            (Family::St3, Family::St3.name(), 5.0),
        ] {
            targets.push(TargetCheck {
                name: format!("{} magpie / {peer_name}", fl.name()),
                measured: sums.ratio((Family::Magpie, fl), (peer, fl)),
                threshold,
            });
        }
    }

    let chart = BarChart {
        title: format!(
            "Owner-only throughput, C = {} (median of {}, bars = min..max)",
            p.cap, p.reps
        ),
        y_label: "(puts + gets) / s".into(),
        x_label: "queue flavour".into(),
        categories: Flavour::ALL.iter().map(|f| f.name().to_string()).collect(),
        series: Family::ALL
            .iter()
            .map(|&fam| {
                BarSeries::new(
                    fam.name(),
                    Flavour::ALL.iter().map(|&fl| find(fam, fl).map(Bar::from)),
                )
            })
            .collect(),
    };

    out.rows("exp1_owner_runs.csv", &runs)?;
    out.rows("exp1_owner_summary.csv", &summary)?;
    out.file("exp1_owner.svg", &chart.render())?;
    let mut text = format!(
        "\n== Experiment 1 (§6.2.1): owner only, C = {}, {} rounds/run, {} reps; (puts+gets)/s ==\n",
        p.cap, p.exp1_rounds, p.reps
    );
    text.push_str(&table.table(2));
    text.push_str("spread = (max-min)/median; min cpu % = lowest owner CPU time / wall time over the reps;\nx seq = ratio of medians vs the sequential bound of the same flavour; magpie x = magpie's median / this row's median\n");
    text += &notes.render("owner", "the owner thread to core 0");
    text.push('\n');
    text.push_str(&crate::table::targets(&targets));
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}
