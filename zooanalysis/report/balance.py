"""The balance metrics every game gets (computed in ``zooanalysis.balance``) and the words
the report's appendix gives them."""

from __future__ import annotations

from zooanalysis.balance import (  # noqa: F401  (the report's names for them)
    LENGTH_TABLES,
    MARGIN_BIN_TOP,
    METRIC_COLUMNS,
    NOT_MEASURED,
    balance_metrics,
    length_histograms,
    margin_histogram,
    measured,
    seat_balance,
    trajectory_histograms,
)

DEFINITIONS = {
    "Win share": "A seat's (or strategy's) share of the wins: a game won alone counts 1, a "
    "game shared by k tied winners counts 1/k for each of them (the convention of Ludii's "
    "balance metrics), so the shares of all seats add up to the share of games that had a "
    "winner, and a fair game gives every seat the fair share 1/players. Its 95% interval is "
    "Wilson's score interval on (share summed over games, games): conservative, because an "
    "outcome between 0 and 1 with mean p has a variance of at most p(1 − p). By strategy, "
    "every seat a strategy plays counts as one trial per game. Every comparison with the "
    "fair share uses the win share.",
    "Won or shared": "The share of games a seat or strategy won, alone or tied (every tied "
    "winner counts as winning), with its 95% Wilson interval. With ties these add up to "
    "more than 100% over the seats, so they are not compared with the fair share.",
    "Balance across seats": "1 − the largest gap between two seats' win shares. 100% means "
    "every seat wins equally often. Its interval treats a game's seats as one multinomial "
    "draw (exact without ties, conservative with them); choosing the largest gap after the "
    "fact makes it slightly pessimistic for a perfectly fair game.",
    "First-player advantage": "Seat 1's win share minus the fair share 1/players, in "
    "percentage points, with the interval of seat 1's share. Seat 1 starts the first round. "
    "In a run without --rotate-seats, seat 1 always holds the same strategy, so this mixes "
    "seat order with strategy strength (the section 'Does seat order matter?' separates "
    "them where the run allows).",
    "Shared-win (tie) rate": "The share of games whose best standing was shared by two or "
    "more players (all of them win). In a team game (partners win together: Hodge Podge "
    "Dodgeball with 4 players, Chai Tea Jazz with 4 or 6) a game one team wins is one win for "
    "that team, not a tie of its players; the rate is then 'Games shared between teams', the "
    "share of games two or more teams won together, and the winner, the lead and the winning "
    "margin are the teams'.",
    "Game length": "Moves (every claim or doubt, every turn) and rounds per game: mean with "
    "its 95% interval, median and the 10th and 90th percentiles.",
    "Decisiveness": "Only games with a single winner. After every move that changes a "
    "score, the sole leader is the one player with the strictly best standing (Bluff in "
    "Zoo: fewest penalty points; other games: most points). With the moves numbered 0 to "
    "T−1, t is the first move from which the eventual winner is the sole leader at every "
    "later score check; the histogram puts t/T in twenty 5% bins: 'the winner leads for "
    "good after X% of the game'. The mean uses each bin's midpoint. Early settling means "
    "the rest of the game rarely changes the outcome.",
    "Lead changes": "How many times per game a sole leader appeared who differs from the "
    "most recent sole leader (the game's first sole leader is not a change). Moments with "
    "a shared lead do not count as a change by themselves.",
    "Winning margin": "The winners' final score minus the best score of a player who did "
    "not win, as a positive number of the game's own points (Bluff in Zoo: penalty points, "
    "fewer is better; other games: points), counted once per game that some player did not "
    "win (games every player won have no margin). Mean with its 95% normal-approximation "
    "interval; 'won by one point' is the share of those games with a margin of exactly 1, "
    "with its Wilson interval. The histogram's top bin (127) holds 127 or more, so the mean "
    "is a lower bound when it is reached. Small margins mean close games.",
    "Comebacks": "Only games with a single winner (see Decisiveness): the share in which the "
    "winner took the lead for good only in the second half of the game's moves, that is, at "
    "some score check after half the game someone else led or the lead was shared "
    "(settled at 50% or later), with its 95% Wilson interval.",
    "Decisions": "Every time the rules let a player choose (a card to play, a claim, whether "
    "to doubt, a question to ask ...; each game's reference engine lists its decisions in "
    "the 'decisions' field of its game record) is a decision, taken with some number of "
    "legal options. 'Branching factor' is the mean "
    "number of legal options per decision, 'real choice' the share of decisions with two or "
    "more (Ludii's decision moves; one option is a forced move), 'real decisions per game' "
    "their number in a game. The means' 95% intervals treat decisions, and games, as "
    "independent: decisions within a game are not, so the branching factor's interval is "
    "somewhat too narrow. Options at one decision count as distinct moves even when they "
    "lead to the same result (e.g. two cards of one rank). Bluff in Zoo counts every claim "
    "that bests the standing one, up to the most animals the deck could show, so its "
    "branching factor is mostly claims; Short Zoot Suit counts every draw pile a hand can "
    "make (1023 or more in the top bin). Bug House Millionaire counts every lead, follow "
    "(passing included) and gift when the player's thinking time is up; its thinking times "
    "and being stuck are no decisions. Through the Zoo counts its own decisions only, the "
    "Prepare mulligans (every set of hand cards up to the limit: 1023 or more in the top "
    "bin, one option in a last round with an empty deck); the card play of its exhibits "
    "belongs to those games and is not counted. Hodge Podge Dodgeball counts every card "
    "played (forced ones included), an All-Star's declaration (declarable suits x ranks) and "
    "a Ringer's (0 or 14) as a decision of their own, the setup bench and pass, every "
    "player's 'call a timeout?' before each trick while its team has one, a timeout's "
    "placing (or not) and taking, a hit or caught player's bench card, the leader after a "
    "block and a catch's bring-back (card x partner). "
    "Lucky Lions counts the turn's pick as one "
    "decision among (Zoo Card, opponent) pairs (a people-icon card, on which everyone rolls, "
    "is one option), a reduced die as any k of the die's cards, and each choice the rules "
    "or expansions give: which player to exclude, which roll to keep, whether to reroll a "
    "fox, which card a panda switches to, who discards on a tie and which card, who of three "
    "or more winners gets the card, taking the card or drawing instead; rolls and the "
    "powers that act by themselves are no decisions.",
    "Drama": "Only games with a single winner: the share still open in the last quarter, in "
    "which the winner took the lead for good only after 75% of the game's moves (settled at "
    "75% or later), with its 95% Wilson interval. Higher means the outcome stays in doubt "
    "longer. Like Comebacks it is read from the Decisiveness histogram, so it counts a "
    "shared lead as not leading.",
}
