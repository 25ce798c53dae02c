"""The table's referee: turns button presses and card sightings into engine events."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import update_wrapper
from typing import Concatenate, ParamSpec, TypeVar

from app.entry import Keyed, KeyEntry, Stage
from app.journal import UNREADABLE, Journal, Provenance
from app.notices import Notice, NoticeKind, Problems, describe
from app.prompts import (
    PAGE_INPUTS,
    TOUCH_INPUTS,
    Answer,
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    HandShown,
    MisreadPrompt,
    NamingAsked,
    PageInput,
    Pending,
    PickPrompt,
    PickReason,
    PlayCorrected,
    PlayedChosen,
    PlayedPrompt,
    Prompt,
    PromptAnswered,
    SeatCardNamed,
    SuspectPrompt,
    TouchInput,
)
from drivers import inputs
from drivers.keys import key_name_of
from table import (
    JOKER,
    AceNoFaceClaimed,
    Bid,
    BidKind,
    BidMade,
    Card,
    CardCorrected,
    CardParseError,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    GameState,
    Hand,
    InvalidEvent,
    Phase,
    Renege,
    Rules,
    Seat,
    Suit,
    TrumpNamed,
    Undone,
    replay,
)
from table.hand import Play

__all__ = ["Notice", "NoticeKind", "Problems", "TableController", "describe"]

CAMERA = "camera"
PERSON = "person"
UNREADABLE_PROMPT_S = 3.0

P = ParamSpec("P")
R = TypeVar("R")


def atomic(
    method: Callable[Concatenate[TableController, P], R],
) -> Callable[Concatenate[TableController, P], R]:
    """One input, all or nothing: its writes commit together, or the table is as it was."""

    def wrapper(self: TableController, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.all_or_nothing():
            return method(self, *args, **kwargs)

    update_wrapper(wrapper, method)
    return wrapper


@dataclass(frozen=True, slots=True)
class _Before:
    """What an input may change, as it was before the input."""

    game_id: int
    events: list[Event]
    questions: tuple[object, ...]


class TableController:
    """Owns the game state and the journal; every accepted event is journaled first."""

    def __init__(
        self,
        journal: Journal,
        rules: Rules,
        dealer: Seat = Seat.N,
        seat_confirms: bool = False,
        *,
        clock: Callable[[], float] = time.monotonic,
        unreadable_prompt_s: float = UNREADABLE_PROMPT_S,
    ) -> None:
        """`seat_confirms`: shared value keys only propose; the seat's own OK decides who.

        A card the camera cannot read for `unreadable_prompt_s` (by `clock`) is asked for.
        """
        self.journal = journal
        self.seat_confirms = seat_confirms
        self.clock = clock
        self.unreadable_prompt_s = unreadable_prompt_s
        self.proposal: inputs.BidPressed | inputs.TrumpPressed | None = None
        self.rules = rules
        self.first_dealer = dealer
        self.held: dict[Seat, Card] = {}
        self._held_from: dict[Seat, Pending] = {}
        self._held_hand = 0
        self.problems = Problems()
        self.prompts: list[Prompt] = []  # the first is on the screen
        self.entry = KeyEntry()
        self._entry_seat: Seat | None = None
        self._named: set[Seat] = set()  # unreadable cards a person has named where they lie
        self._inside = False
        self.events: list[Event] = []  # the game's journaled events, Undone included
        game_id = journal.latest_game()
        if game_id is None:
            self.game_id, self.state = self._start(rules, dealer)
        else:
            self.game_id = game_id
            self.events = journal.events(game_id)
            self.state = replay(self.events)
        # Played cards still lying on the table: seeing one again records nothing.
        self.on_table: set[tuple[Seat, Card]] = {
            (Seat(seat), Card.parse(card)) for seat, card in journal.on_table(self.game_id)
        }

    def _start(self, rules: Rules, dealer: Seat) -> tuple[int, GameState]:
        start = GameStarted(dealer=dealer, rules=rules)
        game_id = self.journal.start_game(start)
        self.events = [start]
        return game_id, GameState(start)

    # ---- all or nothing ------------------------------------------------------------------

    _QUESTIONS = ("proposal", "held", "_held_from", "_held_hand", "problems", "prompts",
                  "entry", "_entry_seat", "_named", "on_table")

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """Run one input in one journal transaction; if it fails, put everything back."""
        if self._inside:
            yield
            return
        before = _Before(
            self.game_id,
            list(self.events),
            tuple(copy.deepcopy(getattr(self, name)) for name in self._QUESTIONS),
        )
        self._inside = True
        try:
            with self.journal.atomic():
                yield
        except BaseException:
            self._put_back(before)
            raise
        finally:
            self._inside = False

    def _put_back(self, before: _Before) -> None:
        """The table as it was before an input whose journal transaction failed."""
        changed = self.game_id != before.game_id or len(self.events) != len(before.events)
        self.game_id, self.events = before.game_id, before.events
        if changed:
            self.state = replay(self.events)
        for name, value in zip(self._QUESTIONS, before.questions, strict=True):
            setattr(self, name, value)

    @property
    def prompt(self) -> Prompt | None:
        """What the screen asks the players now, if anything."""
        return self.prompts[0] if self.prompts else None

    # ---- inputs ------------------------------------------------------------------------

    @atomic
    def on_input(self, pressed: inputs.PlayerInput | TouchInput | PageInput) -> list[Notice]:
        """Handle one button press, a touch on the screen, or a correction from the page."""
        if isinstance(pressed, TOUCH_INPUTS):
            return self._on_touch(pressed)
        if isinstance(pressed, PAGE_INPUTS):
            return self._on_page(pressed)
        keyed = self._on_key(pressed)
        if keyed is not None:
            return keyed
        if (
            self.seat_confirms
            and isinstance(pressed, inputs.BidPressed | inputs.TrumpPressed)
            and pressed.seat is None
        ):
            self.proposal = pressed
            if isinstance(pressed, inputs.BidPressed):
                what = f"bid {pressed.bid}"
            else:
                what = f"name trump {Suit(pressed.suit).symbol}"
            return [Notice(NoticeKind.HELD, f"to {what}, press OK on your own pad")]
        if isinstance(pressed, inputs.ConfirmPressed) and pressed.seat and self.proposal:
            proposal, self.proposal = self.proposal, None
            return self.on_input(replace(proposal, seat=pressed.seat))
        match pressed:
            case inputs.BidPressed(seat, bid):
                return self._submit(BidMade(self._seat(seat), Bid.parse(bid)))
            case inputs.PassPressed(seat):
                return self._submit(BidMade(self._seat(seat), Bid.parse("pass")))
            case inputs.TrumpPressed(seat, suit):
                return self._submit(TrumpNamed(self._seat(seat), Suit(suit)))
            case inputs.ConfirmPressed(seat):
                return self._confirm()
            case inputs.UndoPressed():
                self._forget_questions()
                return self._submit(Undone())
            case inputs.NewGameConfirmed():
                return self.new_game()
            case inputs.AceNoFaceClaimed(seat):
                if seat is None:
                    return [
                        Notice(
                            NoticeKind.REFUSED, "Ace No Face: press it on the claimant's own pad"
                        )
                    ]
                return self._submit(AceNoFaceClaimed(Seat(seat)))
        return [Notice(NoticeKind.REFUSED, f"unknown input {pressed!r}")]

    @atomic
    def on_card(self, seat: Seat, card: Card | None, identified: bool = False) -> list[Notice]:
        """A card the camera saw come to rest in `seat`'s zone; None when unreadable.

        `identified`: the camera now reads a card it first reported unreadable, where it lies.
        A joker read where the deck has none is a misreading: the card counts as unreadable.
        """
        if card == JOKER and not self.rules_in_force.joker:
            card = None
        if card is None:
            self.problems.unreadable_since.setdefault(seat, self.clock())
            return [
                Notice(
                    NoticeKind.UNREADABLE_CARD,
                    f"{seat}: card unreadable, place it flat in your zone",
                    seat,
                )
            ]
        if identified and seat in self._named:
            self._named.discard(seat)
            return []  # a person named this card already: their word stands
        self.problems.unreadable_since.pop(seat, None)
        self._close(lambda p: isinstance(p, PickPrompt) and p.seat is seat)
        if (seat, card) in self.on_table and (seat, card) in self._trick_on_table():
            return []  # the same card seen again where it lies, e.g. after a restart
        return self._place(Pending(seat, card, CAMERA, card.code))

    @atomic
    def on_card_removed(self, seat: Seat, card: Card | None) -> list[Notice]:
        """A card left `seat`'s zone: gathered with its trick, or a held card taken back."""
        if card is not None and (seat, card) in self.on_table:
            self.on_table.discard((seat, card))
            self.journal.set_on_table(self.game_id, self._on_table_codes())
        if card is not None and self.held.get(seat) == card:
            del self.held[seat]
            self._held_from.pop(seat, None)
        if card is not None and self.problems.already_played.get(seat) == card:
            del self.problems.already_played[seat]
            self._close(lambda p: isinstance(p, SuspectPrompt) and p.seat is seat)
        if card is None:
            self.problems.unreadable_since.pop(seat, None)
            self._named.discard(seat)
            self._close(
                lambda p: isinstance(p, PickPrompt)
                and p.seat is seat
                and p.reason is PickReason.UNREADABLE
            )
        return []

    def tick(self) -> list[Notice]:
        """Let time pass: a card unreadable for long enough is asked for by name."""
        now = self.clock()
        notices: list[Notice] = []
        for seat, since in sorted(self.problems.unreadable_since.items()):
            if now - since < self.unreadable_prompt_s or seat in self._named:
                continue
            if any(isinstance(p, PickPrompt) and p.seat is seat for p in self.prompts):
                continue
            self.prompts.append(PickPrompt(seat, PickReason.UNREADABLE))
            message = f"{seat}: the camera cannot read your card: name it"
            notices.append(Notice(NoticeKind.PROMPT, message, seat))
        return notices

    @atomic
    def new_game(self) -> list[Notice]:
        """Close the current game in the journal and start a fresh one, the deal passing on."""
        dealer = self.state.dealer
        self.game_id, self.state = self._start(self.rules, dealer)
        self.on_table.clear()
        self._forget_questions()
        return [Notice(NoticeKind.NEW_GAME, f"new game, {dealer} deals")]

    @property
    def rules_in_force(self) -> Rules:
        """The rules of the game being played (a resumed game keeps its own)."""
        return self.state.rules

    # ---- keys towards cards, seats and tricks -------------------------------------------

    def _on_key(self, pressed: inputs.PlayerInput) -> list[Notice] | None:
        """A key that names a card, a seat or a trick, or answers the screen; None otherwise."""
        key = key_name_of(pressed)
        if key is None:
            return None
        prompt = self.prompt
        if isinstance(pressed, inputs.CardKeyPressed):
            self.entry.clear()
            self.entry.stage = Stage.CARD
            self._entry_seat = Seat(pressed.seat) if pressed.seat else None
            return self._ask_name(self._entry_seat)
        if isinstance(pressed, inputs.CorrectKeyPressed):
            if isinstance(prompt, SuspectPrompt):
                return self._answer(Answer.CORRECT)
            if isinstance(prompt, MisreadPrompt):
                return self._answer(Answer.MISREAD)
            self.entry.clear()
            self.entry.stage = Stage.SEAT
            return self._open_played(message="correct a card: the seat key (3 4 5 6 = N E S W)")
        if self.entry.stage in (Stage.SEAT, Stage.TRICK) and not isinstance(prompt, PlayedPrompt):
            self.entry.clear()  # the list of played cards was closed: the keys mean themselves
        if key == "UNDO" and self.entry.partial:
            self.entry.clear()
            return [Notice(NoticeKind.ENTRY, "entry dropped")]
        if self.entry.stage is Stage.SEAT:
            return self._keyed(self.entry.seat_key(key), "press a seat key: 3 4 5 6 = N E S W")
        if self.entry.stage is Stage.TRICK:
            return self._keyed(self.entry.trick_key(key), "press a trick key: 3 to MOON = 1 to 6")
        if not self._naming_card():
            return None
        keyed = self.entry.card_key(key, self.rules_in_force.joker)
        if keyed is None:
            if self.entry.rank is not None:
                return [Notice(NoticeKind.REFUSED, "press a suit key to finish the card, or UNDO")]
            return None
        return self._keyed(keyed, "")

    def _keyed(self, keyed: Keyed | None, wrong: str) -> list[Notice]:
        if keyed is None:
            return [Notice(NoticeKind.REFUSED, wrong)]
        if keyed.card is not None:
            seat, self._entry_seat = self._entry_seat, None
            return self._card_named(keyed.card, seat)
        if keyed.seat is not None:
            self._entry_seat = keyed.seat
            played = self.prompt
            if isinstance(played, PlayedPrompt):
                self.prompts[0] = replace(played, seat=keyed.seat)
        if keyed.trick is not None:
            seat, self._entry_seat = self._entry_seat, None
            played = self.prompt
            if seat is None or not isinstance(played, PlayedPrompt):
                return [Notice(NoticeKind.REFUSED, "no card chosen to correct")]
            return self._choose_played(played.hand, keyed.trick, seat)
        return [Notice(NoticeKind.ENTRY, keyed.message)]

    def _naming_card(self) -> bool:
        """Whether rank and suit keys name a card now."""
        prompt = self.prompt
        if self.entry.stage is Stage.CARD or isinstance(prompt, PickPrompt | CorrectionPrompt):
            return True
        return prompt is None and self.state.phase is Phase.PLAY

    # ---- touches and answers -------------------------------------------------------------

    def _on_touch(self, touch: TouchInput) -> list[Notice]:
        match touch:
            case CardNamed(code, seat):
                try:
                    card = Card.parse(code)
                except CardParseError as error:
                    return [Notice(NoticeKind.REFUSED, str(error))]
                if seat is None and not isinstance(self.prompt, PickPrompt | CorrectionPrompt):
                    return [Notice(NoticeKind.REFUSED, f"no card is asked for: {card} ignored")]
                self.entry.clear()
                return self._card_named(card, seat)
            case PromptAnswered(answer):
                return self._answer(answer)
            case PlayedChosen(hand, trick, seat):
                self.entry.clear()
                return self._choose_played(hand, trick, seat)
            case CorrectionOpened():
                self.entry.clear()
                return self._open_played(message="touch the card to correct")
            case HandShown(number):
                played = self.prompt
                if isinstance(played, PlayedPrompt) and number in self.correctable_hands():
                    self.prompts[0] = PlayedPrompt(number)
                    return [Notice(NoticeKind.PROMPT, f"the cards of hand {number}")]
                return [Notice(NoticeKind.REFUSED, f"hand {number} cannot be corrected here")]
            case NamingAsked(seat):
                self.entry.clear()
                return self._ask_name(seat)
        return [Notice(NoticeKind.REFUSED, f"unknown touch {touch!r}")]

    def _ask_name(self, seat: Seat | None) -> list[Notice]:
        """Open the pick for `seat`, an unreadable seat's card, or the seat whose turn it is."""
        prompt = self.prompt
        if isinstance(prompt, PickPrompt | CorrectionPrompt) and seat is None:
            return [Notice(NoticeKind.ENTRY, "name the card: rank key, then suit key")]
        target = seat or min(self.problems.unreadable, default=None) or self._turn_to_play()
        if target is None:
            self.entry.clear()
            return [Notice(NoticeKind.REFUSED, "no card to name now")]
        self._close(lambda p: isinstance(p, PickPrompt) and p.seat is target)
        reason = PickReason.UNREADABLE if target in self.problems.unreadable else PickReason.ASKED
        self.prompts.insert(0, PickPrompt(target, reason))
        return [Notice(NoticeKind.PROMPT, f"{target}: name the card", target)]

    def _answer(self, answer: Answer) -> list[Notice]:
        prompt = self.prompt
        if prompt is None:
            return [Notice(NoticeKind.REFUSED, "nothing is asked now")]
        self.entry.clear()
        match prompt:
            case PickPrompt(seat) if answer in (Answer.OK, Answer.CANCEL):
                self.prompts.pop(0)
                self.problems.unreadable_since.pop(seat, None)
                return [Notice(NoticeKind.ACCEPTED, f"{seat}: no card named")]
            case PlayedPrompt() if answer in (Answer.OK, Answer.CANCEL):
                self.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "no correction")]
            case CorrectionPrompt(play, chosen) if answer in (Answer.OK, Answer.CONFIRM):
                if chosen is None:
                    return [Notice(NoticeKind.REFUSED, f"first name the card {play.seat} played")]
                return self._correct(prompt, chosen)
            case CorrectionPrompt() if answer is Answer.CANCEL:
                self.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "correction cancelled")]
            case SuspectPrompt(seat, card, earlier, pending) if answer is Answer.CORRECT:
                self.prompts[0] = CorrectionPrompt(earlier, then=pending)
                return [
                    Notice(
                        NoticeKind.PROMPT,
                        f"what did {earlier.seat} play in trick {earlier.trick}?",
                        earlier.seat,
                    )
                ]
            case SuspectPrompt(seat, card) if answer in (Answer.OK, Answer.NO, Answer.CANCEL):
                self.prompts[0] = PickPrompt(seat, PickReason.DISPUTED, camera_read=card)
                self.problems.already_played.pop(seat, None)
                return [Notice(NoticeKind.PROMPT, f"{seat}: name the card, not {card}", seat)]
            case MisreadPrompt() if answer is Answer.OK:
                self.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "renege stands")]
            case MisreadPrompt(renege, hand) if answer is Answer.MISREAD:
                play = Play(hand, renege.trick, renege.seat, renege.card)
                self.prompts[0] = CorrectionPrompt(play)
                return [
                    Notice(
                        NoticeKind.PROMPT,
                        f"what did {renege.seat} play in trick {renege.trick}?",
                        renege.seat,
                    )
                ]
        return [Notice(NoticeKind.REFUSED, f"{answer} does not answer this question")]

    def _card_named(self, card: Card, seat: Seat | None) -> list[Notice]:
        """A person named `card`: the corrected card, or the card lying in a seat's zone."""
        prompt = self.prompt
        if isinstance(prompt, CorrectionPrompt):
            play = prompt.play
            self.prompts[0] = replace(prompt, chosen=card, refused=None)
            return [
                Notice(
                    NoticeKind.PROMPT,
                    f"{play.seat}'s card of trick {play.trick} was {card}? OK to confirm",
                    play.seat,
                    card,
                )
            ]
        if seat is None and isinstance(prompt, PickPrompt):
            seat = prompt.seat
        target = seat or self._turn_to_play()
        if target is None:
            return [Notice(NoticeKind.REFUSED, f"no card to name now: {card} not recorded")]
        return self._name_at(card, target)

    def _name_at(self, card: Card, target: Seat) -> list[Notice]:
        """A person named `card` as the card lying in `target`'s zone."""
        camera_read: str | None = None
        if target in self.problems.unreadable:
            camera_read = UNREADABLE
            self._named.add(target)
        for asked in self.prompts:
            if isinstance(asked, PickPrompt) and asked.seat is target and asked.camera_read:
                camera_read = asked.camera_read.code
        self.problems.unreadable_since.pop(target, None)
        self._close(lambda p: isinstance(p, PickPrompt) and p.seat is target)
        if (target, card) in self._trick_on_table():
            return [Notice(NoticeKind.ACCEPTED, f"{target}'s {card} is recorded already", target)]
        return self._place(Pending(target, card, PERSON, camera_read))

    # ---- the phone page ------------------------------------------------------------------

    def _on_page(self, asked: PageInput) -> list[Notice]:
        """What the pick or a correction at the table does, in one step; a refusal leaves the
        screen's questions as they were (and a half-keyed entry on the panel is kept)."""
        if asked.card == JOKER and not self.rules_in_force.joker:
            return [Notice(NoticeKind.REFUSED, "the joker is not in this deck")]
        if isinstance(asked, SeatCardNamed):
            return self._name_at(asked.card, asked.seat)
        return self._correct_from_page(asked)

    def _correct_from_page(self, asked: PlayCorrected) -> list[Notice]:
        if asked.hand not in self.correctable_hands():
            hands = " or ".join(map(str, self.correctable_hands())) or "none yet"
            return [Notice(NoticeKind.REFUSED,
                           f"hand {asked.hand} cannot be corrected here (hands: {hands})")]
        hand = self._hand(asked.hand)
        card = None
        if hand is not None and 1 <= asked.trick <= len(hand.tricks):
            card = hand.tricks[asked.trick - 1].card_of(asked.seat)
        if card is None:
            return [Notice(NoticeKind.REFUSED,
                           f"{asked.seat} has no card in trick {asked.trick} of hand {asked.hand}")]
        prompt = CorrectionPrompt(Play(asked.hand, asked.trick, asked.seat, card))
        self.prompts.insert(0, prompt)
        notices = self._correct(prompt, asked.card)
        if notices[0].kind is NoticeKind.REFUSED:
            self.prompts.pop(0)  # the refused correction of the page is not left on the screen
        return notices

    # ---- corrections ---------------------------------------------------------------------

    def _open_played(self, message: str) -> list[Notice]:
        hand = self._correction_hand()
        if hand is None:
            self.entry.clear()
            return [Notice(NoticeKind.REFUSED, "no card has been played yet")]
        self._close(lambda p: isinstance(p, PlayedPrompt))
        self.prompts.insert(0, PlayedPrompt(hand.number))
        return [Notice(NoticeKind.PROMPT, message)]

    def _choose_played(self, number: int, trick: int, seat: Seat) -> list[Notice]:
        hand = self._hand(number)
        card = None
        if hand is not None and 1 <= trick <= len(hand.tricks):
            card = hand.tricks[trick - 1].card_of(seat)
        if card is None:
            self.entry.clear()
            return [
                Notice(NoticeKind.REFUSED, f"{seat} has no card in trick {trick} of hand {number}")
            ]
        self._close(lambda p: isinstance(p, PlayedPrompt))
        self.prompts.insert(0, CorrectionPrompt(Play(number, trick, seat, card)))
        return [
            Notice(NoticeKind.PROMPT, f"{seat}'s {card} of trick {trick}: name the real card", seat)
        ]

    def _correct(self, prompt: CorrectionPrompt, card: Card) -> list[Notice]:
        play = prompt.play
        event = CardCorrected(play.hand, play.trick, play.seat, card)
        read = self._camera_reading(play)
        notices = self._submit(event, Provenance(PERSON, read, play.hand, play.trick))
        if notices[0].kind is NoticeKind.REFUSED:
            self.prompts[0] = replace(prompt, chosen=None, refused=notices[0].message)
            return notices
        self._close(lambda p: p is prompt or isinstance(p, MisreadPrompt | SuspectPrompt))
        if prompt.then is not None:
            self.problems.already_played.pop(prompt.then.seat, None)
            notices.extend(self._place(prompt.then))
        return notices

    def _camera_reading(self, play: Play) -> str | None:
        """What the camera had read at `play`, if the card recorded there is its reading."""
        for record in reversed(self.journal.card_records(self.game_id)):
            provenance = record.provenance
            if (
                provenance is not None
                and (provenance.hand, provenance.trick) == (play.hand, play.trick)
                and getattr(record.event, "seat", None) is play.seat
            ):
                return play.card.code if provenance.source == CAMERA else None
        return None

    def _correction_hand(self) -> Hand | None:
        """The hand whose cards may be corrected first: the latest with cards played."""
        hands = self._correctable()
        return hands[-1] if hands else None

    def _correctable(self) -> list[Hand]:
        return [hand for hand in self.state.hands if hand.tricks][-2:]

    def correctable_hands(self) -> list[int]:
        """The hands whose cards the players may correct: the current and the last."""
        return [hand.number for hand in self._correctable()]

    def hand(self, number: int) -> Hand | None:
        """Hand `number` of the game, if it has been reached."""
        return self._hand(number)

    def _hand(self, number: int) -> Hand | None:
        for hand in [*self.state.completed, self.state.hand]:
            if hand.number == number:
                return hand
        return None

    # ---- placing a named card ------------------------------------------------------------

    def _place(self, named: Pending) -> list[Notice]:
        """A card lying in a seat's zone, read by the camera or named by a person."""
        seat, card = named.seat, named.card
        hand = self.state.hand
        if hand.played[card] >= self.rules_in_force.copies:
            self.problems.already_played[seat] = card
            where = hand.where_played(card)
            detail = ""
            if where is not None:
                earlier = Play(hand.number, where[0], where[1], card)
                self._close(lambda p: isinstance(p, SuspectPrompt) and p.seat is seat)
                self.prompts.insert(0, SuspectPrompt(seat, card, earlier, named))
                detail = f" (trick {where[0]} by {where[1]}: misread there?)"
            return [
                Notice(
                    NoticeKind.ALREADY_PLAYED,
                    f"{card} was already played this hand{detail}: not recorded",
                    seat,
                    card,
                )
            ]
        contract = hand.contract
        if contract is not None and seat is contract.sitting_out:
            self.problems.out_of_turn[seat] = card
            return [Notice(NoticeKind.OUT_OF_TURN, f"{seat} sits out this hand", seat, card)]
        if self.state.phase is Phase.PLAY and self.state.turn is seat:
            return self._submit(CardPlayed(seat, card), self._provenance(named))
        replaced = self.held.get(seat)
        self.held[seat] = card
        self._held_from[seat] = named
        self._held_hand = hand.number
        message = f"{seat}'s {card} waits for {seat}'s turn"
        if replaced is not None:
            message += f" (instead of {replaced})"
        return [Notice(NoticeKind.HELD, message, seat, card)]

    def _provenance(self, named: Pending) -> Provenance:
        """Who named a card about to be played, and where it will lie."""
        hand = self.state.hand
        trick = hand.current_trick
        number = len(hand.tricks) + (0 if trick is not None and trick.winner is None else 1)
        return Provenance(named.source, named.camera_read, hand.number, number)

    # ---- internals ---------------------------------------------------------------------

    def _on_table_codes(self) -> list[tuple[str, str]]:
        return [(seat.value, card.code) for seat, card in self.on_table]

    def _trick_on_table(self) -> set[tuple[Seat, Card]]:
        """The plays of the trick lying on the table: the one in progress, else the last one
        completed (across a hand's end) until the next lead."""
        state = self.state
        hand = state.hand if state.hand.tricks else (state.completed or [state.hand])[-1]
        return set(hand.tricks[-1].cards) if hand.tricks else set()

    def _turn_to_play(self) -> Seat | None:
        return self.state.turn if self.state.phase is Phase.PLAY else None

    def _close(self, which: Callable[[Prompt], bool]) -> None:
        self.prompts = [prompt for prompt in self.prompts if not which(prompt)]

    def _forget_questions(self) -> None:
        self.held.clear()
        self._held_from.clear()
        self.problems.clear()
        self.prompts.clear()
        self.entry.clear()
        self._named.clear()

    def _seat(self, seat: str | None) -> Seat:
        """The seat that pressed, or the seat whose turn it is for a shared panel."""
        if seat is not None:
            return Seat(seat)
        return self.state.turn or Seat.N

    def _confirm(self) -> list[Notice]:
        phase, turn = self.state.phase, self.state.turn
        prompt = self.prompt
        if prompt is not None:
            answer = Answer.NO if isinstance(prompt, SuspectPrompt) else Answer.OK
            return self._answer(answer)
        if self.problems:
            self.problems.clear()
            return [Notice(NoticeKind.ACCEPTED, "problems dismissed")]
        if phase is Phase.EXCHANGE and turn is not None:
            return self._submit(ExchangeDone(turn))
        if phase is Phase.DISCARD and turn is not None:
            return self._submit(DealerDiscarded(turn))
        return [Notice(NoticeKind.REFUSED, "nothing to confirm")]

    def _submit(self, event: Event, provenance: Provenance | None = None) -> list[Notice]:
        """Apply, journal, then report; held cards whose turn came are played after."""
        notices = self._apply(event, provenance)
        if notices and notices[0].kind is NoticeKind.REFUSED:
            return notices
        if isinstance(event, BidMade) and event.bid.kind is BidKind.MOON:
            notices.extend(self._forced_passes())
        notices.extend(self._play_held())
        return notices

    def _apply(self, event: Event, provenance: Provenance | None = None) -> list[Notice]:
        was = self._card_at(event) if isinstance(event, CardCorrected) else None
        try:
            self.state.apply(event)
        except InvalidEvent as error:
            return [Notice(NoticeKind.REFUSED, error.reason)]
        if isinstance(event, CardPlayed):
            self.on_table.add((event.seat, event.card))
        if isinstance(event, CardCorrected) and (event.seat, was) in self.on_table:
            self.on_table.discard((event.seat, was))
            self.on_table.add((event.seat, event.card))
        self.on_table &= self._trick_on_table()
        self.events.append(event)
        self.journal.append(self.game_id, event, self.state, self._on_table_codes(), provenance)
        notices = [
            Notice(
                NoticeKind.ACCEPTED,
                describe(event),
                _seat_of(event),
                event.card if isinstance(event, CardPlayed | CardCorrected) else None,
            )
        ]
        if isinstance(event, CardPlayed):
            self.problems.clear(event.seat)
            self._close(lambda p: isinstance(p, PickPrompt) and p.seat is event.seat)
        for renege in self.state.newly_proven:
            notices.append(
                Notice(NoticeKind.RENEGE, f"renege by {renege.seat}", renege.seat, renege.card,
                       renege)
            )
            self.prompts.append(MisreadPrompt(renege, self._hand_of(renege)))
        return notices

    def _card_at(self, event: CardCorrected) -> Card | None:
        hand = self._hand(event.hand)
        if hand is None or not 1 <= event.trick <= len(hand.tricks):
            return None
        return hand.tricks[event.trick - 1].card_of(event.seat)

    def _hand_of(self, renege: Renege) -> int:
        """The number of the hand a just-proven renege belongs to."""
        hand = self.state.hand
        if renege in hand.reneges or not self.state.completed:
            return hand.number
        return self.state.completed[-1].number

    def _forced_passes(self) -> list[Notice]:
        """After a moon the others can only pass: the table records it for them."""
        notices: list[Notice] = []
        while self.state.phase is Phase.BIDDING and self.state.turn is not None:
            notices.extend(self._apply(BidMade(self.state.turn, Bid.parse("pass"))))
        return notices

    def _play_held(self) -> list[Notice]:
        if self.held and self.state.hand.number != self._held_hand:
            self.held.clear()  # a card held over from a finished hand means nothing now
            self._held_from.clear()
        notices: list[Notice] = []
        while self.state.phase is Phase.PLAY and self.state.turn in self.held:
            seat = self.state.turn
            assert seat is not None
            card = self.held.pop(seat)
            named = self._held_from.pop(seat, Pending(seat, card, CAMERA, card.code))
            result = self._apply(CardPlayed(seat, card), self._provenance(named))
            if result and result[0].kind is NoticeKind.REFUSED:
                self.problems.out_of_turn[seat] = card
                result = [Notice(NoticeKind.OUT_OF_TURN, result[0].message, seat, card)]
            notices.extend(result)
        return notices


def _seat_of(event: Event) -> Seat | None:
    return getattr(event, "seat", None)
