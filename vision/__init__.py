"""Card recognition: frames in, card observations out."""
