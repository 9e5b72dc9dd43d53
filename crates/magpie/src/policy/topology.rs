//! Where workers run: which share a last-level cache and which share a NUMA node.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

/// Worker placement: per worker, an id of its last-level cache and of its NUMA node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    llc: Vec<usize>,
    node: Vec<usize>,
}

impl Topology {
    /// Every worker on one cache and one node (the fallback when nothing is known).
    pub fn uniform(workers: usize) -> Self {
        Self {
            llc: vec![0; workers],
            node: vec![0; workers],
        }
    }

    /// Worker `i` on last-level cache `llc[i]` and NUMA node `node[i]` (ids are only
    /// compared for equality), for tests and benchmarks that model a machine.
    ///
    /// # Panics
    ///
    /// If the two vectors differ in length.
    pub fn from_ids(llc: Vec<usize>, node: Vec<usize>) -> Self {
        assert_eq!(
            llc.len(),
            node.len(),
            "one cache id and one node id per worker"
        );
        Self { llc, node }
    }

    /// The placement of workers on this machine, read from Linux sysfs
    /// (`/sys/devices/system`): worker `i` runs on cpu `cpus[i]` if pinned, and unpinned
    /// workers are assumed spread over the online cpus (the `i % online`-th one).
    ///
    /// A worker's cache is the highest-level data or unified cache of its cpu
    /// (`cpu/cpuN/cache/index*/`, identified by its `shared_cpu_list`, or its `id`); its
    /// node is the `node/node*/cpulist` that lists its cpu. Missing or unreadable files
    /// never fail: without cache information each node counts as one cache, without node
    /// information every cpu is on node 0, and without either (non-Linux systems, some
    /// containers) the result is [`uniform`](Self::uniform).
    pub fn detect(cpus: &[Option<usize>]) -> Self {
        detect_in(Path::new("/sys/devices/system"), cpus)
    }

    /// Number of workers described.
    pub fn workers(&self) -> usize {
        self.llc.len()
    }

    /// Number of distinct NUMA nodes the workers are on (0 for no workers).
    pub fn nodes(&self) -> usize {
        distinct(&self.node)
    }

    /// Number of distinct last-level caches the workers are on (0 for no workers).
    pub fn caches(&self) -> usize {
        distinct(&self.llc)
    }

    /// Whether workers `a` and `b` share a last-level cache.
    pub fn same_cache(&self, a: usize, b: usize) -> bool {
        self.llc[a] == self.llc[b]
    }

    /// Whether workers `a` and `b` are on the same NUMA node.
    pub fn same_node(&self, a: usize, b: usize) -> bool {
        self.node[a] == self.node[b]
    }
}

fn distinct(ids: &[usize]) -> usize {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids.len()
}

/// [`Topology::detect`] with sysfs's `devices/system` directory at `root`.
pub(super) fn detect_in(root: &Path, cpus: &[Option<usize>]) -> Topology {
    let online = read_list(&root.join("cpu/online")).unwrap_or_default();
    let cpu_of: Option<Vec<usize>> = cpus
        .iter()
        .enumerate()
        .map(|(i, pinned)| pinned.or_else(|| online.get(i % online.len().max(1)).copied()))
        .collect();
    let Some(cpu_of) = cpu_of else {
        return Topology::uniform(cpus.len());
    };
    let node_of = node_map(root);
    let node: Vec<usize> = cpu_of
        .iter()
        .map(|cpu| node_of.get(cpu).copied().unwrap_or(0))
        .collect();
    let llc = cpu_of
        .iter()
        .map(|&cpu| llc_key(root, cpu))
        .collect::<Option<Vec<_>>>()
        .map_or_else(|| node.clone(), intern);
    Topology { llc, node }
}

/// cpu → NUMA node, from `node/node*/cpulist`; empty if unreadable.
fn node_map(root: &Path) -> HashMap<usize, usize> {
    let mut map = HashMap::new();
    let Ok(entries) = fs::read_dir(root.join("node")) else {
        return map;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(node) = name
            .to_str()
            .and_then(|n| n.strip_prefix("node"))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        for cpu in read_list(&entry.path().join("cpulist")).unwrap_or_default() {
            map.insert(cpu, node);
        }
    }
    map
}

/// How a cache is identified: its level, and the first cpu of its `shared_cpu_list` or
/// else its `id` (kept apart so the two kinds never collide).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum CacheKey {
    FirstCpu(u32, usize),
    Id(u32, usize),
}

impl CacheKey {
    fn level(self) -> u32 {
        match self {
            Self::FirstCpu(level, _) | Self::Id(level, _) => level,
        }
    }
}

/// The highest-level data or unified cache of `cpu`, if sysfs describes one.
fn llc_key(root: &Path, cpu: usize) -> Option<CacheKey> {
    let entries = fs::read_dir(root.join(format!("cpu/cpu{cpu}/cache"))).ok()?;
    let mut best: Option<CacheKey> = None;
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with("index") {
            continue;
        }
        let dir = entry.path();
        let read = |file: &str| fs::read_to_string(dir.join(file)).ok();
        if read("type").is_some_and(|t| t.trim() == "Instruction") {
            continue;
        }
        let Some(level) = read("level").and_then(|l| l.trim().parse::<u32>().ok()) else {
            continue;
        };
        let first_cpu = read_list(&dir.join("shared_cpu_list")).and_then(|l| l.first().copied());
        let key = match first_cpu {
            Some(first) => CacheKey::FirstCpu(level, first),
            None => match read("id").and_then(|i| i.trim().parse::<usize>().ok()) {
                Some(id) => CacheKey::Id(level, id),
                None => continue,
            },
        };
        if best.map_or(true, |b| level > b.level()) {
            best = Some(key);
        }
    }
    best
}

/// Dense ids `0..` for the distinct keys, in order of first appearance.
fn intern(keys: Vec<CacheKey>) -> Vec<usize> {
    let mut ids = HashMap::new();
    keys.into_iter()
        .map(|k| {
            let next = ids.len();
            *ids.entry(k).or_insert(next)
        })
        .collect()
}

fn read_list(path: &Path) -> Option<Vec<usize>> {
    parse_cpu_list(&fs::read_to_string(path).ok()?)
}

/// Largest cpu number accepted in a list: bounds the allocation a malformed or hostile
/// file could cause (Linux supports at most 8192 cpus today).
const MAX_CPU: usize = 1 << 20;

/// Parses a Linux cpu list such as `0-3,8-11` (surrounding whitespace allowed, empty
/// means no cpu) into sorted, distinct cpu numbers; `None` if malformed.
pub(super) fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let text = text.trim();
    let mut cpus = Vec::new();
    if text.is_empty() {
        return Some(cpus);
    }
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((lo, hi)) => (lo, hi),
            None => (part, part),
        };
        let parse = |s: &str| {
            s.parse::<usize>()
                .ok()
                .filter(|&c| c <= MAX_CPU && !s.starts_with('+'))
        };
        let (lo, hi) = (parse(lo)?, parse(hi)?);
        if lo > hi {
            return None;
        }
        // A valid list names each cpu once, so at most `MAX_CPU + 1` of them.
        if cpus.len() + (hi - lo) > MAX_CPU {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}
