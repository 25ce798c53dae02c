# The panel's side of the cardtable line protocol (see drivers/panel_protocol.py).
# Plain Python that runs on MicroPython and CPython alike: no hardware here, so the
# Pi-side tests drive this very code as their fake panel.

PROTOCOL = 1
FIRMWARE = "1.0.0"
NAME = "cardtable-panel"
QUEUE_LIMIT = 64
HEARTBEAT_MS = 1000
MAX_LINE = 200
LED_NAMES = ("N", "E", "S", "W", "ACCEPT", "RENEGE")


class PanelCore:
    """Numbers key edges, keeps them until the Pi acknowledges them, answers commands."""

    def __init__(self, write, seat=None, boot="0", on_led=None, on_buzz=None):
        self.write = write  # write(line) sends one line without its LF
        self.seat = seat
        self.boot = boot
        self.on_led = on_led
        self.on_buzz = on_buzz
        self.seq = 0
        self.unacked = []  # [(seq, line)], oldest first
        self.dropped = 0
        self.last_heartbeat = None
        self.buffer = ""

    def key_edge(self, label, pressed, ms):
        """Report a debounced button edge and keep it until acknowledged."""
        self.seq += 1
        line = f"{'DOWN' if pressed else 'UP'} {self.seq} {ms} {label}"
        self.unacked.append((self.seq, line))
        if len(self.unacked) > QUEUE_LIMIT:
            self.unacked.pop(0)
            self.dropped += 1
        self.write(line)

    def tick(self, ms):
        """Send a heartbeat when one is due."""
        if self.last_heartbeat is None or ms - self.last_heartbeat >= HEARTBEAT_MS:
            self.last_heartbeat = ms
            self.write(f"HB {ms}")

    def feed(self, text):
        """Characters from the Pi; complete lines are handled."""
        for char in text:
            if char == "\n":
                line, self.buffer = self.buffer.strip(), ""
                if line:
                    self.handle_line(line)
            elif len(self.buffer) < MAX_LINE:
                self.buffer += char

    def handle_line(self, line):
        """Act on one command from the Pi."""
        words = line.split()
        verb = words[0]
        if verb == "HELLO" and len(words) == 2:
            self.write(f"HELLO {NAME} {PROTOCOL} {FIRMWARE} {self.seat or '-'} {self.boot}")
            for _, pending in self.unacked:
                self.write(pending)
        elif verb == "ACK" and len(words) == 2 and words[1].isdigit():
            upto = int(words[1])
            self.unacked = [item for item in self.unacked if item[0] > upto]
        elif verb == "LED" and len(words) == 3 and words[1] in LED_NAMES:
            if self.on_led is not None:
                self.on_led(words[1], words[2] == "on")
        elif verb == "BUZZ" and len(words) == 2:
            try:
                pattern = [int(part) for part in words[1].split(",")]
            except ValueError:
                self.write(f"ERR bad pattern {words[1][:40]}")
                return
            if self.on_buzz is not None:
                self.on_buzz(pattern)
        else:
            self.write(f"ERR unknown command {line[:40]}")
