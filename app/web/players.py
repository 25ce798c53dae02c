"""Per player over the journal's games: who played (as recorded with each game), games, wins,
contracts made and set, moons, reneges; a small chart; and the games as CSV."""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Any

from app.journal import Journal
from app.web.history import contract_outcome
from table import replay
from table.bids import BidKind
from table.seats import SEATS, Seat

COUNTS = ("games", "wins", "made", "set", "moons", "moons_made", "reneges")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def player_statistics(journal: Journal) -> dict[str, Any]:
    """Each named player over every game they were recorded in, most wins first."""
    counts: dict[str, Counter[str]] = {}
    for record in journal.games():
        names = journal.players(record.id)
        if not names:
            continue
        state = replay(journal.events(record.id))

        def row(seat: Seat, names: dict[str, str] = names) -> Counter[str] | None:
            name = names.get(seat.value, "").strip()
            return counts.setdefault(name, Counter()) if name else None

        for seat in SEATS:
            if (player := row(seat)) is not None:
                player["games"] += 1
                player["wins"] += int(state.winner is seat.team)
        for hand in state.hands:
            for renege in hand.reneges:
                if (player := row(renege.seat)) is not None:
                    player["reneges"] += 1
            outcome = contract_outcome(hand)
            if outcome is None or (player := row(Seat(outcome[0]))) is None:
                continue
            player["made" if outcome[2] else "set"] += 1
            if hand.contract is not None and hand.contract.bid.kind is BidKind.MOON:
                player["moons"] += 1
                player["moons_made"] += int(outcome[2])
    ranked = sorted(counts.items(), key=lambda item: (-item[1]["wins"], -item[1]["games"],
                                                      item[0]))
    return {"players": [{"name": name, **{key: count[key] for key in COUNTS}}
                        for name, count in ranked]}


def players_chart_svg(players: list[dict[str, Any]], width: int = 360) -> str:
    """Games played and won per player as horizontal bars."""
    bar, gap, label_w = 14, 8, 120
    height = max(len(players), 1) * (bar + gap) + gap
    most = max([p["games"] for p in players] + [1])
    inner = width - label_w - 40
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} '
             f'{height}" width="100%" role="img" aria-label="games and wins per player">',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for index, player in enumerate(players):
        y = gap + index * (bar + gap)
        played = inner * player["games"] / most
        won = inner * player["wins"] / most
        parts += [
            f'<text x="{label_w - 6}" y="{y + bar - 3}" text-anchor="end" font-size="11">'
            f"{_xml(player['name'][:18])}</text>",
            f'<rect class="played" x="{label_w}" y="{y}" width="{played:.1f}" height="{bar}" '
            'fill="#bbb"/>',
            f'<rect class="won" x="{label_w}" y="{y}" width="{won:.1f}" height="{bar}" '
            'fill="#2ca02c"/>',
            f'<text x="{label_w + played + 4:.1f}" y="{y + bar - 3}" font-size="11">'
            f"{player['wins']}/{player['games']}</text>",
        ]
    parts.append("</svg>")
    return "".join(parts)


def games_csv(journal: Journal) -> str:
    """Every game as a CSV line: number, times, both pairs, score, winner and hands."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["game", "started_at", "finished_at", "ns_players", "ew_players",
                     "ns_score", "ew_score", "winner", "hands"])
    for record in journal.games():
        names = journal.players(record.id)
        state = replay(journal.events(record.id))
        pair = [" & ".join(names.get(seat, seat) for seat in seats)
                for seats in (("N", "S"), ("E", "W"))]
        writer.writerow([record.id, record.started_at, record.finished_at or "",
                         *map(cell, pair), record.score_ns, record.score_ew,
                         record.winner or "", len(state.hands)])
    return out.getvalue()


def cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def _xml(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
