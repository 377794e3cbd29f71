"""What a harness config's own warnings mean for a recommendation: ``check --strict`` refuses to gate
on a config with a warning (a misspelt key, a value out of range), and the settings such a config
is read as may hold a default where the file meant a value of its own. One wording for every surface
that says it (``recommend``'s text, ``--json``, ``--yaml`` block and markdown, the report)."""

from __future__ import annotations

from ..engine import constants as C
from ..engine.config import BUDGET_KEYS, LocatedWarning, ToolSearchConfig
from ..engine.invisible import reveal_line
from ..engine.wording import counted, settings_name, settings_words

_DEFAULTS = {"threshold_pct": C.THRESHOLD_PCT_DEFAULT, "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT}


def file_warnings(config: ToolSearchConfig) -> list[LocatedWarning]:
    """The warnings ``config`` has about the config file it was read from (a settings flag's own
    warnings name no file, and the gate command takes no flag), in order."""
    return [w for w in config.located_warnings() if w.file is not None]


def _placed(warning: LocatedWarning) -> str:
    """A file warning without its file name (the sentence names the file once): ``line 4: …``, its
    invisible characters and line breaks as markers (``⟨U+200B⟩``): the words go into ``--json`` as they
    are, where no surface would mark them."""
    return reveal_line((f"line {warning.line}: " if warning.line else "") + warning.message)


def config_warning_gate_words(config: ToolSearchConfig) -> str:
    """Why ``check --strict`` refuses a gate run with the config ``config`` was read from, as
    ``recommend`` writes it on its ``gate refused:`` line: ``check --strict refuses it while
    config.yaml has 1 warning (line 4: tools.tool_search.listing_max_token: unknown key, ignored; did
    you mean listing_max_tokens?): fix it there (merging this block replaces only the keys the block
    sets)``; ``""`` when the file has no warning. The warnings are the config reader's, which name the
    closest known key for a misspelt one."""
    found = file_warnings(config)
    if not found:
        return ""
    path = reveal_line(str(found[0].file))
    one = len(found) == 1
    return (f"check --strict refuses it while {path} has {counted(len(found), 'warning')} "
            f"({'; '.join(_placed(w) for w in found)}): fix {'it' if one else 'them'} there (merging this block "
            "replaces only the keys the block sets)")


def defaulted_keys(config: ToolSearchConfig) -> list[str]:
    """The budget settings of ``config`` that hold their default where its config file meant a value
    of its own: the file gave no usable value for the key (:attr:`ToolSearchConfig.read_as_default`)
    and one of its warnings names the key (``did you mean listing_max_tokens?``, a value that could
    not be read). ``[]`` for a config without file warnings."""
    found = file_warnings(config)
    values = {"threshold_pct": config.threshold_pct, "listing_max_tokens": config.listing_max_tokens}
    return [key for key in BUDGET_KEYS
            if key in config.read_as_default and values[key] == _DEFAULTS[key]
            and any(key in w.message for w in found)]


def read_settings_words(config: ToolSearchConfig) -> str:
    """The current settings as a sentence that compares with them names them: :func:`settings_words`,
    and, for each budget setting that is the default in place of a value the config file meant
    (:func:`defaulted_keys`), which it is and the warning that says why: ``threshold_pct 5.1%,
    listing_max_tokens 4,000 — listing_max_tokens is the default: config.yaml gives none it can use
    (line 4: …)``. The plain words for the default settings (nothing to tell apart)."""
    words = settings_words(config.threshold_pct, config.listing_max_tokens)
    keys = defaulted_keys(config)
    if not keys or settings_name(config.threshold_pct, config.listing_max_tokens) == "default settings":
        return words
    found = file_warnings(config)
    notes = []
    for key in keys:
        about = "; ".join(_placed(w) for w in found if key in w.message)
        notes.append(f"{key} is the default: {reveal_line(str(found[0].file))} gives none it can use ({about})")
    return f"{words} — " + " — ".join(notes)


__all__ = ["config_warning_gate_words", "defaulted_keys", "file_warnings", "read_settings_words"]
