"""The app's colors: one palette per meaning, each safe for color-vision deficiencies.

Every color in the app and the HTML report comes from here, and each palette encodes exactly one
meaning, so a color never stands for two things:

* :data:`STATE_COLORS` — a server's listing state and the listing form (Okabe–Ito hues);
* :data:`COST_KIND_COLORS` — the four per-server cost kinds (one slate hue in four lightness steps,
  so it never reads as a state);
* :data:`VARIANT_COLORS` — search-engine variants on the quality page (Paul Tol's "bright" set);
* :data:`STRATEGY_COLORS` — disclosure strategies (Paul Tol's "muted" set);
* :data:`SEVERITY_COLORS` — lint severities (red, yellow, pale mint), each at least
  :data:`MIN_DELTA_E` (CIEDE2000) from every state color;
* :data:`DIFF_COLORS` — removed and added lines of a side-by-side text diff (pale red, pale violet).

Text drawn on one of these colors uses :func:`text_on`, which picks black or white by the WCAG 2.x
contrast ratio; every pair reaches AA for normal text (4.5:1), which the tests assert.
"""

from __future__ import annotations

from toolsearch.analysis.report import contrast_ratio, text_on

#: Listing state of a server (``visible`` … ``hidden``) and listing form (``full`` … ``none``).
#: Ordered from "everything shown" to "nothing shown": green, blue, purple, orange, grey.
STATE_COLORS: dict[str, str] = {
    "full": "#009E73",     # bluish green: every tool with its short description
    "names": "#0072B2",    # blue: names only
    "mixed": "#CC79A7",    # reddish purple: some servers collapsed to a summary line
    "summary": "#E69F00",  # orange: one summary line
    "groups": "#E69F00",
    "hidden": "#BBBBBB",   # grey: nothing listed
    "none": "#BBBBBB",
    "visible": "#56B4E9",  # sky blue: schemas sent directly, no bridge
}

#: Per-server cost kinds, largest to smallest: one slate hue, dark to light.
COST_KIND_COLORS: dict[str, str] = {
    "full schemas": "#2F3E4E",
    "full block": "#56697D",
    "names block": "#8A9DB0",
    "summary line": "#C3CFDB",
}

#: Search-engine variants (Tol "bright"); extra variants take :data:`EXTRA_VARIANT_COLORS` in turn.
VARIANT_COLORS: dict[str, str] = {
    "reference": "#222222", "no-gate": "#4477AA", "no-coverage": "#EE6677", "unicode": "#228833",
    "name-substring": "#CCBB44", "plain-bm25": "#66CCEE", "agent": "#AA3377",
    "evidence": "#EE7733", "anthropic-bm25": "#009988", "anthropic-regex": "#7F7F7F",
    "hermes-name-bonus": "#994F00", "semantic": "#762A83",
}
#: Colors for variants without one of their own (``+`` combinations), given in turn, each at most
#: once per chart while they last (:func:`variant_colors`).
EXTRA_VARIANT_COLORS: tuple[str, ...] = ("#A6761D", "#6A3D9A", "#E7298A", "#1B5E20")


def variant_colors(names: "list[str] | tuple[str, ...]") -> dict[str, str]:
    """``{variant: color}`` for one chart: a registered variant's own color, and for the others
    (``+`` combinations) the :data:`EXTRA_VARIANT_COLORS` in turn, so that no two bars of a
    chart share a color unless more unregistered variants are shown than there are extra colors."""
    out: dict[str, str] = {}
    extra = 0
    for name in names:
        if name in out:
            continue
        if name in VARIANT_COLORS:
            out[name] = VARIANT_COLORS[name]
        else:
            out[name] = EXTRA_VARIANT_COLORS[extra % len(EXTRA_VARIANT_COLORS)]
            extra += 1
    return out

#: Disclosure strategies (ids of :data:`toolsearch.analysis.strategies.STRATEGIES`; Tol "muted" hues,
#: teal and olive darkened): every color reaches 3:1 against a white plot (WCAG graphical-object
#: contrast), so each strategy's line and markers read on the timeline.
STRATEGY_COLORS: dict[str, str] = {
    "all_upfront": "#882255",       # wine: everything, every request
    "tiered": "#332288",            # indigo: the reference behavior
    "anthropic_search": "#CC6677",  # rose
    "openai_search": "#2F8F80",     # teal (darkened)
    "skill_linked": "#AA4499",      # purple
    "combined": "#808020",          # olive (darkened): skill-linked + search
}

#: How far apart (CIEDE2000 ΔE) a lint severity color is from every listing state color. A ΔE00
#: of about 2 is the smallest difference people notice side by side; the amber this palette had
#: for warnings was 6.9 from the summary orange and read as the same color. 20 is about three
#: times that: a different named color at a glance, in a table or in a key.
MIN_DELTA_E = 20.0

#: Lint severities: red for errors, yellow for warnings (Okabe–Ito yellow, 21.7 from the summary
#: orange), a pale mint for info notes (lighter than the grey of hidden servers); black or white
#: text reaches AA on each.
SEVERITY_COLORS: dict[str, str] = {"error": "#B2182B", "warning": "#F0E442", "info": "#CDF5D7"}

#: Pieces of the prompt in the strategies' up-front breakdown (a part-of-the-whole palette: greys
#: and muted tints, none of them a strategy color).
PIECE_COLORS: dict[str, str] = {
    "schema": "#4D4D4D", "tools array": "#878787", "name + description": "#BABABA", "namespace": "#E0E0E0",
    "search tool": "#F1A340", "skill listing": "#998EC3", "pinned skill body": "#542788",
}

#: A side-by-side text diff (the Compare view): removed lines red, added lines violet, each a pale
#: line fill and a deeper shade for the words that changed. Neither hue is a listing-state hue
#: (each is at least 35 degrees of OKLCh hue from every state color), so a diff row beside a state
#: cell never reads as a state; black text reaches AA on all four.
DIFF_COLORS: dict[str, str] = {
    "removed": "#FFDBD7", "removed words": "#F9AEA7",
    "added": "#E6E0FF", "added words": "#C8B9F9",
}

#: Every palette by meaning (tests check that no color serves two meanings).
PALETTES: dict[str, dict[str, str]] = {
    "listing state": STATE_COLORS, "cost kind": COST_KIND_COLORS, "search variant": VARIANT_COLORS,
    "strategy": STRATEGY_COLORS, "lint severity": SEVERITY_COLORS, "text diff": DIFF_COLORS,
}


def line_shade(color: str, background: str = "#ffffff", ratio: float = 3.0) -> str:
    """``color`` (``#rrggbb``) darkened in steps of 5 % lightness until it reaches ``ratio`` against
    ``background`` (WCAG graphical-object contrast, 3:1 by default), for thin lines and dashes
    drawn in a palette color that is itself too light (orange, grey) on a white plot. A color that
    already reaches it comes back unchanged. Raises ``ValueError`` for another color syntax."""
    import colorsys

    shade = color
    red, green, blue = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, sat = colorsys.rgb_to_hls(red, green, blue)
    while contrast_ratio(shade, background) < ratio and light > 0:
        light = max(0.0, light - 0.05)
        shade = "#%02x%02x%02x" % tuple(round(c * 255) for c in colorsys.hls_to_rgb(hue, light, sat))
    return shade


def cell_style(color: str | None) -> str:
    """CSS for a table cell filled with ``color`` (text in black or white, whichever contrasts
    more); ``""`` for ``None``."""
    return f"color: {text_on(color)}; background-color: {color}" if color else ""


__all__ = ["STATE_COLORS", "COST_KIND_COLORS", "VARIANT_COLORS", "EXTRA_VARIANT_COLORS", "STRATEGY_COLORS",
           "SEVERITY_COLORS", "DIFF_COLORS", "variant_colors", "MIN_DELTA_E", "PIECE_COLORS", "PALETTES", "cell_style", "contrast_ratio", "text_on"]
