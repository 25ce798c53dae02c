"""The club's rankings: pairs over the finished games, the games grouped into club nights, and
the results as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from app.web.players import cell

NIGHT_TURNS_H = 6  # a game finished before 6 in the morning belongs to the evening before


def pair_name(table: str, team: str, players: Mapping[str, str]) -> str:
    """A team as the standings name it: its players' names, else the table and the seats."""
    seats = ("N", "S") if team == "NS" else ("E", "W")
    names = [players.get(seat, seat) for seat in seats]
    if names == list(seats):
        return f"{table} {team}"
    return " & ".join(names)


def standings(finished: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pair over the finished games: played, won, points for and against; best first."""
    rows: dict[str, dict[str, Any]] = {}
    for game in finished:
        players = game.get("players") or {}
        score = game.get("score") or {}
        for team, other in (("NS", "EW"), ("EW", "NS")):
            name = pair_name(str(game["table"]), team, players)
            row = rows.setdefault(name, {"pair": name, "played": 0, "won": 0,
                                         "points_for": 0, "points_against": 0})
            row["played"] += 1
            row["won"] += int(game.get("winner") == team)
            row["points_for"] += int(score.get(team, 0))
            row["points_against"] += int(score.get(other, 0))
    return sorted(rows.values(), key=lambda r: (-r["won"], r["points_against"] - r["points_for"],
                                                r["pair"]))


def night_of(stamp: object, zone: tzinfo | None = None) -> str | None:
    """The club night a game belongs to: its evening's date in the club's time (`zone`, else
    this machine's); None for a game without a readable time."""
    if not isinstance(stamp, str):
        return None
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when.astimezone(zone) - timedelta(hours=NIGHT_TURNS_H)).date().isoformat()


def club_nights(finished: list[dict[str, Any]], zone: tzinfo | None = None
                ) -> list[dict[str, Any]]:
    """The finished games night by night, newest first: the tables, the games and the night's
    final ranking of the pairs."""
    nights: dict[str, list[dict[str, Any]]] = {}
    for game in finished:
        night = night_of(game.get("finished_at") or game.get("started_at"), zone)
        if night is not None:
            nights.setdefault(night, []).append(game)
    return [{"night": night, "games": len(games),
             "tables": sorted({str(game["table"]) for game in games}),
             "standings": standings(games)}
            for night, games in sorted(nights.items(), reverse=True)]


def club_csv(finished: list[dict[str, Any]]) -> str:
    """The finished games as CSV: table, game, times, both pairs, score, winner, hands."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["table", "game", "night", "started_at", "finished_at", "ns_pair", "ew_pair",
                     "ns_score", "ew_score", "winner", "hands"])
    for game in finished:
        table, players = str(game["table"]), game.get("players") or {}
        score = game.get("score") or {}
        writer.writerow([cell(table), game.get("id"),
                         night_of(game.get("finished_at") or game.get("started_at")) or "",
                         cell(str(game.get("started_at") or "")),
                         cell(str(game.get("finished_at") or "")),
                         cell(pair_name(table, "NS", players)),
                         cell(pair_name(table, "EW", players)),
                         score.get("NS"), score.get("EW"), game.get("winner") or "",
                         game.get("hands")])
    return out.getvalue()
