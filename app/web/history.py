"""The journal's games for the web: the list, each game's hands, its chart and statistics."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.journal import Journal, JournalError
from app.misreads import MisreadKind, camera_record
from table import GameState, Team, replay
from table.hand import Hand, HandResult
from table.report import describe_hand
from table.seats import SEATS, TEAMS
from table.summary import summary


@contextmanager
def read_only(path: Path) -> Iterator[Journal]:
    """The journal opened for reading only: the web never writes, not even the schema.

    Every request opens its own connection, so reads run beside the table's writes (WAL).
    """
    if not path.is_file():
        raise JournalError(f"no journal at {path}")
    reader = object.__new__(Journal)
    reader.path = path
    try:
        reader._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.DatabaseError as error:
        raise JournalError(f"cannot read the journal {path}: {error}") from error
    try:
        yield reader
    finally:
        reader.close()


def games_list(journal: Journal) -> list[dict[str, Any]]:
    """Each game: number, start time, score, winner, status and number of hands."""
    current = journal.unfinished_game()
    games = []
    for record in journal.games():
        state = replay(journal.events(record.id))
        games.append({
            "id": record.id,
            "started_at": record.started_at,
            "finished_at": record.finished_at,
            "score": {Team.NS.value: record.score_ns, Team.EW.value: record.score_ew},
            "winner": record.winner,
            "status": "won" if record.winner else (
                "in progress" if record.id == current else "abandoned"),
            "hands": len(state.hands),
            "events": record.events,
        })
    return games


def game_detail(journal: Journal, game_id: int) -> dict[str, Any]:
    """One game: the replay summary, each hand's account and the score after each hand."""
    state = replay(journal.events(game_id))
    detail = summary(state)
    running = score_by_hand(state)
    for hand, text, after in zip(state.hands, _accounts(state), running[1:], strict=True):
        number = hand.number
        entry = next(h for h in detail["hands"] if h["number"] == number)
        entry["account"] = text
        entry["score_after"] = after
    detail.update(
        id=game_id,
        target=state.rules.target,
        rules=state.rules.to_mapping(),
        first_dealer=state.first_dealer.value,
        running=running,
    )
    return detail


def _accounts(state: GameState) -> list[list[str]]:
    return [describe_hand(hand) for hand in state.hands]


def score_by_hand(state: GameState) -> list[dict[str, int]]:
    """Both teams' scores before the first hand and after each hand, in order."""
    score = dict.fromkeys(TEAMS, 0)
    running = [{team.value: 0 for team in TEAMS}]
    for hand in state.hands:
        for team in TEAMS:
            score[team] += hand.points[team]
        running.append({team.value: score[team] for team in TEAMS})
    return running


def seat_statistics(journal: Journal) -> dict[str, Any]:
    """Per seat over every game: contracts made and set by bid, reneges, camera failures."""
    made: Counter[tuple[str, str]] = Counter()
    went_set: Counter[tuple[str, str]] = Counter()
    reneges: Counter[str] = Counter()
    unreadable: Counter[str] = Counter()
    misread: Counter[str] = Counter()
    games = journal.games()
    for record in games:
        state = replay(journal.events(record.id))
        for hand in state.hands:
            for renege in hand.reneges:
                reneges[renege.seat.value] += 1
            outcome = contract_outcome(hand)
            if outcome is not None:
                seat, bid, was_made = outcome
                (made if was_made else went_set)[(seat, bid)] += 1
        for failure in camera_record(journal.card_records(record.id)).misreads:
            (misread if failure.kind is MisreadKind.WRONG else unreadable)[failure.seat] += 1
    seats = {}
    for seat in SEATS:
        bids = sorted({bid for s, bid in made | went_set if s == seat.value}, key=_bid_order)
        seats[seat.value] = {
            "bids": {bid: {"made": made[(seat.value, bid)], "set": went_set[(seat.value, bid)]}
                     for bid in bids},
            "reneges": reneges[seat.value],
            "unreadable": unreadable[seat.value],
            "misread": misread[seat.value],
        }
    return {"games": len(games), "seats": seats}


def contract_outcome(hand: Hand) -> tuple[str, str, bool] | None:
    """(bidder, bid, made) of a hand played to its end; None for a redeal or a hand in play."""
    contract = hand.contract
    if hand.result is not HandResult.PLAYED or contract is None:
        return None
    needed = contract.bid.tricks if not contract.bid.is_alone else len(hand.tricks)
    won = hand.tricks_won[contract.team] >= needed
    return contract.seat.value, str(contract.bid.log_value), won


def _bid_order(bid: str) -> tuple[int, str]:
    return (int(bid), "") if bid.isdigit() else (100, bid)


def chart_svg(running: list[dict[str, int]], target: int, width: int = 360,
              height: int = 200) -> str:
    """Both teams' scores hand by hand as a small line chart, with the target drawn."""
    pad_left, pad_right, pad_top, pad_bottom = 34, 10, 12, 24
    values = [score[team.value] for score in running for team in TEAMS] + [target, 0]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    steps = max(len(running) - 1, 1)
    inner_w = width - pad_left - pad_right
    inner_h = height - pad_top - pad_bottom

    def x(index: int) -> float:
        return pad_left + inner_w * index / steps

    def y(value: int) -> float:
        return pad_top + inner_h * (high - value) / span

    colours = {Team.NS.value: "#1f77b4", Team.EW.value: "#d62728"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="score by hand">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<line x1="{pad_left}" y1="{y(0):.1f}" x2="{width - pad_right}" y2="{y(0):.1f}" '
        'stroke="#999" stroke-width="1"/>',
        f'<line class="target" x1="{pad_left}" y1="{y(target):.1f}" x2="{width - pad_right}" '
        f'y2="{y(target):.1f}" stroke="#2ca02c" stroke-dasharray="4 3"/>',
        f'<text x="{pad_left - 4}" y="{y(target) + 4:.1f}" text-anchor="end" font-size="10">'
        f"{target}</text>",
        f'<text x="{pad_left - 4}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="10">0</text>',
    ]
    for index in range(1, len(running)):
        parts.append(f'<text x="{x(index):.1f}" y="{height - 8}" text-anchor="middle" '
                     f'font-size="10">{index}</text>')
    for team, colour in colours.items():
        points = " ".join(f"{x(i):.1f},{y(score[team]):.1f}" for i, score in enumerate(running))
        parts.append(f'<polyline class="team-{team}" fill="none" stroke="{colour}" '
                     f'stroke-width="2" points="{points}"/>')
        for i, score in enumerate(running):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(score[team]):.1f}" r="2.5" '
                         f'fill="{colour}"><title>{team} {score[team]} after hand {i}'
                         "</title></circle>")
    legend_y = pad_top + 2
    for offset, (team, colour) in enumerate(colours.items()):
        parts.append(f'<text x="{pad_left + 6 + offset * 40}" y="{legend_y + 8}" '
                     f'font-size="11" fill="{colour}">{team}</text>')
    parts.append("</svg>")
    return "".join(parts)
