"""Hardware drivers: buttons, serial panel, cameras and outputs.

inputs      typed events the drivers produce (player inputs and hardware status)
keys        button names and what a press means;  debounce  edges -> presses, holds, new game
pinmap      40-pin header data, pin maps and their validator;  pinmaps/  the shipped maps
buttons     gpiozero inputs read into events;  outputs  buzzer and lights (GPIO or panel)
panel_*     serial panel: protocol and session (no I/O), link (port, reconnect, backoff)
camera      frame sources (OpenCV, picamera2, recordings) and the reopening wrapper
config      the hardware TOML;  hardware  everything opened from one config
check       the walk of `cardtable check-hardware` (its command line is in app/)
fake_panel, recording, clock  fakes for tests and --mock
"""
