"""Hands with reneges, shared by the renege and command-line tests."""

from tests.table.tablelog import HAND_E3

# N plays T♣ to the spade lead in trick 3 while holding J♠, and the J♠ in trick 4.
RENEGE_HAND = (
    *HAND_E3[:7],
    "cards E KS S TS W QS N TC",
    "cards E QC S AC W JC N JS",
    *HAND_E3[9:],
)

# N fails spades twice (holding J♠), then one J♠ proves both.
DOUBLE = (
    "bid E 3",
    "bid S pass",
    "bid W pass",
    "bid N pass",
    "trump E H",
    "cards E KS S TS W AS N 9C",
    "cards W QS N TC E 9S S 9D",
    "cards W AD N JS E AH S TD",
    "cards E KH S 9H W JH N QC",
    "cards W JD N KC E QH S QD",
    "cards W JC N AC E TH S KD",
)
