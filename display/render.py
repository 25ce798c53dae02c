"""`render(view, surface)`: draw the whole table display for one view."""

from __future__ import annotations

import pygame

from display.cards import SEATS, TEAMS, Renege, team_of
from display.layout import layout_for
from display.painter import Painter
from display.prompt_layout import is_question
from display.prompt_render import draw_prompt
from display.prompts import MisreadQuestion
from display.style import Style
from display.targets import TouchTarget
from display.text import Align, Fonts, PlacedText
from display.view import BidMade, Phase, Problem, View
from display.wording import (
    bid_text,
    card_rank_text,
    contract_headline,
    contract_need,
    exchange_steps,
    legal_calls_text,
    problem_advice,
    problem_headline,
    proved_together,
    renege_detail,
    renege_headline,
    renege_short,
    status_line,
    suit_symbol,
)

FLASH_HZ = 2.0
TURN_PHASES = (Phase.DISCARD, Phase.BIDDING, Phase.TRUMP, Phase.PLAY)
_shared_fonts: Fonts | None = None


def shared_fonts() -> Fonts:
    """One font cache for the process."""
    global _shared_fonts
    if _shared_fonts is None:
        _shared_fonts = Fonts()
    return _shared_fonts


def render(
    view: View,
    surface: pygame.Surface,
    now: float = 0.0,
    *,
    style: Style | None = None,
    pressed: str | None = None,
    touched: TouchTarget | None = None,
    fonts: Fonts | None = None,
) -> list[PlacedText]:
    """Draw `view` over all of `surface`; `now` (seconds) drives the alarm's flashing.

    `pressed` names a button ("ok" or "undo") to draw as pressed, `touched` a prompt's touch
    target. Returns every text drawn, with the box it had to fit in.
    """
    painter = TablePainter(surface, layout_for(*surface.get_size()), style or Style(),
                           fonts or shared_fonts())
    painter.draw(view, now, pressed, touched)
    return painter.placed


def flash_on(now: float) -> bool:
    """Whether the flashing alarm is in its bright half-period at `now`."""
    return int(now * FLASH_HZ * 2) % 2 == 0


class TablePainter(Painter):
    """Draws one frame of the table display."""

    def draw(self, view: View, now: float, pressed: str | None,
             touched: TouchTarget | None = None) -> None:
        """Everything, back to front; a prompt on top (a card pick covers all but the scores)."""
        self.surface.fill(self.style.felt)
        self.draw_scores(view)
        prompt = view.prompt
        if prompt is not None and not is_question(prompt):
            draw_prompt(self, view, prompt, flash=True, touched=touched)
            return
        self.draw_status(view)
        if prompt is None:
            self.draw_buttons(pressed)
        if view.phase is Phase.GAME_OVER:
            self.draw_game_over(view)
        elif view.phase is Phase.HAND_END and view.hand_end is not None:
            self.draw_hand_end(view)
        else:
            self.draw_contract(view)
            self.draw_table(view)
            self.draw_tricks(view)
        if view.problems:
            self.draw_problems(view.problems, view)
        if view.alarm is not None and not isinstance(prompt, MisreadQuestion):
            self.draw_alarm(view.alarm, view, now)
        if prompt is not None:
            flash = view.alarm is None or flash_on(now)
            draw_prompt(self, view, prompt, flash=flash, touched=touched)

    def draw_scores(self, view: View) -> None:
        """Both teams' scores, the target, the dealer and the hand number."""
        bidding_team = view.contract.team if view.contract else None
        for team, rect in (("NS", self.layout.score_ns), ("EW", self.layout.score_ew)):
            won = view.winner == team
            marked = team == bidding_team or won
            self.box(rect, self.style.bidding_team if marked else self.style.panel)
            gap = self.layout.gap
            left = pygame.Rect(rect.x + gap, rect.y, round(rect.width * 0.58), rect.height)
            number = pygame.Rect(left.right + gap, rect.y, rect.right - left.right - 2 * gap,
                                 rect.height).inflate(0, -gap)
            code, names = self.split(left.inflate(0, -gap), 0.55)
            self.text(team, code, align=Align.LEFT, wrap=False)
            players = view.names.team_label(team).removeprefix(team).strip()
            self.text(players or "team", names, self.style.ink_soft, align=Align.LEFT)
            self.text(str(view.scores[team]), number, align=Align.RIGHT, wrap=False)
        self.box(self.layout.info, self.style.panel)
        top, bottom = self.split(self.layout.info.inflate(-self.layout.gap, -self.layout.gap), 0.5)
        self.text(f"to {view.target} · hand {view.hand_number}", top, self.style.ink_soft)
        if view.phase is Phase.HAND_END:
            self.text(f"Next dealer {view.names.label(view.dealer)}", bottom)
        elif view.phase is Phase.GAME_OVER:
            self.text("Game over", bottom)
        else:
            self.text(f"Dealer {view.names.label(view.dealer)}", bottom)

    def draw_status(self, view: View) -> None:
        """The line that says what the table waits for (narrower beside a question)."""
        rect = self.layout.status if view.prompt is None else self.layout.side_status
        self.box(rect, self.style.panel)
        self.text(status_line(view), rect.inflate(-2 * self.layout.gap, -self.layout.gap))

    def draw_buttons(self, pressed: str | None) -> None:
        """The on-screen CORRECT, OK and UNDO buttons."""
        for name, rect, colour in (("correct", self.layout.correct_button, self.style.panel_dim),
                                   ("ok", self.layout.ok_button, self.style.button_ok),
                                   ("undo", self.layout.undo_button, self.style.button_undo)):
            fill = self.style.button_pressed if pressed == name else colour
            ink = self.style.ink if pressed == name or name == "correct" else self.style.on_button
            self.box(rect, fill)
            self.text(name.upper(), rect.inflate(-2 * self.layout.gap, -2 * self.layout.gap), ink,
                      wrap=False)

    def draw_contract(self, view: View) -> None:
        """Left panel: the high bid while bidding, then the contract with a large trump symbol."""
        rect = self.layout.left
        self.box(rect, self.style.panel)
        contract = view.contract
        if contract is None:
            title, badge, headline, detail = self.rows(rect, [0.7, 2.3, 1.0, 1.0])
            self.text("High bid", title, self.style.ink_soft)
            high = view.high_bid
            self.text(bid_text(high.bid) if high else "–", badge, wrap=False)
            self.text(f"by {view.names.label(high.seat)}" if high else "no bid yet", headline)
            if view.legal_bids:
                self.text(legal_calls_text(view.legal_bids), detail, self.style.ink_soft)
            return
        title, badge, headline, need, out = self.rows(rect, [0.6, 2.4, 0.9, 0.6, 0.6])
        self.text("Trump", title, self.style.ink_soft)
        self.draw_trump(contract.trump, badge)
        if contract.bid in ("ask", "moon"):
            self.box(headline, self.style.highlight)
        self.text(contract_headline(contract, view.names), headline.inflate(-self.layout.gap, 0))
        lines = [contract_need(contract)]
        if contract.sitting_out is not None:
            lines.append(f"{view.names.label(contract.sitting_out)} sits out")
        size = self.common_size(lines, [need, out][: len(lines)])
        for band, line in zip((need, out), lines, strict=False):
            self.text(line, band, largest=size)

    def draw_trump(self, trump: str | None, area: pygame.Rect) -> None:
        """The trump suit as a large symbol on a white tile; a question mark until it is named."""
        side = min(area.width, area.height)
        tile = pygame.Rect(0, 0, side, side)
        tile.center = area.center
        self.box(tile, self.style.card)
        self.box(tile, self.style.card_edge, max(2, self.layout.gap // 3))
        symbol = suit_symbol(trump) if trump else "?"
        colour = self.style.suit_colour(trump) if trump else self.style.ink_soft
        inner = tile.inflate(-side // 8, -side // 8)
        self.text(symbol, inner, colour, suits=False, wrap=False, largest=round(side * 1.1))

    def draw_table(self, view: View) -> None:
        """The drawn table: each seat's bid (while bidding) or card (during play) at its side."""
        pygame.draw.rect(self.surface, self.style.felt_line, self.layout.centre,
                         max(1, self.layout.gap // 3), border_radius=self.layout.gap * 2)
        bids = {made.seat: made for made in view.bids}
        sitting_out = view.contract.sitting_out if view.contract else None
        labels = {seat: self.seat_label(view, seat) for seat in SEATS}
        label_boxes = {seat: self.label_box(seat) for seat in SEATS}
        label_size = self.common_size([labels[s] for s in SEATS], [label_boxes[s] for s in SEATS])
        for seat in SEATS:
            slot = self.layout.seats[seat]
            is_turn = view.turn == seat and view.phase in TURN_PHASES
            self.draw_label(labels[seat], slot.label, is_turn, label_size)
            if seat == sitting_out:
                self.box(slot.card, self.style.felt_line)
                self.text("sits out", slot.card.inflate(-self.layout.gap, -self.layout.gap),
                          self.style.on_felt)
                continue
            if view.phase is Phase.BIDDING or (view.trick is None and seat in bids):
                self.draw_bid(bids.get(seat), slot.card, is_turn)
            else:
                card = view.trick.card_of(seat) if view.trick else None
                wins = view.trick is not None and view.trick.winner == seat
                self.draw_card(card, slot.card, is_turn, wins)
        if view.phase is Phase.EXCHANGE and view.contract is not None:
            self.draw_exchange(view)

    def label_box(self, seat: str) -> pygame.Rect:
        """Where a seat label's text goes inside its label area."""
        return self.layout.seats[seat].label.inflate(-self.layout.gap, -2)

    def seat_label(self, view: View, seat: str) -> str:
        """A seat's name as shown beside its card."""
        return view.names.label(seat)

    def draw_label(self, text: str, rect: pygame.Rect, is_turn: bool, size: int) -> None:
        """A seat label, on a highlight when it is that seat's turn."""
        box = rect.inflate(-self.layout.gap, -2)
        if is_turn:
            self.box(rect, self.style.highlight)
            self.text(text, box, self.style.ink, largest=size)
        else:
            self.text(text, box, self.style.on_felt, largest=size, suits=False)

    def draw_bid(self, made: BidMade | None, rect: pygame.Rect, is_turn: bool) -> None:
        """A seat's bid on a card-sized tile: the number, ASK, MOON, pass, or ? at their turn."""
        edge = max(2, self.layout.gap // 2)
        if made is None:
            self.box(rect, self.style.highlight if is_turn else self.style.felt_line, edge)
            if is_turn:
                self.text("?", rect.inflate(-2 * edge, -2 * edge), self.style.highlight,
                          wrap=False)
            return
        passed = made.bid == "pass"
        self.box(rect, self.style.panel_dim if passed else self.style.card)
        inner = rect.inflate(-2 * edge, -rect.height // 3)
        self.text(bid_text(made.bid), inner, self.style.ink_soft if passed else self.style.ink,
                  wrap=False)

    def draw_card(self, card: str | None, rect: pygame.Rect, is_turn: bool, wins: bool) -> None:
        """A played card (rank over a large suit symbol), or an empty place."""
        edge = max(2, self.layout.gap // 2)
        if card is None:
            self.box(rect, self.style.highlight if is_turn else self.style.felt_line, edge)
            return
        self.box(rect, self.style.card)
        frame = self.style.winner if wins else self.style.card_edge
        self.box(rect, frame, edge * 2 if wins else max(1, edge // 2))
        inner = rect.inflate(-2 * edge, -2 * edge)
        rank_box, suit_box = self.split(inner, 0.45)
        if card == "JK":
            self.text("JKR", rank_box, self.style.ink, wrap=False)
            self.text("★", suit_box, self.style.ink, wrap=False)
            return
        colour = self.style.suit_colour(card[1])
        self.text(card_rank_text(card), rank_box, colour, wrap=False)
        self.text(suit_symbol(card[1]), suit_box, colour, suits=False, wrap=False)

    def draw_exchange(self, view: View) -> None:
        """The ask exchange, step by step, over the drawn table."""
        contract = view.contract
        assert contract is not None
        area = self.layout.centre.inflate(-2 * self.layout.gap, -2 * self.layout.gap)
        self.box(area, self.style.bidding_team)
        self.box(area, self.style.ink, max(2, self.layout.gap // 3))
        steps = exchange_steps(contract, view.names)
        bands = self.rows(area, [1.0] * len(steps))
        size = self.common_size(steps, bands)
        for band, step in zip(bands, steps, strict=True):
            self.text(step, band, largest=size)

    def draw_tricks(self, view: View) -> None:
        """Right panel: tricks won by each team against the bid, the last trick, the reneges."""
        rect = self.layout.right
        self.box(rect, self.style.panel)
        weights = [0.8, 0.6, 1.0, 1.0, 0.8, 0.6] + ([0.7] * min(2, len(view.reneges)))
        title_band, led_band, *bands = self.rows(rect, weights)
        trick = view.trick
        self.text(f"Trick {trick.number}" if trick is not None else "Tricks", title_band)
        if trick is not None:
            if trick.winner is not None:
                note = f"won by {view.names.label(trick.winner)}"
            elif trick.cards:
                note = f"led by {view.names.label(trick.leader)}"
            else:
                note = f"{view.names.label(trick.leader)} leads"
            self.text(note, led_band, self.style.ink_soft)
        contract = view.contract
        counts = []
        for team in TEAMS:
            count = f"{team}  {view.tricks_won[team]}"
            if contract is not None and contract.team == team:
                count += f" of {contract.tricks_needed}"
            counts.append(count)
        size = self.common_size(counts, bands[0:2], wrap=False)
        for band, count in zip(bands[0:2], counts, strict=True):
            self.text(count, band, wrap=False, largest=size)
        last = view.last_trick_winner
        if last is not None:
            self.text(f"last trick: {view.names.label(last)}", bands[2], self.style.ink_soft,
                      wrap=False)
        if view.reneges:
            self.text(f"Reneges: {len(view.reneges)}", bands[3], self.style.alarm_dim)
            for band, renege in zip(bands[4:], view.reneges[-2:], strict=False):
                self.text(renege_short(renege), band, self.style.alarm_dim)

    def draw_problems(self, problems: tuple[Problem, ...], view: View) -> None:
        """Problems for a human, in amber over the drawn table, one band each."""
        area = self.layout.problem_area
        self.box(area, self.style.problem)
        self.box(area, self.style.on_problem, max(2, self.layout.gap // 2))
        bands = self.layout.problem_bands(len(problems))
        for band, problem in zip(bands, problems, strict=True):
            headline, advice = self.split(band, 0.5)
            self.text(problem_headline(problem, view.names), headline, self.style.on_problem,
                      suits=False)
            self.text(problem_advice(problem, view.turn, view.names), advice,
                      self.style.on_problem,
                      suits=False)

    def draw_alarm(self, renege: Renege, view: View, now: float) -> None:
        """The renege alarm: a large red panel over the middle, flashing between two reds."""
        area = self.layout.alarm_area
        bright = flash_on(now)
        self.box(area, self.style.alarm if bright else self.style.alarm_dim)
        self.box(area, self.style.on_alarm, max(3, self.layout.gap))
        title, who, detail = self.rows(area.inflate(-2 * self.layout.gap, -2 * self.layout.gap),
                                       [1.4, 1.0, 1.3])
        also = proved_together(renege, view.reneges)
        count = 1 + len(also)
        self.text(renege_headline(renege, view.names, count), title, self.style.on_alarm,
                  suits=False)
        points = view.renege_penalty * count
        penalty = f"{team_of(renege.seat)} lose {points} points when the hand is scored"
        self.text(penalty, who, self.style.on_alarm, suits=False)
        self.text(renege_detail(renege, also), detail, self.style.on_alarm, suits=False)

    def draw_hand_end(self, view: View) -> None:
        """The end of a hand: the contract's fate, then tricks, penalties, points and new score."""
        summary = view.hand_end
        assert summary is not None
        area = self.layout.middle
        self.box(area, self.style.panel)
        title_band, *grid = self.rows(area, [1.4, 1.0, 1.0, 1.0, 1.0, 1.0])
        contract = summary.contract
        if summary.result == "redeal":
            title = f"Hand {summary.number}: all passed, redeal"
        elif summary.result == "ace_no_face":
            title = f"Hand {summary.number}: Ace No Face, redeal"
        elif contract is None:
            title = f"Hand {summary.number}"
        else:
            taken = summary.tricks[contract.team]
            if summary.made:
                title = (f"Hand {summary.number}: {contract.team} made {bid_text(contract.bid)}"
                         f" ({taken} tricks)")
            else:
                title = (f"Hand {summary.number}: {contract.team} set, bid "
                         f"{bid_text(contract.bid)}, took {taken}")
        title_size = self.text(title, title_band, suits=False).size
        rows = [("", "NS", "EW"),
                ("Tricks", str(summary.tricks.ns), str(summary.tricks.ew)),
                ("Renege penalty", signed(-summary.penalties.ns), signed(-summary.penalties.ew)),
                ("Points", signed(summary.points.ns), signed(summary.points.ew)),
                ("Score", str(summary.scores.ns), str(summary.scores.ew))]
        if summary.result in ("redeal", "ace_no_face"):
            message = grid[0].union(grid[1])
            self.text("no points scored", message, self.style.ink_soft, largest=title_size)
            grid, rows = grid[-2:], [rows[0], rows[-1]]
        for band, (label, ns, ew) in zip(grid, rows, strict=True):
            first_w = round(band.width * 0.46)
            col_w = (band.width - first_w) // 2
            cells = [pygame.Rect(band.x, band.y, first_w, band.height),
                     pygame.Rect(band.x + first_w, band.y, col_w, band.height),
                     pygame.Rect(band.x + first_w + col_w, band.y, col_w, band.height)]
            if label == "Score":
                self.box(band, self.style.bidding_team)
            for cell, value in zip(cells, (label, ns, ew), strict=True):
                if value:
                    self.text(value, cell.inflate(-self.layout.gap, 0), wrap=False,
                              align=Align.LEFT if cell is cells[0] else Align.CENTER)

    def draw_game_over(self, view: View) -> None:
        """The end of the game: the winner and the final score."""
        area = self.layout.middle
        self.box(area, self.style.bidding_team)
        title, names, score = self.rows(area, [1.5, 0.8, 1.5])
        winner = view.winner
        self.text(f"{winner} WIN" if winner else "GAME OVER", title, wrap=False)
        players = view.names.team_label(winner).removeprefix(winner).strip() if winner else ""
        if players:
            self.text(players, names, self.style.ink_soft)
        self.text(f"NS {view.scores.ns}  ·  EW {view.scores.ew}", score, wrap=False)


def signed(value: int) -> str:
    """"+4", "-2" or "0"."""
    return f"{value:+d}" if value else "0"
