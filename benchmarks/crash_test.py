"""Crash tests of `cardtable run`.

    python benchmarks/crash_test.py [KILLS]
        SIGKILL the table at random moments of a scripted game (25 times) and compare.
    python benchmarks/crash_test.py --power-cut [--kills N] [--seed S] [--steps N]
        cut the power instead: the journal rebuilt as of its last fsyncs (app/powercut.py).
"""

import sys

if __name__ == "__main__":
    if "--power-cut" in sys.argv[1:]:
        from app.powercut import main as power_cut_main

        sys.exit(power_cut_main(sys.argv[1:]))
    from app.crashcheck import main

    main()
