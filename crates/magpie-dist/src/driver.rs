//! One rank's run: a search thread runs batches of subtrees on the rank's pool while
//! the communication loop (on the calling thread, the one that owns the transport)
//! answers steal requests, asks for work when the rank is passive, shares bounds,
//! passes Safra's token and, at the end, gathers every rank's report on rank 0.
//!
//! The loop never blocks in the transport: it polls, and sleeps between polls: 20 µs
//! while a request waits for an answer, 100 µs while the rank searches, and on a
//! passive rank a little longer each time nothing happened (up to 1 ms), so an idle
//! rank costs almost no CPU.

use std::collections::VecDeque;
use std::panic;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use magpie::ThreadPool;
use magpie_search::SearchStats;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::DistError;
use crate::global::Global;
use crate::link::{Idle, Link};
use crate::load::LoadMeter;
use crate::policy::NodeVictimPolicy;
use crate::stats::RankStats;
use crate::termination::{Safra, TokenAction};
use crate::transport::Transport;
use crate::wire::{DecodeError, Message};

/// A busy rank refuses a request it could not serve within this time (its running
/// tasks had nothing to split off).
const REFUSE_AFTER: Duration = Duration::from_millis(2);
/// The polling loop's sleep while a request (ours or a thief's) waits for an answer.
const ANSWER_SLEEP: Duration = Duration::from_micros(20);
/// ... while this rank searches (how soon a thief's request is seen).
const SEARCH_SLEEP: Duration = Duration::from_micros(100);
/// The longest sleep, reached by doubling while nothing happens on a passive rank.
const MAX_SLEEP: Duration = Duration::from_millis(1);

/// What a rank sends rank 0 at the end: its counters and its share of the answer.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RankReport<P> {
    pub(crate) stats: RankStats,
    pub(crate) part: P,
}

type Msg<N, P> = Message<N, RankReport<P>>;

/// Messages that arrived (with their senders) before the loop that handles them.
pub(crate) type Early<N, P> = Vec<(usize, Msg<N, P>)>;

/// The search thread's result: its share of the answer and its counters.
type SearchEnd<P> = (P, RankStats);

/// Runs this rank's part of a search. `batch` searches some subtrees on the rank's
/// pool with the link as its remote sink, accumulating into `acc`; `part` turns the
/// accumulator into this rank's share of the answer once the search is over. Rank 0
/// starts with `initial`; it gets every rank's report (in rank order), the others
/// `None`.
#[allow(clippy::too_many_arguments)] // one call per search type, each naming them all
pub(crate) fn run_rank<T, N, A, P, B, F>(
    transport: &mut T,
    search: u32,
    policy: &mut dyn NodeVictimPolicy,
    pool: Option<&ThreadPool>,
    global: &dyn Global,
    initial: Vec<(N, usize)>,
    mut acc: A,
    mut batch: B,
    part: F,
) -> Result<Option<Vec<RankReport<P>>>, DistError>
where
    T: Transport,
    N: Serialize + DeserializeOwned + Send + 'static,
    A: Send,
    P: Serialize + DeserializeOwned + Send,
    B: FnMut(&mut A, Vec<(N, usize)>, &Link<N>) -> SearchStats + Send,
    F: FnOnce(A) -> P + Send,
{
    let start = Instant::now();
    policy.begin_search();
    let early = agree::<T, N, P>(transport, search, Ok(()))?;
    let rank = transport.rank();
    let link = Link::new(if rank == 0 { initial } else { Vec::new() });
    let end: Mutex<Option<SearchEnd<P>>> = Mutex::new(None);
    let search_ended = AtomicBool::new(false);
    thread::scope(|s| {
        let search_thread = s.spawn(|| {
            /// Tells the loop the search thread is gone, even if it panicked.
            struct Ended<'a>(&'a AtomicBool);
            impl Drop for Ended<'_> {
                fn drop(&mut self) {
                    // Release: pairs with the loop's Acquire load, after which it
                    // finds the search's result in `end` (or knows there is none).
                    self.0.store(true, Ordering::Release);
                }
            }
            let _ended = Ended(&search_ended);
            let mut counters = RankStats::default();
            let mut idle = Idle::default();
            while let Some(roots) = link.next_batch(&mut idle) {
                let stats = batch(&mut acc, roots, &link);
                counters.nodes_expanded += stats.nodes_expanded;
                counters.prunes += stats.prunes;
                counters.tasks += stats.tasks;
                counters.batches += 1;
            }
            counters.idle = idle.wall;
            counters.idle_cpu = idle.cpu;
            let share = part(acc);
            *end.lock().unwrap_or_else(|e| e.into_inner()) = Some((share, counters));
        });
        let mut comm = Comm::new(transport, search, policy, global, &link, start);
        comm.pool = pool;
        comm.meter = LoadMeter::new(pool);
        comm.stash.extend(early);
        let result = comm.run(&end, &search_ended);
        if result.is_err() {
            // The batch's result will not be used: stop it instead of waiting for it.
            link.cancel();
        }
        link.finish();
        if let Err(payload) = search_thread.join() {
            panic::resume_unwind(payload);
        }
        result
    })
}

/// Before a search: every rank says whether it read its input; all go on only if
/// all did. Returns messages that arrived early from ranks that already started.
///
/// A rank that cannot decode a message here still lets the others finish agreeing:
/// rank 0 sends them a failed verdict; another rank (whose lost message may have been
/// the verdict) tells every rank it failed and returns, and they, started by rank 0
/// since this rank said it was ready, end their search on that.
pub(crate) fn agree<T, N, P>(
    transport: &mut T,
    search: u32,
    mine: Result<(), String>,
) -> Result<Early<N, P>, DistError>
where
    T: Transport,
    N: Serialize + DeserializeOwned,
    P: Serialize + DeserializeOwned,
{
    let (rank, size) = (transport.rank(), transport.size());
    let mut early = Vec::new();
    let verdict = if rank == 0 {
        let mut results: Vec<Option<Result<(), String>>> = vec![None; size];
        results[0] = Some(mine);
        let mut unreadable = None;
        while unreadable.is_none() && results.iter().any(Option::is_none) {
            match receive::<T, N, P>(transport, search) {
                Ok((from, Message::Ready(result))) => results[from] = Some(result),
                Ok(other) => early.push(other),
                Err(e) => {
                    results[0] = Some(Err(e.to_string()));
                    unreadable = Some(e);
                }
            }
        }
        let verdict = results
            .into_iter()
            .enumerate()
            .find_map(|(r, result)| match result {
                Some(Err(e)) => Some((r, e)),
                _ => None,
            })
            .map_or(Ok(()), Err);
        for to in 1..size {
            transport.send(to, Msg::<N, P>::Start(verdict.clone()).encode(search));
        }
        if let Some(e) = unreadable {
            transport.flush();
            return Err(e.into());
        }
        verdict
    } else {
        transport.send(0, Msg::<N, P>::Ready(mine).encode(search));
        loop {
            match receive::<T, N, P>(transport, search) {
                Ok((0, Message::Start(verdict))) => break verdict,
                Ok(other) => early.push(other),
                Err(e) => {
                    for to in (0..size).filter(|&to| to != rank) {
                        transport.send(to, Msg::<N, P>::Failed.encode(search));
                    }
                    transport.flush();
                    return Err(e.into());
                }
            }
        }
    };
    verdict
        .map(|()| early)
        .map_err(|(rank, message)| DistError::RankFailed { rank, message })
}

/// Waits (polling) for the next message of `search` (dropping any of earlier ones).
fn receive<T, N, P>(transport: &mut T, search: u32) -> Result<(usize, Msg<N, P>), DecodeError>
where
    T: Transport,
    N: Serialize + DeserializeOwned,
    P: Serialize + DeserializeOwned,
{
    loop {
        if let Some((from, bytes)) = transport.try_receive() {
            match Message::decode(&bytes)? {
                (stamp, message) if stamp == search => return Ok((from, message)),
                _ => continue,
            }
        }
        thread::sleep(Duration::from_micros(100));
    }
}

/// Where the rank is in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Searching, stealing, passing the token.
    Running,
    /// Termination detected: answer requests with refusals, report, wait for `Exit`.
    Draining,
    /// `Exit` received (or, on rank 0, sent).
    Over,
}

/// The communication loop's state.
struct Comm<'a, T, N, P> {
    transport: &'a mut T,
    /// The number of this search on the cluster (see `wire`).
    search: u32,
    rank: usize,
    size: usize,
    policy: &'a mut dyn NodeVictimPolicy,
    global: &'a dyn Global,
    link: &'a Link<N>,
    start: Instant,
    safra: Safra,
    stats: RankStats,
    phase: Phase,
    /// A decision search found a witness somewhere.
    stopped: bool,
    /// Messages received before the loop started.
    stash: VecDeque<(usize, Msg<N, P>)>,
    /// Thieves waiting for an answer, oldest first, with the request's arrival.
    requests: VecDeque<(usize, Instant)>,
    /// Our own steal request: the victim and when it was sent.
    outstanding: Option<(usize, Instant)>,
    /// Refusals in a row (the next request waits longer after each).
    refusals: u32,
    next_steal: Instant,
    /// Rank 0: every rank's report once it is quiet.
    reports: Vec<Option<RankReport<P>>>,
    quiet: bool,
    sleep: Duration,
    /// The rank's pool, for its load reports.
    pool: Option<&'a ThreadPool>,
    meter: LoadMeter,
    /// When this rank sent each rank the probe whose reply has not come yet.
    probed: Vec<Option<Instant>>,
    /// A rank whose search failed (`Message::Failed`): the run ends with an error.
    failed: Option<usize>,
}

impl<'a, T, N, P> Comm<'a, T, N, P>
where
    T: Transport,
    N: Serialize + DeserializeOwned + Send + 'static,
    P: Serialize + DeserializeOwned + Send,
{
    fn new(
        transport: &'a mut T,
        search: u32,
        policy: &'a mut dyn NodeVictimPolicy,
        global: &'a dyn Global,
        link: &'a Link<N>,
        start: Instant,
    ) -> Self {
        let (rank, size) = (transport.rank(), transport.size());
        Self {
            transport,
            search,
            rank,
            size,
            policy,
            global,
            link,
            start,
            safra: Safra::new(rank, size),
            stats: RankStats {
                rank,
                ..RankStats::default()
            },
            phase: Phase::Running,
            stopped: false,
            stash: VecDeque::new(),
            requests: VecDeque::new(),
            outstanding: None,
            refusals: 0,
            next_steal: start,
            reports: (0..size).map(|_| None).collect(),
            quiet: false,
            sleep: Duration::ZERO,
            pool: None,
            meter: LoadMeter::new(None),
            probed: vec![None; size],
            failed: None,
        }
    }

    fn send(&mut self, to: usize, message: &Msg<N, P>) {
        let bytes = message.encode(self.search);
        self.stats.messages_sent += 1;
        self.stats.bytes_sent += bytes.len() as u64;
        if let Message::Work(nodes) = message {
            if !nodes.is_empty() {
                self.stats.work_bytes_sent += bytes.len() as u64;
            }
        }
        self.transport.send(to, bytes);
    }

    fn broadcast(&mut self, message: &Msg<N, P>) {
        let me = self.rank;
        for to in (0..self.size).filter(|&r| r != me) {
            self.send(to, message);
        }
    }

    /// Runs until the end of the run; on rank 0 returns every rank's report.
    fn run(
        &mut self,
        end: &Mutex<Option<SearchEnd<P>>>,
        search_ended: &AtomicBool,
    ) -> Result<Option<Vec<RankReport<P>>>, DistError> {
        while self.phase != Phase::Over {
            let mut busy = false;
            while let Some((from, message)) = self.stash.pop_front() {
                self.handle(from, message);
            }
            while let Some((from, bytes)) = self.transport.try_receive() {
                busy = true;
                let (search, message) = match Message::decode(&bytes) {
                    Ok(decoded) => decoded,
                    // The others would wait for this rank's token or report for ever.
                    Err(e) => {
                        self.tell_failed();
                        return Err(e.into());
                    }
                };
                if search == self.search {
                    self.handle(from, message);
                } // else: left over from an earlier search on this cluster (see `wire`)
            }
            if let Some(rank) = self.failed {
                return Err(DistError::SearchFailed { rank });
            }
            if self.phase == Phase::Running && search_ended.load(Ordering::Acquire) {
                // Acquire: as in `report`. While running, the search thread ends only
                // by a panic (`next_batch` waits for work until the end): without this
                // check this rank would never be passive again and every rank would
                // wait for the token forever.
                return Err(self.fail());
            }
            if let Some(bits) = self.global.improved_bound() {
                self.broadcast(&Message::Bound(bits));
            }
            if self.global.witness_found() && !self.stopped {
                self.stopped = true;
                self.link.discard();
                self.broadcast(&Message::Stop);
            }
            busy |= self.serve_requests();
            if self.phase == Phase::Running
                && self.policy.probe_due(self.rank, self.size, Instant::now())
            {
                let (now, me) = (Instant::now(), self.rank);
                for peer in (0..self.size).filter(|&r| r != me) {
                    // A reply to an earlier probe (a refresh the policy gave up on) is
                    // still on its way: it answers this one too, timed from the probe
                    // it answers. Probed again, the late reply would be timed from the
                    // new probe and make a slow rank look fast.
                    if self.probed[peer].is_none() {
                        self.probed[peer] = Some(now);
                        self.send(peer, &Message::Probe);
                    }
                }
            }
            match self.phase {
                Phase::Running => busy |= self.when_passive(),
                Phase::Draining => busy |= self.report(end, search_ended)?,
                Phase::Over => {}
            }
            self.pause(busy);
        }
        self.transport.flush();
        if self.rank != 0 {
            return Ok(None);
        }
        Ok(Some(self.reports.drain(..).flatten().collect()))
    }

    /// Sleeps until the next poll (see the module docs); not at all after progress.
    fn pause(&mut self, busy: bool) {
        if busy {
            self.sleep = Duration::ZERO;
            return;
        }
        self.sleep = if !self.requests.is_empty() || self.outstanding.is_some() {
            ANSWER_SLEEP
        } else if !self.link.is_passive() {
            SEARCH_SLEEP
        } else {
            (self.sleep * 2).clamp(ANSWER_SLEEP, MAX_SLEEP)
        };
        thread::sleep(self.sleep);
    }

    fn handle(&mut self, from: usize, message: Msg<N, P>) {
        match message {
            Message::StealRequest => self.requests.push_back((from, Instant::now())),
            Message::Work(nodes) => self.received_work(from, nodes),
            Message::Bound(bits) => self.global.raise_bound(bits),
            Message::Stop => {
                self.stopped = true;
                self.global.stop();
                self.link.discard();
            }
            Message::Probe => {
                let (searching, stealable) = self.link.activity();
                let load = self.meter.report(self.pool, searching, stealable);
                self.send(from, &Message::Load(load));
            }
            Message::Load(load) => {
                if let Some(sent) = self.probed[from].take() {
                    self.policy.observe_load(from, load, sent.elapsed());
                }
            }
            Message::Token(token) => self.safra.received_token(token),
            Message::Done => self.drain(),
            Message::Quiet(report) => self.reports[from] = Some(report),
            Message::Exit => self.phase = Phase::Over,
            Message::Failed => self.failed = Some(from),
            // The start handshake is over; a late copy changes nothing.
            Message::Ready(_) | Message::Start(_) => {}
        }
    }

    fn received_work(&mut self, from: usize, nodes: Vec<(N, usize)>) {
        if let Some((victim, sent)) = self.outstanding {
            if victim == from {
                self.outstanding = None;
                self.policy.observe(from, !nodes.is_empty(), sent.elapsed());
            }
        }
        if nodes.is_empty() {
            self.refusals += 1;
            let backoff = Duration::from_micros(50 << self.refusals.min(6));
            self.next_steal = Instant::now() + backoff;
            return;
        }
        self.refusals = 0;
        self.stats.steals_succeeded += 1;
        self.safra.received_basic();
        if !self.stopped && self.phase == Phase::Running {
            self.link.deliver(nodes);
        }
    }

    /// Answers waiting thieves: with what the search gave up, or with a refusal when
    /// this rank has nothing (or could not split anything off in time).
    fn serve_requests(&mut self) -> bool {
        if self.requests.is_empty() {
            self.link.want(false);
            // A task that saw the request wanted may give work up after its thief was
            // answered (refused after `REFUSE_AFTER`): search it here. Left in the
            // outbox it would keep this rank from ever being passive — and the token,
            // with it, from ever coming back — unless another thief happened to ask.
            let late = self.link.take_outbox();
            let found = !late.is_empty();
            if !self.stopped {
                self.link.deliver(late);
            }
            return found;
        }
        let mut served = false;
        let mut given = self.link.take_outbox();
        while let Some(&(thief, since)) = self.requests.front() {
            if !given.is_empty() {
                self.stats.steals_served += 1;
                self.stats.subtrees_sent += given.len() as u64;
                self.safra.sent_basic();
                self.send(thief, &Message::Work(std::mem::take(&mut given)));
                given = self.link.take_outbox();
            } else if self.stopped
                || self.phase != Phase::Running
                || since.elapsed() > REFUSE_AFTER
                || self.link.is_passive()
            {
                self.stats.steals_refused += 1;
                self.send(thief, &Message::Work(Vec::new()));
            } else {
                break;
            }
            self.requests.pop_front();
            served = true;
        }
        // Given up after its thief was answered: this rank searches it itself, unless
        // the decision search stopped (discarded like the rest of its waiting work).
        if !self.stopped {
            self.link.deliver(given);
        }
        self.link.want(!self.requests.is_empty());
        served
    }

    /// While passive: pass the token on (rank 0: maybe detect termination) and ask
    /// another rank for work.
    fn when_passive(&mut self) -> bool {
        if !self.link.is_passive() {
            return false;
        }
        let mut acted = false;
        match self.safra.on_passive() {
            Some(TokenAction::Forward(token)) => {
                let next = self.safra.next_rank();
                self.send(next, &Message::Token(token));
                acted = true;
            }
            Some(TokenAction::Terminated) => {
                self.broadcast(&Message::Done);
                self.drain();
                return true;
            }
            None => {}
        }
        let can_steal = self.size > 1 && !self.stopped && self.outstanding.is_none();
        if can_steal && Instant::now() >= self.next_steal {
            let victim = self.policy.choose(self.rank, self.size);
            self.stats.steals_requested += 1;
            self.send(victim, &Message::StealRequest);
            self.outstanding = Some((victim, Instant::now()));
            acted = true;
        }
        acted
    }

    /// This rank's search thread panicked: tell every rank (rank 0 would wait for our
    /// report, the others for the token), then end the run with an error.
    fn fail(&mut self) -> DistError {
        self.tell_failed();
        DistError::SearchFailed { rank: self.rank }
    }

    /// Tells every rank that this one's run ends with an error.
    fn tell_failed(&mut self) {
        self.broadcast(&Message::Failed);
        self.transport.flush();
    }

    /// Termination detected: no more stealing; the search thread ends.
    fn drain(&mut self) {
        self.phase = Phase::Draining;
        self.link.finish();
    }

    /// After termination, once our own request is answered and the search thread has
    /// ended: report to rank 0; rank 0 ends everyone once all have reported.
    fn report(
        &mut self,
        end: &Mutex<Option<SearchEnd<P>>>,
        search_ended: &AtomicBool,
    ) -> Result<bool, DistError> {
        let mut acted = false;
        if !self.quiet && self.outstanding.is_none() {
            // Acquire: pairs with the search thread's Release when it ends.
            let ended = search_ended.load(Ordering::Acquire);
            let result = end.lock().unwrap_or_else(|e| e.into_inner()).take();
            match result {
                Some((part, counters)) => {
                    let mut stats = self.stats.clone();
                    stats.nodes_expanded = counters.nodes_expanded;
                    stats.prunes = counters.prunes;
                    stats.tasks = counters.tasks;
                    stats.batches = counters.batches;
                    stats.idle = counters.idle;
                    stats.idle_cpu = counters.idle_cpu;
                    stats.elapsed = self.start.elapsed();
                    let report = RankReport { stats, part };
                    if self.rank == 0 {
                        self.reports[0] = Some(report);
                    } else {
                        self.send(0, &Message::Quiet(report));
                    }
                    self.quiet = true;
                    acted = true;
                }
                None if ended => return Err(self.fail()),
                None => {}
            }
        }
        if self.rank == 0 && self.quiet && self.reports.iter().all(Option::is_some) {
            self.broadcast(&Message::Exit);
            self.phase = Phase::Over;
            acted = true;
        }
        Ok(acted)
    }
}
