"""Faults against a real `cardtable run` on a pty panel; prints the fault table.

    python benchmarks/fault_test.py [--seed 3] [--kills 20] [--steps N] [--only kills,ack,garbage]

Exits 1 when anything acknowledged is lost, the game ends differently or a traceback appears
(the faults are in tests/harness/faultcheck.py and faultcheck_threads.py).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.harness.fault_table import main

if __name__ == "__main__":
    sys.exit(main())
