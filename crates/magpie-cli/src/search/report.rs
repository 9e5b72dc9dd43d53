//! [`Report`]: what `magpie search` prints, as text or as one JSON record.

use std::fmt::Write;
use std::time::Duration;

use magpie::{ThreadPool, WorkerStats};
use magpie_search::{Coordination, SearchStats};
use serde_json::{json, Value};

use super::engine::Distributed;

/// One search's answer and statistics.
pub struct Report {
    app: &'static str,
    input: String,
    /// The answer in one line, e.g. "maximum clique size 17".
    headline: String,
    /// More lines of answer, e.g. the clique's vertices.
    details: Vec<String>,
    /// The answer as JSON.
    answer: Value,
    /// Known answers the result was checked against: (matches, description).
    checks: Vec<(bool, String)>,
    stats: SearchStats,
    settings: Value,
    settings_line: String,
    /// How a run across ranks went.
    distributed: Option<Distributed>,
}

impl Report {
    /// A report of `app` on `input`.
    pub fn new(
        app: &'static str,
        input: impl Into<String>,
        headline: impl Into<String>,
        answer: Value,
        stats: SearchStats,
    ) -> Self {
        Self {
            app,
            input: input.into(),
            headline: headline.into(),
            details: Vec::new(),
            answer,
            checks: Vec::new(),
            stats,
            settings: Value::Null,
            settings_line: String::new(),
            distributed: None,
        }
    }

    /// Records how a run across ranks went (nothing for a run in one process).
    pub fn distributed(mut self, distributed: Option<Distributed>) -> Self {
        self.distributed = distributed;
        self
    }

    /// Adds a line of answer detail.
    pub fn detail(mut self, line: impl Into<String>) -> Self {
        self.details.push(line.into());
        self
    }

    /// Records a comparison with a known answer (a report may have several).
    pub fn check(mut self, matches: bool, description: impl Into<String>) -> Self {
        self.checks.push((matches, description.into()));
        self
    }

    /// The `size` field of the answer (a clique's size), if it has one.
    pub fn answer_size(&self) -> Option<usize> {
        let size = self.answer.get("size")?.as_u64()?;
        usize::try_from(size).ok()
    }

    /// The first known answer the result differs from, if it does.
    pub fn contradicted_known_answer(&self) -> Option<&str> {
        self.checks
            .iter()
            .find(|(matches, _)| !matches)
            .map(|(_, description)| description.as_str())
    }

    /// Fills in how the search ran.
    pub fn settings(&mut self, coordination: Coordination, pool: &ThreadPool, wall: Duration) {
        let (skeleton, parameter) = match coordination {
            Coordination::Sequential => ("sequential", String::new()),
            Coordination::DepthBounded { spawn_depth } => {
                ("depth-bounded", format!(" (spawn depth {spawn_depth})"))
            }
            Coordination::StackStealing { steal_all } => (
                "stack-stealing",
                if steal_all { " (steal all)" } else { "" }.to_string(),
            ),
            Coordination::Budget { backtracks } => {
                ("budget", format!(" ({backtracks} backtracks)"))
            }
        };
        let threads = pool.current_num_threads();
        let policy = pool.victim_policy().to_string();
        self.settings_line =
            format!("skeleton {skeleton}{parameter}, {threads} threads, victim policy {policy}");
        self.settings = json!({
            "skeleton": skeleton,
            "coordination": format!("{coordination:?}"),
            "threads": threads,
            "policy": policy,
            "wall_seconds": wall.as_secs_f64(),
        });
        if let Some(d) = &self.distributed {
            self.settings_line += &format!(
                " per rank; {} ranks, node policy {}",
                d.ranks, d.node_policy
            );
            self.settings["ranks"] = json!(d.ranks);
            self.settings["node_policy"] = json!(d.node_policy);
        }
    }

    /// The human-readable report.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} {}: {}", self.app, self.input, self.headline);
        for line in &self.details {
            let _ = writeln!(out, "  {line}");
        }
        for (matches, description) in &self.checks {
            let verdict = if *matches { "matches" } else { "DIFFERS FROM" };
            let _ = writeln!(out, "  {verdict} {description}");
        }
        let _ = writeln!(out, "{}", self.settings_line);
        let _ = writeln!(out, "{}", self.stats.to_string().trim_end());
        if let Some(d) = &self.distributed {
            for line in &d.lines {
                let _ = writeln!(out, "{line}");
            }
        }
        out
    }

    /// The machine-readable report: one JSON object.
    pub fn json(&self) -> String {
        // The text's worker table: every column, for each worker and in total.
        let worker = |w: &WorkerStats| {
            json!({
                "tasks_run": w.tasks_run,
                "steal_attempts": w.steal_attempts,
                "steals": w.steals,
                "items_stolen": w.items_stolen,
                "spills": w.spills,
                "shares": w.shares,
                "parks": w.parks,
                "wakes": w.wakes,
                "idle_seconds": w.idle.as_secs_f64(),
            })
        };
        let pool = self.stats.pool.as_ref().map(|pool| {
            let mut record = worker(&pool.total());
            record["policy"] = json!(pool.policy);
            record["stolen_percent"] = json!(pool.stolen_percent());
            record["workers"] = pool.workers.iter().map(worker).collect();
            record
        });
        let descriptions: Vec<&str> = self.checks.iter().map(|(_, d)| d.as_str()).collect();
        let record = json!({
            "app": self.app,
            "input": self.input,
            "headline": self.headline,
            "answer": self.answer,
            // All checks at once (null without any), then each.
            "known_answer": (!self.checks.is_empty()).then(|| json!({
                "matches": self.checks.iter().all(|(matches, _)| *matches),
                "description": descriptions.join("; "),
            })),
            "known_answers": self.checks.iter().map(|(matches, description)| json!({
                "matches": matches,
                "description": description,
            })).collect::<Vec<_>>(),
            "run": self.settings,
            "stats": {
                "nodes_expanded": self.stats.nodes_expanded,
                "prunes": self.stats.prunes,
                "tasks": self.stats.tasks,
                "seconds": self.stats.elapsed.as_secs_f64(),
                "pool": pool,
                "ranks": self.distributed.as_ref().map(|d| &d.json),
            },
        });
        record.to_string()
    }
}
