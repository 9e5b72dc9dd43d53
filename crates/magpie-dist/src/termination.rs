//! Termination detection with messages in flight: Safra's token algorithm (Dijkstra,
//! EWD998). The crate README argues why no rank can stop early or hang.
//!
//! Only *basic* messages count: replies that carry work, the only messages that can
//! make a passive rank active. Every rank keeps `count` = basic messages sent minus
//! received, and turns black when it receives one. A token travels the ring
//! 0 → 1 → … → n−1 → 0; a rank passes it on only while passive, adding its count and
//! blackening it if the rank is black, and then turns white. Rank 0 declares
//! termination when the token comes back white, rank 0 is white and passive, and the
//! token's sum plus rank 0's count is zero; otherwise it starts another round.

use serde::{Deserialize, Serialize};

/// The token: the sum of the counts of the ranks it passed and whether any was black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    /// Basic messages sent minus received, summed over the ranks visited this round.
    pub count: i64,
    /// Some visited rank had received a basic message since it last passed the token.
    pub black: bool,
}

/// What a rank should do with the token it holds, once it is passive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenAction {
    /// Send this token to the next rank of the ring.
    Forward(Token),
    /// Rank 0 only: every rank is passive and no work is in flight.
    Terminated,
}

/// One rank's side of Safra's algorithm.
#[derive(Debug)]
pub struct Safra {
    rank: usize,
    ranks: usize,
    count: i64,
    black: bool,
    /// The token, while this rank holds it.
    token: Option<Token>,
    /// Rank 0: a round is under way (the token in hand came back from one).
    round_started: bool,
}

impl Safra {
    /// Rank `rank` of `ranks`; rank 0 starts holding a fresh token.
    pub fn new(rank: usize, ranks: usize) -> Self {
        assert!(rank < ranks, "rank {rank} of {ranks}");
        Self {
            rank,
            ranks,
            count: 0,
            black: false,
            token: (rank == 0).then_some(Token {
                count: 0,
                black: false,
            }),
            round_started: false,
        }
    }

    /// The rank the token goes to from here.
    pub fn next_rank(&self) -> usize {
        (self.rank + 1) % self.ranks
    }

    /// A basic message (work) was sent.
    pub fn sent_basic(&mut self) {
        self.count += 1;
    }

    /// A basic message (work) was received.
    pub fn received_basic(&mut self) {
        self.count -= 1;
        self.black = true;
    }

    /// The token arrived.
    pub fn received_token(&mut self, token: Token) {
        debug_assert!(self.token.is_none(), "two tokens");
        self.token = Some(token);
    }

    /// Whether this rank holds the token.
    pub fn holds_token(&self) -> bool {
        self.token.is_some()
    }

    /// Called while the rank is passive: what to do with the token it holds (`None`
    /// if it holds none). Rank 0 with a returned token either detects termination or
    /// starts a new round.
    pub fn on_passive(&mut self) -> Option<TokenAction> {
        let token = self.token.take()?;
        if self.rank == 0 {
            if self.ranks == 1 {
                return Some(TokenAction::Terminated);
            }
            // The initial token has not been round yet: it is the same white zero
            // token a new round starts with, and a round cannot decide on its own.
            if self.round_started && !token.black && !self.black && token.count + self.count == 0 {
                return Some(TokenAction::Terminated);
            }
            self.round_started = true;
            self.black = false;
            return Some(TokenAction::Forward(Token {
                count: 0,
                black: false,
            }));
        }
        let forwarded = Token {
            count: token.count + self.count,
            black: token.black || self.black,
        };
        self.black = false;
        Some(TokenAction::Forward(forwarded))
    }
}

#[cfg(test)]
mod tests {
    use super::{Safra, Token, TokenAction};

    /// Rank 0 (passive) starts a round: the token it sends.
    fn start(ranks: &mut [Safra]) -> Token {
        match ranks[0].on_passive() {
            Some(TokenAction::Forward(token)) => token,
            other => panic!("rank 0 did not start a round: {other:?}"),
        }
    }

    /// Carries `token` from rank 1 round the ring (all passive) back to rank 0;
    /// returns what rank 0 then does.
    fn round(ranks: &mut [Safra], mut token: Token) -> TokenAction {
        for rank in ranks.iter_mut().skip(1) {
            rank.received_token(token);
            match rank.on_passive() {
                Some(TokenAction::Forward(t)) => token = t,
                other => panic!("rank forwarded {other:?}"),
            }
        }
        ranks[0].received_token(token);
        ranks[0].on_passive().unwrap()
    }

    #[test]
    fn a_single_rank_terminates_at_once() {
        let mut alone = Safra::new(0, 1);
        assert_eq!(alone.on_passive(), Some(TokenAction::Terminated));
    }

    #[test]
    fn quiet_ring_terminates_after_one_full_round() {
        let mut ranks: Vec<Safra> = (0..3).map(|r| Safra::new(r, 3)).collect();
        let token = start(&mut ranks);
        assert_eq!(round(&mut ranks, token), TokenAction::Terminated);
    }

    #[test]
    fn work_in_flight_keeps_the_ring_running() {
        let mut ranks: Vec<Safra> = (0..3).map(|r| Safra::new(r, 3)).collect();
        // Rank 2 sent work to rank 1 that has not arrived: the counts sum to 1.
        ranks[2].sent_basic();
        let token = start(&mut ranks);
        let TokenAction::Forward(token) = round(&mut ranks, token) else {
            panic!("terminated with work in flight");
        };
        assert_eq!(
            token,
            Token {
                count: 0,
                black: false
            },
            "a fresh round"
        );
        // It arrives: rank 1 turns black, so the next round fails too ...
        ranks[1].received_basic();
        let TokenAction::Forward(token) = round(&mut ranks, token) else {
            panic!("terminated although rank 1 was black");
        };
        // ... and the one after that, with everything delivered and white, succeeds.
        assert_eq!(round(&mut ranks, token), TokenAction::Terminated);
    }

    #[test]
    fn work_received_behind_the_token_blackens_the_round() {
        let mut ranks: Vec<Safra> = (0..3).map(|r| Safra::new(r, 3)).collect();
        let Some(TokenAction::Forward(token)) = ranks[0].on_passive() else {
            panic!()
        };
        ranks[1].received_token(token);
        let Some(TokenAction::Forward(token)) = ranks[1].on_passive() else {
            panic!()
        };
        // After the token left rank 1, rank 2 sends it work and then passes the token
        // (the sum is balanced: +1 at rank 2, -1 at rank 1, which the token missed).
        ranks[2].sent_basic();
        ranks[1].received_basic();
        ranks[2].received_token(token);
        let Some(TokenAction::Forward(token)) = ranks[2].on_passive() else {
            panic!()
        };
        assert_eq!(
            token.count, 1,
            "rank 1's receipt is not in this round's sum"
        );
        ranks[0].received_token(token);
        assert!(matches!(
            ranks[0].on_passive(),
            Some(TokenAction::Forward(_))
        ));
    }

    #[test]
    fn rank_zero_receiving_work_fails_the_round() {
        let mut ranks: Vec<Safra> = (0..2).map(|r| Safra::new(r, 2)).collect();
        let Some(TokenAction::Forward(token)) = ranks[0].on_passive() else {
            panic!()
        };
        ranks[1].sent_basic();
        ranks[0].received_basic();
        ranks[1].received_token(token);
        let Some(TokenAction::Forward(token)) = ranks[1].on_passive() else {
            panic!()
        };
        ranks[0].received_token(token);
        assert!(matches!(
            ranks[0].on_passive(),
            Some(TokenAction::Forward(_))
        ));
    }
}
