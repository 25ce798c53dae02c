# The panel's side of the cardtable line protocol (see drivers/panel_protocol.py and README.md).
# Plain Python that runs on MicroPython and CPython alike (f-strings hold only names, as
# MicroPython's f-strings want): no hardware here, so the
# Pi-side tests drive this very code as their fake panel.

PROTOCOL = 2
FIRMWARE = "2.0.0"
NAME = "cardtable-panel"
QUEUE_LIMIT = 64
LOST_MEMORY = 64
HEARTBEAT_MS = 1000
MAX_LINE = 200
LED_NAMES = ("N", "E", "S", "W", "ACCEPT", "RENEGE")
OWN_VERBS = ("DOWN", "UP", "HB", "DONE", "LOST", "ERR")  # what we send: never a command


def checksum(body):
    """Two hex digits: the XOR of every byte of `body`."""
    total = 0
    for char in body:
        total ^= ord(char)
    return "{:02X}".format(total)  # noqa: UP032 (kept simple for MicroPython)


def frame(body):
    """A line as it goes on the wire, without its LF: `body*hh`."""
    return body + "*" + checksum(body)


def unframe(line):
    """(body, checked): the body of a line, and whether it carried a correct checksum.

    A line without a checksum is returned as it is, unchecked; a wrong checksum gives None.
    """
    star = line.rfind("*")
    if star < 0 or len(line) - star != 3:
        return line, False
    body = line[:star]
    if line[star + 1:].upper() != checksum(body):
        return None, False
    return body, True


class PanelCore:
    """Numbers key edges, keeps each until the Pi acknowledges it by name, answers commands.

    `write(line)` sends one line without its checksum and LF; the transport frames it.
    """

    def __init__(self, write, seat=None, boot="0", on_led=None, on_buzz=None):
        self.write = write
        self.seat = seat
        self.boot = boot
        self.on_led = on_led
        self.on_buzz = on_buzz
        self.seq = 0
        self.unacked = []  # [(seq, line)], oldest first
        self.lost = []  # seqs dropped from a full queue (the last LOST_MEMORY of them)
        self.dropped = 0
        self.last_heartbeat = None
        self.buffer = ""

    def start(self):
        """Say who we are unasked at power-up, so a Pi already listening sees the reboot."""
        self.hello()

    def key_edge(self, label, pressed, ms):
        """Report a debounced button edge and keep it until acknowledged."""
        self.seq += 1
        verb = "DOWN" if pressed else "UP"
        line = f"{verb} {self.seq} {ms} {label}"
        self.unacked.append((self.seq, line))
        if len(self.unacked) > QUEUE_LIMIT:
            gone = self.unacked.pop(0)[0]
            self.dropped += 1
            self.lost.append(gone)
            if len(self.lost) > LOST_MEMORY:
                self.lost.pop(0)
            self.write(f"LOST {gone} {gone}")
        self.write(line)

    def tick(self, ms):
        """Send a heartbeat (with the last sequence number and the boot) when one is due."""
        if self.last_heartbeat is None or ms - self.last_heartbeat >= HEARTBEAT_MS:
            self.last_heartbeat = ms
            seq, boot = self.seq, self.boot
            self.write(f"HB {ms} {seq} {boot}")

    def feed(self, text):
        """Characters from the Pi; complete lines are handled."""
        for char in text:
            if char == "\n":
                line, self.buffer = self.buffer.strip(), ""
                if line:
                    self.receive(line)
            elif len(self.buffer) < MAX_LINE:
                self.buffer += char

    def receive(self, line):
        """Check one line's checksum, then act on it; our own lines echoed back are ignored."""
        body, checked = unframe(line)
        if body is not None and body.split(" ", 1)[0] in OWN_VERBS:
            return
        if body is None:
            shown = line[:40]
            self.write(f"ERR bad checksum {shown}")
            return
        words = body.split()
        if words and words[0] in ("ACK", "RESEND") and not checked:
            shown = line[:40]
            self.write(f"ERR no checksum {shown}")
            return
        self.handle_line(body)

    def hello(self):
        """Who we are, then what a new listener needs: lost keys, then every unacknowledged one."""
        seat = self.seat or "-"
        first = self.unacked[0][0] if self.unacked else self.seq + 1
        self.write(f"HELLO {NAME} {PROTOCOL} {FIRMWARE} {seat} {self.boot} {first}")
        for start, end in self.lost_ranges(1):
            self.write(f"LOST {start} {end}")
        for _, pending in self.unacked:
            self.write(pending)

    def resend(self, start):
        """Everything from `start` on: held lines as they were, DONE or LOST for the rest."""
        held = {}
        for seq, line in self.unacked:
            held[seq] = line
        lost = {}
        for seq in self.lost:
            lost[seq] = True
        run_kind, run_start = None, start
        for seq in range(start, self.seq + 1):
            kind = "KEY" if seq in held else ("LOST" if seq in lost else "DONE")
            if kind != run_kind:
                if run_kind in ("DONE", "LOST"):
                    last = seq - 1
                    self.write(f"{run_kind} {run_start} {last}")
                run_kind, run_start = kind, seq
            if kind == "KEY":
                self.write(held[seq])
        if run_kind in ("DONE", "LOST"):
            last = self.seq
            self.write(f"{run_kind} {run_start} {last}")

    def lost_ranges(self, start):
        """The remembered lost seqs from `start` on, as (first, last) runs."""
        ranges = []
        for seq in self.lost:
            if seq < start:
                continue
            if ranges and ranges[-1][1] == seq - 1:
                ranges[-1][1] = seq
            else:
                ranges.append([seq, seq])
        return ranges

    def handle_line(self, line):
        """Act on one command from the Pi (its checksum already checked)."""
        words = line.split()
        verb = words[0]
        if verb == "HELLO" and len(words) == 2:
            self.hello()
        elif verb == "ACK" and len(words) == 3 and words[2].isdigit():
            if words[1] == self.boot:  # an ACK meant for an earlier boot names other keys
                seq = int(words[2])
                self.unacked = [item for item in self.unacked if item[0] != seq]
        elif verb == "RESEND" and len(words) == 3 and words[2].isdigit():
            if words[1] == self.boot:
                self.resend(max(1, int(words[2])))
            else:
                self.hello()  # the Pi still speaks to an earlier boot: tell it who we are
        elif verb == "LED" and len(words) == 3 and words[1] in LED_NAMES:
            if self.on_led is not None:
                self.on_led(words[1], words[2] == "on")
        elif verb == "BUZZ" and len(words) == 2:
            try:
                pattern = [int(part) for part in words[1].split(",")]
            except ValueError:
                bad = words[1][:40]
                self.write(f"ERR bad pattern {bad}")
                return
            if self.on_buzz is not None:
                self.on_buzz(pattern)
        else:
            shown = line[:40]
            self.write(f"ERR unknown command {shown}")
