"""Card faces from the deck themes of Debian's card-game packages, drawn with rsvg-convert.

The packages are fetched with `apt-get download` and unpacked with `dpkg-deb -x` into the
training cache; nothing of their artwork is kept in the repository. Each theme is one SVG
whose cards are elements named by the KDE convention (`queen_heart`, `1_spade`) or the
AisleRiot one (`heart_queen`, `spade_1`)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2

from tools.reader_faces import FACE_WIDTH, Array, Face, label_of, with_alpha

KDE_PACKAGE = "kdegames-card-data-kf5"
GNOME_PACKAGE = "gnome-cards-data"
AISLERIOT_PACKAGE = "aisleriot"
KDE_FOLDER = "usr/share/carddecks"
GNOME_FOLDER = "usr/share/aisleriot/cards"


@dataclass(frozen=True)
class DeckTheme:
    """One deck theme of a Debian package."""

    name: str
    package: str
    path: str
    """The theme's SVG (gzip) inside the unpacked package."""
    naming: str
    """'kde' (`queen_heart`) or 'aisleriot' (`heart_queen`)."""
    licence: str


def _kde(name: str, path: str, licence: str = "GPL-2+") -> DeckTheme:
    return DeckTheme(name, KDE_PACKAGE, f"{KDE_FOLDER}/{path}", "kde", licence)


def _gnome(name: str, licence: str = "GPL-3+") -> DeckTheme:
    return DeckTheme(name, GNOME_PACKAGE, f"{GNOME_FOLDER}/{name}.svgz", "aisleriot", licence)


THEMES = (
    _kde("kde-dondorf", "svg-dondorf/dondorf.svgz"),
    _kde("kde-paris", "svg-gm-paris/paris.svgz"),
    _kde("kde-tigullio", "svg-tigullio-international/tigullio-international.svgz", "LGPL-2+"),
    _kde("kde-standard", "svg-standard/standard.svgz"),
    _kde("kde-nicu-ornamental", "svg-nicu-ornamental/ornamental.svgz"),
    _kde("kde-nicu-white", "svg-nicu-white/white.svgz"),
    _kde("kde-oxygen", "svg-oxygen/oxygen.svgz"),
    _kde("kde-oxygen-white", "svg-oxygen-white/oxygen-white.svgz"),
    _kde("kde-oxygen-air", "svg-oxygen-air/oxygen-air.svgz"),
    _kde("kde-jolly-royal", "svg-jolly-royal/jolly-royal.svgz"),
    _kde("kde-ancient-egyptians", "svg-ancient-egyptians/Ancient_Egyptians.svgz"),
    _kde("kde-penguins", "svg-penguins/penguins.svgz", "GPL-3+"),
    _gnome("anglo"),
    _gnome("anglo_bitmap"),
    _gnome("anglo_modern"),
    _gnome("anglo_poker"),
    _gnome("ancient_french"),
    _gnome("atlasnye"),
    _gnome("bellot"),
    _gnome("berlin"),
    _gnome("dondorf"),
    _gnome("gnomangelo"),
    _gnome("gnomangelo_bitmap"),
    _gnome("guyenne-classic"),
    _gnome("lattmann"),
    _gnome("neoclassical"),
    _gnome("orell"),
    _gnome("ornamental"),
    _gnome("paris"),
    _gnome("plastic"),
    _gnome("rheinland"),
    _gnome("simplistic"),
    _gnome("tango"),
    _gnome("tango_nuevo"),
    _gnome("tigullio"),
    DeckTheme("bonded", AISLERIOT_PACKAGE, f"{GNOME_FOLDER}/bonded.svgz", "aisleriot", "GPL-3+"),
)
"""The French-suited themes of the three packages with the table's indices (left out: the
German- and Swiss-suited decks, the tarot, the four-colour decks, the Cyrillic indices of
slavic_costumes, the circuit boards of future; xskat-french and konqi give rsvg-convert no
size). orell's cards (1.67 times as long as wide) and most of oxygen's and jolly-royal's
elements fail `is_card_shape`, so they give no face."""

HELD_OUT = frozenset({"anglo_poker", "rheinland", "tango"})
"""Whole themes never trained on: rendered, they measure "a deck never seen" (tools.reader_data).
A theme drawn twice under two names (dondorf, paris, tigullio, ornamental) is not among them."""

RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king",
              **{r: r for r in "23456789"}}
SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def element_ids(theme: DeckTheme, card: str) -> tuple[str, ...]:
    """The SVG element names a card may have in a theme (the first that exists is drawn)."""
    if card == "back":
        return ("back",)
    if card == "JK":
        return ("red_joker", "joker_red", "joker", "black_joker", "joker_black")
    rank, suit = RANK_WORDS[card[0]], SUIT_WORDS[card[1]]
    return (f"{rank}_{suit}",) if theme.naming == "kde" else (f"{suit}_{rank}",)


def debian_package(name: str, cache: Path) -> Path | None:
    """The unpacked folder of a Debian package, fetched once with apt-get; None without it."""
    folder = cache / "deb" / name
    if (folder / "usr").is_dir():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(["apt-get", "download", name], cwd=folder, check=True,
                       capture_output=True, timeout=600)
        archive = next(folder.glob(f"{name}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(archive), str(folder)], check=True,
                       capture_output=True, timeout=600)
    except (OSError, subprocess.SubprocessError, StopIteration) as error:
        print(f"reader data: Debian package {name} not fetched ({error}); skipped",
              file=sys.stderr)
        return None
    return folder


def theme_svg(theme: DeckTheme, cache: Path) -> Path | None:
    """The theme's SVG, unpacked from its package into the cache once."""
    package = debian_package(theme.package, cache)
    if package is None or not (package / theme.path).exists():
        return None
    svg = cache / "deb-svg" / f"{theme.name}.svg"
    if not svg.exists():
        svg.parent.mkdir(parents=True, exist_ok=True)
        tmp = svg.with_suffix(".tmp")
        tmp.write_bytes(gzip.decompress((package / theme.path).read_bytes()))
        tmp.replace(svg)
    return svg


def theme_faces(theme: DeckTheme, cards: list[str], cache: Path) -> list[Face]:
    """Faces of chosen cards of one theme (cards it lacks are left out)."""
    svg = theme_svg(theme, cache)
    if svg is None:
        return []
    text = svg.read_text(errors="replace")
    out = cache / "deb-png" / theme.name
    out.mkdir(parents=True, exist_ok=True)
    faces = []
    for card in cards:
        found = [i for i in element_ids(theme, card) if f'id="{i}"' in text]
        if not found:
            continue
        png = out / f"{card}.png"
        if not png.exists():
            try:
                subprocess.run(["rsvg-convert", "-i", found[0], "-w", str(FACE_WIDTH * 2),
                                str(svg), "-o", str(png)], check=True, capture_output=True,
                               timeout=120)
            except (OSError, subprocess.SubprocessError) as error:
                print(f"reader data: {theme.name} {card} not drawn ({error})", file=sys.stderr)
                continue
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4 or not is_card_shape(image):
            continue
        rank, suit = label_of(card)
        faces.append(Face(with_alpha(image), rank, suit, theme.name))
    return faces


def is_card_shape(image: Array) -> bool:
    """Whether a drawn element has a card's proportions (a theme whose element outlines
    rsvg-convert misjudges gives slivers, which are left out)."""
    height, width = int(image.shape[0]), int(image.shape[1])
    return 1.3 <= height / max(width, 1) <= 1.65


def deck_cards(index: int) -> list[str]:
    """The cards drawn of a theme: the 24 euchre cards, two low ranks in each suit (a different
    pair per theme), the joker and the back."""
    euchre = [r + s for r in "9TJQKA" for s in "CDHS"]
    low = "2345678"
    pair = (low[index % 7], low[(index + 3) % 7])
    return euchre + [r + s for r in pair for s in "CDHS"] + ["JK", "back"]
