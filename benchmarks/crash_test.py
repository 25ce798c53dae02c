"""Crash tests of `cardtable run`.

    python benchmarks/crash_test.py [KILLS]
        SIGKILL the table at random moments of a scripted game (25 times) and compare.
    python benchmarks/crash_test.py --power-cut [--kills N] [--seed S] [--steps N]
        cut the power instead: the journal rebuilt as of its last fsyncs
        (tests/harness/powercut.py).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

if __name__ == "__main__":
    if "--power-cut" in sys.argv[1:]:
        from tests.harness.powercut import main as power_cut_main

        sys.exit(power_cut_main(sys.argv[1:]))
    from tests.harness.crashcheck import main

    main()
