"""Power-cut test: SIGKILL `cardtable run` at random moments of a scripted game (25 times)."""

from app.crashcheck import main

if __name__ == "__main__":
    main()
