"""Input paused while the journal cannot write, resumed by a probe write on a backoff."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.journal import Journal, JournalUnavailable
from drivers.backoff import Backoff

RETRY_FIRST_S = 0.5
RETRY_MAX_S = 5.0


@dataclass
class JournalPause:
    """Whether input is paused for the journal, why, and when to try writing again."""

    journal: Journal
    clock: Callable[[], float]
    backoff: Backoff = field(default_factory=lambda: Backoff(RETRY_FIRST_S, 2.0, RETRY_MAX_S))
    reason: str | None = None
    retry_at: float = 0.0
    failures: int = 0

    @property
    def paused(self) -> bool:
        """True while input is refused."""
        return self.reason is not None

    @property
    def message(self) -> str:
        """The standing problem, for the screen and the refusal of an input."""
        return f"journal cannot write: {self.reason} — input paused"

    def fail(self, error: JournalUnavailable) -> None:
        """A write failed: pause input and schedule the next probe."""
        self.reason = error.reason
        self.failures += 1
        self.retry_at = self.clock() + self.backoff.next_delay()

    def retry(self) -> bool:
        """Probe the journal when due; True when this call resumed input."""
        if self.reason is None or self.clock() < self.retry_at:
            return False
        try:
            self.journal.probe()
        except JournalUnavailable as error:
            self.fail(error)
            return False
        self.reason = None
        self.backoff.reset()
        return True
