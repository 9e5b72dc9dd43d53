//! Experiment 2 (BWoS §6.2.2): the owner loop of experiment 1 while a thief on core 1
//! steals single items, its pause calibrated per implementation to ≈ 1, 5, 10, 20 %
//! stolen (0 % = no thief). The achieved percentage is what is reported.

use serde::Serialize;

use super::calibrate::{self, Config};
use super::rows::Rows;
use super::{cpu_share, retry_budget, Family, Flavour, Impl, Notes, Params, DISTURBED};
use crate::output::Out;
use crate::stats::{ratio_of_medians, Summary};
use crate::svg::{LineChart, LineSeries, Point};
use crate::table::{f2, si};
use crate::{BenchError, TargetCheck};

/// Target stolen percentages; 0 means no thief thread.
pub const TARGETS: [f64; 5] = [0.0, 1.0, 5.0, 10.0, 20.0];

/// Per-configuration samples.
#[derive(Default, Clone)]
struct Samples {
    owner: Vec<f64>,
    steals: Vec<f64>,
    pct: Vec<f64>,
    /// Repetitions in which owner and thief were both on-CPU ≥ DISTURBED of wall time.
    clean: usize,
}

/// A row of `exp2_thief_runs.csv`: one measured run.
#[derive(Serialize)]
struct RunRow {
    experiment: &'static str,
    #[serde(rename = "impl")]
    implementation: &'static str,
    family: &'static str,
    flavour: &'static str,
    /// Display text of the `f64` (`5`; an `f64` field would give the csv crate's `5.0`).
    target_stolen_pct: String,
    /// The pause as `target_stolen_pct`, or `none` without a thief.
    pause_spins: String,
    rep: usize,
    capacity: usize,
    rounds: u64,
    puts: u64,
    gets: u64,
    stolen: u64,
    steal_attempts: u64,
    seconds: String,
    owner_ops_per_sec: String,
    steals_per_sec: String,
    stolen_pct: String,
    owner_pinned: bool,
    thief_pinned: bool,
    owner_cpu_share: String,
    thief_cpu_share: String,
    tries: usize,
}

/// A row of `exp2_thief_summary.csv`: one implementation and target over its repetitions.
#[derive(Serialize)]
struct SummaryRow {
    #[serde(rename = "impl")]
    implementation: &'static str,
    family: &'static str,
    flavour: &'static str,
    /// This and `pause_spins` as in [`RunRow`].
    target_stolen_pct: String,
    pause_spins: String,
    calibration_estimate_pct: String,
    reps: usize,
    achieved_stolen_pct_median: String,
    achieved_stolen_pct_min: String,
    achieved_stolen_pct_max: String,
    owner_ops_median: String,
    owner_ops_min: String,
    owner_ops_max: String,
    owner_spread_pct: String,
    steals_per_sec_median: String,
    owner_vs_own_no_steal: String,
    magpie_owner_over_this: String,
    clean_reps: usize,
}

/// Runs experiment 2 and writes its CSV files and one SVG per flavour into `dir`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let impls: Vec<Impl> = Impl::all().into_iter().filter(|i| i.stealable()).collect();

    let mut probes = Vec::new();
    let mut configs: Vec<Vec<Config>> = Vec::new();
    let bar = crate::progress::bar("exp2 (one thief): calibrating", impls.len());
    for imp in &impls {
        bar.set_message(imp.name());
        configs.push(calibrate::calibrate(*imp, p, &TARGETS, &mut probes)?);
        bar.inc(1);
    }
    bar.finish_and_clear();

    let mut runs = Vec::new();
    let mut retries = retry_budget(configs.iter().map(Vec::len).sum::<usize>() * p.reps);
    let mut notes = Notes::default();
    let mut samples: Vec<Vec<Samples>> = configs
        .iter()
        .map(|c| vec![Samples::default(); c.len()])
        .collect();
    // Interleaved repetitions in a fresh order each time (see `crate::order`).
    let pairs: Vec<(usize, usize)> = (0..impls.len())
        .flat_map(|i| (0..configs[i].len()).map(move |k| (i, k)))
        .collect();
    crate::order::interleave("exp2 (one thief)", pairs.len(), p.reps, |rep, j| {
        let (i, k) = pairs[j];
        let (imp, cfg) = (&impls[i], &configs[i][k]);
        let (r, tries) = imp.measure(p.cap, p.exp2_rounds, cfg.pause, &mut retries)?;
        let pinned = r.owner.pinned && (cfg.pause.is_none() || r.thief_pinned);
        notes.count(tries, pinned, r.min_cpu_share());
        let s = &mut samples[i][k];
        if r.min_cpu_share().map_or(true, |c| c >= DISTURBED) {
            s.clean += 1;
        }
        s.owner.push(r.owner.ops_per_sec());
        s.steals.push(r.steals_per_sec());
        s.pct.push(r.stolen_pct());
        runs.push(RunRow {
            experiment: "thief",
            implementation: imp.name(),
            family: imp.family.name(),
            flavour: imp.flavour.name(),
            target_stolen_pct: cfg.target.to_string(),
            pause_spins: pause_spins(cfg),
            rep: rep + 1,
            capacity: p.cap,
            rounds: p.exp2_rounds,
            puts: r.owner.puts,
            gets: r.owner.gets,
            stolen: r.stolen,
            steal_attempts: r.attempts,
            seconds: format!("{:.6}", r.owner.secs),
            owner_ops_per_sec: format!("{:.0}", r.owner.ops_per_sec()),
            steals_per_sec: format!("{:.0}", r.steals_per_sec()),
            stolen_pct: format!("{:.4}", r.stolen_pct()),
            owner_pinned: r.owner.pinned,
            thief_pinned: r.thief_pinned,
            owner_cpu_share: cpu_share(r.owner.cpu_share),
            thief_cpu_share: cpu_share(r.thief_cpu_share),
            tries,
        });
        Ok::<(), BenchError>(())
    })?;

    // Summaries: owner ops/s, steals/s and achieved stolen % per (impl, config).
    let mut sums: Vec<Vec<(Summary, Summary, Summary)>> = Vec::new();
    for per_impl in &samples {
        let mut v = Vec::new();
        for s in per_impl {
            v.push((
                Summary::try_of(&s.owner)?,
                Summary::try_of(&s.steals)?,
                Summary::try_of(&s.pct)?,
            ));
        }
        sums.push(v);
    }
    let idx = |fam: Family, fl: Flavour| {
        impls
            .iter()
            .position(|i| i.family == fam && i.flavour == fl)
    };

    let (mut summary, mut table) = (Vec::new(), Rows::default());
    let mut far = Vec::new();
    for (i, imp) in impls.iter().enumerate() {
        let base = sums[i][0].0;
        let mag = idx(Family::Magpie, imp.flavour);
        for (k, cfg) in configs[i].iter().enumerate() {
            let (own, st, pct) = sums[i][k];
            let vs0 = ratio_of_medians(&own, &base);
            let magx = mag.and_then(|m| ratio_of_medians(&sums[m][k].0, &own));
            if cfg.target > 0.0 && (pct.median - cfg.target).abs() > 0.25 * cfg.target {
                far.push(format!(
                    "{} @ {}%: achieved {:.2}%",
                    imp.name(),
                    cfg.target,
                    pct.median
                ));
            }
            let clean = samples[i][k].clean;
            summary.push(SummaryRow {
                implementation: imp.name(),
                family: imp.family.name(),
                flavour: imp.flavour.name(),
                target_stolen_pct: cfg.target.to_string(),
                pause_spins: pause_spins(cfg),
                calibration_estimate_pct: format!("{:.3}", cfg.estimate),
                reps: own.n,
                achieved_stolen_pct_median: format!("{:.3}", pct.median),
                achieved_stolen_pct_min: format!("{:.3}", pct.min),
                achieved_stolen_pct_max: format!("{:.3}", pct.max),
                owner_ops_median: format!("{:.0}", own.median),
                owner_ops_min: format!("{:.0}", own.min),
                owner_ops_max: format!("{:.0}", own.max),
                owner_spread_pct: format!("{:.1}", own.spread_pct()),
                steals_per_sec_median: format!("{:.0}", st.median),
                owner_vs_own_no_steal: f2(vs0),
                magpie_owner_over_this: f2(magx),
                clean_reps: clean,
            });
            table.push([
                ("impl", imp.name().to_string()),
                ("target %", format!("{}", cfg.target)),
                ("pause", cfg.pause.map_or("-".into(), |x| format!("{x}"))),
                ("stolen %", format!("{:.2}", pct.median)),
                ("owner ops/s", si(own.median)),
                ("spread %", format!("{:.1}", own.spread_pct())),
                ("clean", format!("{clean}/{}", own.n)),
                ("x own 0%", f2(vs0)),
                ("steals/s", si(st.median)),
                (
                    "magpie x",
                    f2(magx.filter(|_| imp.family != Family::Magpie)),
                ),
            ]);
        }
    }

    let mut targets = Vec::new();
    for fl in Flavour::ALL {
        let Some(m) = idx(Family::Magpie, fl) else {
            continue;
        };
        if let Some(k10) = TARGETS.iter().position(|&t| t == 10.0) {
            targets.push(TargetCheck {
                name: format!(
                    "{} magpie owner @ ~10% stolen (achieved {:.1}%) / its 0%",
                    fl.name(),
                    sums[m][k10].2.median
                ),
                measured: ratio_of_medians(&sums[m][k10].0, &sums[m][0].0),
                threshold: 0.9,
            });
        }
        for (k, &t) in TARGETS.iter().enumerate() {
            // Fastest peer of the same flavour at this target.
            let peer = impls
                .iter()
                .enumerate()
                .filter(|(_, i)| i.flavour == fl && i.family != Family::Magpie)
                .max_by(|a, b| sums[a.0][k].0.median.total_cmp(&sums[b.0][k].0.median));
            if let Some((pi, pimp)) = peer {
                targets.push(TargetCheck {
                    name: format!(
                        "{} magpie owner / best peer ({}) @ ~{t}% stolen",
                        fl.name(),
                        pimp.family.name()
                    ),
                    measured: ratio_of_medians(&sums[m][k].0, &sums[pi][k].0),
                    threshold: 1.0,
                });
            }
        }
    }

    out.rows("exp2_thief_runs.csv", &runs)?;
    out.rows("exp2_thief_summary.csv", &summary)?;
    out.rows("exp2_thief_calibration.csv", &probes)?;
    for fl in Flavour::ALL {
        let chart = LineChart {
            title: format!(
                "{} owner throughput vs stolen % (one thief; median of {}, bars = min..max)",
                fl.name(),
                p.reps
            ),
            x_label: "achieved stolen % (median)".into(),
            y_label: "owner (puts + gets) / s".into(),
            series: impls
                .iter()
                .enumerate()
                .filter(|(_, i)| i.flavour == fl)
                .map(|(i, imp)| LineSeries {
                    name: imp.family.name().to_string(),
                    points: sums[i]
                        .iter()
                        .map(|(own, _, pct)| Point {
                            x: pct.median,
                            y: own.median,
                            range: Some((own.min, own.max)),
                        })
                        .collect(),
                })
                .collect(),
        };
        let name = format!("exp2_thief_{}.svg", fl.name().to_lowercase());
        out.file(&name, &chart.render())?;
    }

    let mut text = format!(
        "\n== Experiment 2 (§6.2.2): owner + one thief (owner core 0, thief core 1), C = {}, {} rounds/run, {} reps ==\n",
        p.cap, p.exp2_rounds, p.reps
    );
    text.push_str(&table.table(1));
    text.push_str("pause = spin iterations between steal attempts (calibrated); stolen % = stolen / put (median achieved);\nx own 0% = owner median / same impl's no-thief median; magpie x = magpie owner median / this row's (same target)\n");
    text.push_str(&format!(
        "clean = reps in which owner and thief were both on-CPU >= {:.0}% of wall time; when not, the stolen %\n(thief alone while the owner is preempted) and the owner rate reflect the scheduler, not the queue\n",
        DISTURBED * 100.0
    ));
    text += &notes.render(
        "owner or thief",
        "the owner to core 0 and/or the thief to core 1",
    );
    if !far.is_empty() {
        text.push_str(&format!(
            "NOTE: targets only approximately hit (>25% off): {}\n",
            far.join("; ")
        ));
    }
    text.push('\n');
    text.push_str(&crate::table::targets(&targets));
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}

/// The thief pause for the CSV files (`none` = no thief).
fn pause_spins(cfg: &Config) -> String {
    cfg.pause.map_or("none".into(), |x| format!("{x}"))
}
