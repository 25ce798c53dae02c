"""The cardtable application: command line and wiring."""
