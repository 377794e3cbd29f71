"""Masking secrets in text we keep or show: the plain value and the encodings a program may print
instead, a value cut in two by a line break, and URL credentials and query values.

Used by the live layer for everything a server sends (:meth:`toolsearch.live.mcpconfig.ServerSpec.scrub`)
and by the analysis layer for recorded session text. Nothing here knows where the secrets come
from: callers pass the values (see :func:`secret_list`).
"""

from __future__ import annotations

import bisect
import functools
import html
import json
import re
import shlex
from typing import Any, Iterable, Iterator, Mapping, Sequence
from urllib.parse import SplitResult, quote, quote_plus, unquote, unquote_plus, urlsplit, urlunsplit

from . import constants as C

#: URL-looking text inside a message (masked by :func:`scrub_text`), also glued to a word by an
#: underscore (``mcp__web__https://user:password@host``, a recorded tool name), where ``\b`` sees no start.
#: Its user-information part runs to the last ``@`` before the host, over the characters a user
#: name and password are written with (letters, digits, ``-._~%!$&*+,;=:``, other scripts' letters);
#: a tab or line break between the scheme's slashes counts (Python drops them: ``https:/<tab>/u:pw@host``
#: has the password ``pw``), but not in the user part, where it ends a line of text (``https://a.example
#: <newline>ops@b.example``). Quotes, brackets and parentheses end it too: in ``{"url":"https://a.example",
#: "owner":"ops@b.example"}`` or ``[docs](https://a.example)@team`` the host is ``a.example``. (A
#: command-line argument that is one whole URL is read as Python reads it instead:
#: :func:`toolsearch.live.mcpconfig.mask_arguments`.)
_URL_IN_TEXT = re.compile(r"(?<![A-Za-z0-9+.\-])[a-zA-Z][a-zA-Z0-9+.-]*:[\t\r\n]*/[\t\r\n]*/"
                          r"(?:(?:[A-Za-z0-9\-._~%!$&*+,;=:]|[^\x00-\x7f\s])*@)?[^\s'\"<>()\[\]{}|]+")
#: A bare query item like ``?debug`` is a flag, not a secret; other bare items are masked.
_PLAIN_WORD = re.compile(r"[A-Za-z_]{1,20}")
#: Shorter values are not scrubbed from free text (they would mask ordinary words and digits).
SECRET_MIN_CHARS = 4
#: A secret (or an encoded form of one) from this length up is masked in free text wherever it
#: occurs, glued to other text too. A shorter one (4 or 5 characters) is too when it looks generated,
#: and otherwise only where it stands as a whole token (:func:`masked_anywhere`).
SECRET_ANYWHERE_MIN_CHARS = 6
#: A short secret that is one word of letters (``true``, ``info``, ``debug``, ``prod``) or a number
#: (``1234``, ``8080``, ``0.75``) is masked in free text only where it stands as a whole token: where
#: its first character is a letter, digit or underscore, not right after another one, and likewise at
#: its end (so after ``=``, ``:``, a space or a quote, and before punctuation, a space or the end).
#: Such values are mostly settings that also occur inside ordinary words and numbers ("information",
#: "untrue", "12345"): masked wherever they occurred, a failure reason became unreadable. A short
#: value with any other shape (``ab12``, ``p@ss``, ``x9!k``, ``a b1``) is a credential rather than a
#: word, and a server that glues it to other text (``ab12xyz``, ``key_ab12``) must not show it.
_TOKEN_ONLY_SHAPE = re.compile(r"[^\W\d_]+|[+-]?\d+(?:[.,]\d+)*")
#: What a harness turns into ``_`` in a tool name (a value is masked as registered there too).
_UNSAFE_NAME_CHARS = re.compile(C.UNSAFE_NAME_CHARS)


#: The one rule for a name that says its value is a secret, wherever the name stands: a key of a
#: config or of recorded call arguments (``api_key``, ``X-Api-Key``), a variable (``GITHUB_TOKEN=``),
#: a header (``Authorization:``) or a command-line option (``--api-key``, ``-clientSecret``: the
#: option's dashes aside, see :func:`secret_key_name`). A word of the name (split at ``-``, ``_``,
#: ``.`` and camelCase humps, lowercased) is one of these...
_SECRET_WORDS = frozenset({"token", "apikey", "key", "secret", "password", "passwd", "pwd", "pw", "pass", "passphrase",
                           "credential", "credentials", "auth", "authorization", "bearer", "pat", "cookie", "jwt",
                           "sig", "signature", "hmac", "oauth", "pin", "otp"})
#: ...or the name, lowercased without separators, ends with one of these (``accesstoken``,
#: ``XAPIKEY``, ``webhookhmac``; not ``tokenizer``).
_SECRET_ENDINGS = ("token", "secret", "password", "passwd", "passphrase", "apikey", "credential", "credentials",
                   "authorization", "privatekey", "sessionkey", "accesskey", "cookie", "signature", "bearer", "hmac")
#: A word that makes the name about something else than the secret itself: a count
#: (``--max-tokens 5``), a place (``--token-file``, ``--auth-url``, ``--oauth-callback-port``), a kind
#: (``--auth-type``, ``--hmac-algorithm``, ``--oauth-flow``), an id (``--key-id``), a setting
#: (``--sig-version``, ``--signature-format``) or a switch (``--no-auth``).
_NOT_SECRET_WORDS = frozenset({
    "max", "min", "limit", "limits", "count", "num", "number", "tokens", "budget", "length", "size",
    "file", "path", "dir", "directory", "url", "uri", "endpoint", "host", "port", "server",
    "type", "kind", "mode", "method", "scheme", "provider", "format", "name", "id", "ids",
    "env", "var", "header", "timeout", "ttl", "expiry", "expires", "lifetime", "refresh",
    "no", "disable", "disabled", "enable", "enabled", "use", "skip", "require", "required",
    "only", "store", "storage", "cache", "location", "audience", "scope", "scopes", "issuer",
    "algorithm", "algo", "alg", "version", "flow"})
#: Words of :data:`_NOT_SECRET_WORDS` that make the name about something else wherever they stand
#: (a count, a switch: ``--max-token``, ``--no-auth``; a cache's key or token, ``--cache-key``, see
#: :data:`_CACHE_SETTING_WORDS`); the
#: others do so only after the last secret word (``--token-file``, ``--key-id``, ``--key-store``), while
#: before it they name whose or which secret it is: ``--server-token``, ``--provider-api-key``,
#: ``--refresh-token``, ``--id-token``, ``GOOGLE_REFRESH_TOKEN=``, ``--storage-account-key``,
#: ``AZURE_STORAGE_KEY=`` and ``--store-password`` (a key store's) are credentials.
_MODIFIER_WORDS = frozenset({
    "max", "min", "limit", "limits", "count", "num", "number", "budget", "length", "size",
    "no", "disable", "disabled", "enable", "enabled", "use", "skip", "require", "required",
    "only", "timeout", "ttl", "expiry", "expires", "lifetime"})
#: Secret words that a ``cache`` before them makes a cache's own setting (``--cache-key``, ``--cache-token``,
#: ``cache_key``: which entry, not a credential); a cache's password or secret (``REDIS_CACHE_PASSWORD``,
#: ``--cache-secret``) is still one.
_CACHE_SETTING_WORDS = frozenset({"key", "keys", "token", "tokens", "sig", "signature"})
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def name_words(name: str) -> list[str]:
    """The words of a name, lowercased, its leading dashes aside: ``--accessToken`` → ``["access",
    "token"]``, ``X-Api-Key`` → ``["x", "api", "key"]``, ``api_key`` → ``["api", "key"]``."""
    return [w.lower() for part in re.split(r"[-_.]+", name.lstrip("-")) if part for w in _CAMEL_HUMP.split(part) if w]


def secret_key_name(key: str) -> bool:
    """True when a name says its value is a secret: ``api_key``, ``X-Api-Key``, ``accessToken``,
    ``Authorization``, ``password``, ``auth``, ``GITHUB_PAT``, ``--refresh-token`` (not ``author``,
    ``max_tokens``, ``token_file``, ``auth_url`` or ``no_auth``).

    The one rule for every place a name stands: a key of a harness config, of recorded call
    arguments or of JSON text, a variable (``API_KEY=x``), a header name and, its dashes aside, a
    command-line option (:func:`toolsearch.live.mcpconfig.secret_arguments` adds only the option's
    shape: a long or Go-style name, not one letter). A word of the name (:func:`name_words`) is a
    secret word (:data:`_SECRET_WORDS`), or the name without separators ends like one
    (:data:`_SECRET_ENDINGS`), and no word makes it about something else (:data:`_MODIFIER_WORDS`
    anywhere, :data:`_NOT_SECRET_WORDS` after the last secret word)."""
    words = name_words(key)
    if not words or any(word in _MODIFIER_WORDS for word in words):
        return False
    secret_at = [i for i, word in enumerate(words) if word in _SECRET_WORDS or word.endswith(_SECRET_ENDINGS)]
    last = secret_at[-1] if secret_at else -1
    if "cache" in words[:last] and words[last] in _CACHE_SETTING_WORDS:
        return False
    if any(word in _NOT_SECRET_WORDS for word in words[last + 1:]):
        return False
    return bool(secret_at) or "".join(words).endswith(_SECRET_ENDINGS)


#: Options whose value is ``NAME=VALUE`` for the server's environment (``docker run -e``): the value
#: is a secret, as every ``env`` value of a config is.
ENV_OPTIONS = ("-e", "--env")
#: Options whose value is an HTTP header (``mcp-remote --header "Authorization: Bearer x"``, ``-H``):
#: the header value is a secret, as every ``headers`` value of a config is.
HEADER_OPTIONS = ("-H", "--header", "--headers")
#: Options whose value is ``USER:PASSWORD`` (curl's ``-u`` / ``--user``, ``--proxy-user``): the part
#: after the first colon is a secret; a value without a colon is a user name only.
USERINFO_OPTIONS = ("-u", "--user", "-U", "--proxy-user")
#: Options whose own value is read for a secret (the three above), written apart from it or glued
#: (``-uadmin:pw``, ``-eAPI_KEY=x``, ``-H"X-Api-Key: x"``): never taken as the value of a secret
#: option before them, so their own secret stays masked.
VALUE_READING_OPTIONS = (*USERINFO_OPTIONS, *ENV_OPTIONS, *HEADER_OPTIONS)
_LONG_OPTION_NAME = re.compile(r"--[A-Za-z0-9][A-Za-z0-9_.\-]*")
_GLUED_ENV = re.compile(r"-e[A-Za-z_][A-Za-z0-9_]*=.+", re.DOTALL)


def secret_option_value(word: str) -> bool:
    """Whether ``word``, written after an option whose name says it takes a secret (``--password
    WORD``, ``-token WORD``, ``sshpass -p WORD``), is that option's value.

    A program reads the word after an option that takes a value as that value whatever it looks
    like, so it is, also when it starts with dashes: ``--password -hunter``, ``--password
    -Xy9kQ2w8vT``, ``--token --verbose`` (a switch whose name says secret, ``--auth --verbose``, has
    the next option masked with it: that loses a name, while showing a secret loses the secret).
    It is not when it is ``--`` (the end of the options) or an option whose own value holds a
    secret that is read on its own (:data:`VALUE_READING_OPTIONS`, glued or not, and a long
    option whose name says secret: ``--auth -u admin:pw``, ``--token -eKEY=x``, ``--auth
    --oauth2token x``): the secret after it is masked as that option's. ``-`` (the standard input)
    is the value, and names no secret."""
    if word == "--":
        return False
    name = word.partition("=")[0]
    if name in VALUE_READING_OPTIONS or _GLUED_ENV.fullmatch(word):
        return False
    if (word[:2] in ("-u", "-U") or word.startswith("-H")) and not word.startswith("--") and ":" in word[2:]:
        return False
    return not (_LONG_OPTION_NAME.fullmatch(name) and secret_key_name(name))


#: Programs whose one-letter option takes a secret, by the program's file name (no directory, no
#: ``.exe``), with that option: ``-p`` glued to its value is the password of the MySQL and MariaDB
#: clients (``mysql -uroot -pS3cret shop``; ``-p`` alone asks for it, and the word after it is the
#: database); ``sshpass -p``, the MongoDB shell's and tools' ``-p`` and ``redis-cli -a`` take the
#: next word, or their value glued. Elsewhere ``-p`` is mostly a port (``psql -p 5432``,
#: ``server -p8080``) or a profile, and one letter says nothing: it is shown.
PROGRAM_SECRET_OPTIONS: dict[str, str] = {
    **dict.fromkeys(("sshpass", "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport",
                     "mongostat", "mongotop", "mongofiles"), "-p"),
    **dict.fromkeys(("mysql", "mariadb", "mysqldump", "mariadb-dump", "mysqladmin", "mariadb-admin", "mysqlimport",
                     "mariadb-import", "mysqlshow", "mariadb-show", "mysqlcheck", "mariadb-check", "mysqlslap",
                     "mariadb-slap"), "-p"),
    "redis-cli": "-a",
}
#: Those of :data:`PROGRAM_SECRET_OPTIONS` that run the command their first other word names.
WRAPPER_PROGRAMS = frozenset({"sshpass"})
#: Those of :data:`PROGRAM_SECRET_OPTIONS` whose option takes its secret glued only (``-pS3cret``).
GLUED_ONLY_PROGRAMS = frozenset(name for name in PROGRAM_SECRET_OPTIONS if name.startswith(("mysql", "mariadb")))


def program_name(word: str) -> str:
    """The file name of a program as a command names it: ``/usr/bin/mysql`` and ``MYSQL.EXE`` →
    ``mysql``."""
    return re.split(r"[/\\]", word)[-1].lower().removesuffix(".exe")


#: A word of free text as :func:`mask_program_options` read it first: quotes end it (``-p'pw'`` is
#: ``-p``), so a quote in prose (``can't``) starts no quoted string.
_COMMAND_WORD = re.compile(r"[;&|\n]|[^\s;&|'\"()]+")
#: A command-line word as a POSIX shell splits it (``;``, ``&``, ``|``, a line break and parentheses
#: apart): quoted strings, backslash escapes and plain characters up to white space. A quote that
#: does not close is an ordinary character here (:func:`shell_words`).
_SHELL_WORD = re.compile(r"""(?P<sep>[;&|()\n])|(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s;&|()'"\\]|['"\\])+""",
                         re.DOTALL)
#: The same without command separators: the words :func:`shlex.split` gives (``a;b`` is one word).
#: A quote that does not close runs to the end of the text (:func:`split_command_line`).
_SPLIT_WORD = re.compile(r"""(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|'[^']*\Z|"(?:[^"\\]|\\.)*\\?\Z|[^\s'"\\]|['"\\])+""",
                         re.DOTALL)
#: What closes a quote or an escape left open at the end of a command line, tried in this order: a
#: backslash for a backslash that ends the line, a single quote, a double quote, and a backslash and
#: a double quote for a backslash that ends an open double-quoted run (only one of them reads).
_CLOSERS = ("\\", "'", '"', '\\"')


def split_command_line(text: str) -> list[str]:
    """The words of a command line written as one string, as :func:`shlex.split` gives them; where
    a quote (or a backslash) does not close, as if it closed at the end of the text: the quoted run
    goes on to the end (``mysql -p'my pw`` → ``["mysql", "-pmy pw"]``), so the whole of a value whose
    closing quote is missing is one word, never only its first part.

    A shell refuses such a line; a program started without one never gets it. It is read this way
    to find and mask the secret in it (a ``command`` of a config written as a whole command line)."""
    try:
        return shlex.split(text)
    except ValueError:
        pass
    for closer in _CLOSERS:
        try:
            return shlex.split(text + closer)
        except ValueError:
            continue
    return text.split()  # not reached: one of the closers ends every open quote or escape


def shell_words(text: str, separators: bool = True) -> list[tuple[int, int, str | None]]:
    """The words of a command line written as one string, each as ``(start, end, value)``: where the
    word stands in ``text`` and what a shell passes on for it (:func:`shlex.split` of the word:
    ``-p'quoted pw'`` → ``-pquoted pw``, ``"a b"`` → ``a b``); ``value`` is ``None`` for a command
    separator (``;``, ``&``, ``|``, a line break, ``(`` or ``)``). A word with a quote that does not
    close (a command cut off, an apostrophe in prose) runs to white space, and its value is the word as
    written. With ``separators=False`` those characters are part of words, as :func:`shlex.split`
    reads a line, and a quote that does not close runs to the end of the text: the values are the
    words of :func:`split_command_line` (``--password "a b`` → ``--password``, ``a b``)."""
    out: list[tuple[int, int, str | None]] = []
    for match in (_SHELL_WORD if separators else _SPLIT_WORD).finditer(text):
        if separators and match.group("sep"):
            out.append((match.start(), match.end(), None))
            continue
        word = match.group(0)
        if not any(ch in word for ch in "'\"\\"):
            out.append((match.start(), match.end(), word))
            continue
        try:
            split = shlex.split(word) if separators else split_command_line(word)
        except ValueError:  # a quote or a backslash that does not close
            split = [word]
        out.append((match.start(), match.end(), split[0] if len(split) == 1 else word))
    return out


def _regex_words(text: str) -> list[tuple[int, int, str | None]]:
    """The words of free text as :data:`_COMMAND_WORD` reads them, as :func:`shell_words` gives them."""
    return [(m.start(), m.end(), None if m.group(0) in (";", "&", "|", "\n") else m.group(0))
            for m in _COMMAND_WORD.finditer(text)]


def mask_program_options(text: str) -> str:
    """``text`` (a command line a model ran, free text) with the secret of each one-letter option
    that takes one in the program named before it (:data:`PROGRAM_SECRET_OPTIONS`) masked, as on a
    server's command line: ``mysql -uroot -p•••• shop``, ``sshpass -p •••• ssh host``. A program's
    options are read up to the end of its command (``;``, ``|``, ``&``, a line break).

    The text is read twice: as a shell splits it (:func:`shell_words`), so a quoted password is masked
    whole (``mysql -p'quoted pw'`` and ``mysql -p"a b"`` → ``mysql -p••••``; a quote that does not close
    masks to the end of the line), then word by word with quotes as word ends, so a command in prose
    whose apostrophes a shell would read as quotes (``can't run mysql -pS3cret``) is masked too."""
    if not any(name in text.lower() for name in ("mysql", "mariadb", "mongo", "sshpass", "redis-cli")):
        return text
    return _mask_program_words(_mask_program_words(text, shell_words(text)), None)


def _mask_program_words(text: str, words: list[tuple[int, int, str | None]] | None) -> str:
    """:func:`mask_program_options` of ``text`` read as ``words`` (``None``: :func:`_regex_words`)."""
    if words is None:
        words = _regex_words(text)
    out: list[str] = []
    done = 0
    context, pending = "", False

    def mask(start: int, end: int, keep: str, word: str) -> None:
        nonlocal done
        if start < done:
            return
        if any(ch in word for ch in "'\"") and not _closed(word):
            newline = text.find("\n", end)  # cut off inside quotes: the rest of the line may be the secret
            end = len(text) if newline < 0 else newline
        out.extend([text[done:start], keep, C.SECRET_MASK])
        done = end

    for start, end, word in words:
        if word is None:
            context, pending = "", False
            continue
        if pending:
            pending = False
            if secret_option_value(word) and word != "-" and word != C.SECRET_MASK:
                mask(start, end, "", text[start:end])
            continue
        if program_name(word) in PROGRAM_SECRET_OPTIONS:
            context = program_name(word)
            continue
        if context in WRAPPER_PROGRAMS and not word.startswith("-"):
            context = ""
        short = PROGRAM_SECRET_OPTIONS.get(context)
        if short is None:
            continue
        if word == short and context not in GLUED_ONLY_PROGRAMS:
            pending = True
        elif word.startswith(short) and len(word) > len(short) and word[len(short):] != C.SECRET_MASK:
            mask(start, end, short if text.startswith(short, start) else "", text[start:end])  # '-pX': all of it
    return "".join(out) + text[done:]


def _closed(word: str) -> bool:
    """Whether every quote in a shell word closes (:func:`shlex.split` reads it)."""
    try:
        shlex.split(word)
    except ValueError:
        return False
    return True


#: A word with the shape of an option: one or two dashes and a name, one letter or digit (``-u``,
#: ``-4``) or a letter followed by letters, digits, ``-``, ``_`` and ``.`` (``-Xmx512m``,
#: ``--http2-prior-knowledge``, ``-Dfile.encoding``), then, optionally, ``=`` and the option's value.
_OPTION_SHAPE = re.compile(r"(--?)([A-Za-z0-9]|[A-Za-z][A-Za-z0-9_.\-]*)(?:=.*)?", re.DOTALL)
_DIGIT_RUN = re.compile(r"[0-9]+")
#: A piece of an option name of this many characters holding a digit looks generated, not named.
_GENERATED_PIECE_CHARS = 8
#: A single-dash name of this many characters with a capital letter right after a small one looks generated.
_GENERATED_CAMEL_CHARS = 5


def option_shaped(word: str) -> bool:
    """Whether ``word`` has the shape of an option name rather than of a generated value: the word
    after an HTTP auth scheme word in free text (``token --verbose``) is not taken as credentials when
    it has (:func:`mask_token_shapes`). After a secret option the next word is its value whatever its
    shape (:func:`secret_option_value`).

    ``--`` (the end of the options) and words shaped like an option name (:data:`_OPTION_SHAPE`:
    ``-u``, ``-v``, ``-4``, ``--verbose``, ``--flag=x``, ``-listen-addr``, ``-Xmx512m``) are options;
    anything else is a value: ``-`` (standard input), a negative number (``-1234``), a word holding a
    character no option name holds before its ``=`` (``-Xy9+kQ/w``, ``-pässwort``), and a name that
    looks generated rather than named: a piece of it (between ``-``, ``_`` and ``.``) with two runs
    of digits (``-abc123def456``, ``-Xy9kQ2w8vT``) or of 8 characters or more with a digit
    (``--token --a8f3k2x9q``; so ``-Xmx1024m`` counts as a value too), or, after a single dash (the
    start of most generated values that begin with ``-``), a name of 8 characters or more with a
    digit or with a capital letter right after a small one (``-Ab_c9dEf-GhIj``, ``-XyzkQwvTab``;
    single-dash options are short or lower-case words: ``-insecure``, ``-Dfile.encoding``).

    A word of small letters only (``-hunter``) cannot be told from an option by its shape: it reads
    as one.
    """
    if word == "--":
        return True
    match = _OPTION_SHAPE.fullmatch(word)
    if match is None:
        return False
    dashes, name = match.groups()
    for piece in re.split(r"[-_.]", name):
        runs = len(_DIGIT_RUN.findall(piece))
        if runs > 1 or (runs and len(piece) >= _GENERATED_PIECE_CHARS):
            return False
    if dashes == "-" and re.search(r"[a-z][A-Z]", name) and len(name) >= _GENERATED_CAMEL_CHARS:
        return False
    return not (dashes == "-" and len(name) >= _GENERATED_PIECE_CHARS and _DIGIT_RUN.search(name))


#: A long option name as a whole word (``--verbose``, ``--dry-run``): no ``=``, nothing after the name.
_LONG_OPTION_WORD = re.compile(r"--[A-Za-z][A-Za-z0-9_.\-]*")


def free_text_secret(value: Any) -> bool:
    """Whether a secret value is also searched for in free text (what a server prints, an error, a
    recorded session), not only masked where it stands as a value (:func:`secret_list` keeps only these).

    Not searched for: a value shorter than :data:`SECRET_MIN_CHARS` (``-y``, ``on``: it would mask
    ordinary words and digits) and a value that is a long option name as written (``--verbose``,
    ``--dry-run``: :func:`option_shaped`, two dashes, no ``=``), which is what a switch before it
    whose name says secret takes as its value (``--token --verbose``): searched for, that option word
    was masked wherever a server printed it. Both are still masked in their own place on a command
    line (``--token ••••``). A single-dash word (``--password -hunter``) may be a password and is
    searched for."""
    return (isinstance(value, str) and len(value) >= SECRET_MIN_CHARS
            and not (_LONG_OPTION_WORD.fullmatch(value) and option_shaped(value)))


def secret_list(values: Iterable[str]) -> list[str]:
    """Distinct secret values worth scrubbing from free text (:func:`free_text_secret`), with
    the forms a server may print them in (:func:`encoded_forms`), longest first."""
    # one key per set of values, whatever their order or repeats: each server of a config asks with its
    # own values first and its peers' after, and every order was a cache miss (a config of 500 servers
    # that failed with secrets took minutes and gigabytes, recomputing the same forms per server)
    return list(_secret_list(tuple(sorted({v for v in values if free_text_secret(v)}))))


@functools.lru_cache(maxsize=64)
def _secret_list(values: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`secret_list` of ``values``, computed once per set of values: scrubbing asks for it
    for every string a server sends, and a config with thousands of values (more than
    :func:`_encoded_forms` keeps) made each ask encode every value again."""
    out: set[str] = set()
    for value in values:
        out.update(_encoded_forms(value))
    return tuple(sorted(out, key=lambda form: (-len(form), form)))


def secret_index(values: Iterable[str]) -> "SecretIndex":
    """:func:`secret_list` of ``values`` as one :class:`SecretIndex`, built once per set of values
    (whatever their order or repeats)."""
    return _secret_index(tuple(sorted({v for v in values if free_text_secret(v)})))


@functools.lru_cache(maxsize=64)
def _secret_index(values: tuple[str, ...]) -> "SecretIndex":
    return SecretIndex(_secret_list(values))


#: The length of the pieces :class:`SecretIndex` files secrets under (no form of a value of
#: :data:`SECRET_MIN_CHARS` characters is shorter).
_PIECE_CHARS = 4
#: From this many secrets up, :class:`SecretIndex` finds those a text holds through its pieces
#: (Python's work per character of the text); below it, by looking for each secret in the text
#: (C's work per secret, faster for a few hundred of them).
_INDEXED_MIN_SECRETS = 512


class SecretIndex:
    """A set of secrets (e.g. :func:`secret_list` of every value of a config file) ready to be
    masked in any number of texts by :func:`scrub_text`: each text then costs about its length,
    not the number of secrets. A text is masked exactly as against the list of them.

    Every secret of at least :data:`_PIECE_CHARS` characters is filed under one of its pieces of
    that length, the one fewest secrets were filed under when it came; the secrets a text holds
    are among those filed under the pieces the text holds. Shorter secrets, and those holding a
    character of the mask (which masking can make appear), are looked for in every text.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        """``secrets``: the values to mask, in the order :func:`scrub_text` masks them (longest
        first, as :func:`secret_list` gives them); empty ones and repeats are dropped."""
        self.secrets: tuple[str, ...] = tuple(dict.fromkeys(value for value in secrets if value))
        self._rank = {value: rank for rank, value in enumerate(self.secrets)}
        mask_chars = set(C.SECRET_MASK)
        self._mask_held = frozenset(value for value in self.secrets if not mask_chars.isdisjoint(value))
        self._by_piece: dict[str, list[str]] = {}
        self._always: list[str] = []
        if len(self.secrets) < _INDEXED_MIN_SECRETS:
            return
        for value in self.secrets:
            if len(value) < _PIECE_CHARS or value in self._mask_held:
                self._always.append(value)
                continue
            # the first piece no other secret is filed under (the usual case), else the one with the fewest
            best, fewest = "", len(self.secrets)
            for start in range(len(value) - _PIECE_CHARS + 1):
                piece = value[start:start + _PIECE_CHARS]
                filed = self._by_piece.get(piece)
                if filed is None:
                    best = piece
                    break
                if len(filed) < fewest:
                    best, fewest = piece, len(filed)
            self._by_piece.setdefault(best, []).append(value)

    def __len__(self) -> int:
        return len(self.secrets)

    def __iter__(self) -> Iterator[str]:
        return iter(self.secrets)

    def __repr__(self) -> str:  # never show the secrets
        return f"SecretIndex({len(self.secrets)} secrets)"

    def occurring(self, text: str) -> list[str]:
        """The secrets ``text`` holds, in this index's order; with them, any secret that holds a
        character of the mask (masking other secrets can make one appear)."""
        mask_held = self._mask_held
        if len(self.secrets) < _INDEXED_MIN_SECRETS:
            return [value for value in self.secrets if value in text or value in mask_held]
        by_piece = self._by_piece
        size = _PIECE_CHARS
        held = {piece for piece in (text[i:i + size] for i in range(len(text) - size + 1)) if piece in by_piece}
        found = [value for piece in held for value in by_piece[piece] if value in text]
        found += [value for value in self._always if value in text or value in mask_held]
        return sorted(found, key=self._rank.__getitem__)


class SecretValues(tuple):  # type: ignore[type-arg]
    """A tuple of secret values as written (no encodings) that several holders share, e.g. every
    server of a config file (:attr:`toolsearch.live.mcpconfig.ServerSpec.peer_secrets`): its
    :class:`SecretIndex` (:meth:`index`) is built once, on first use, for all of them."""

    def index(self) -> SecretIndex:
        """:func:`secret_index` of these values, worked out once."""
        found = self.__dict__.get("_index")
        if found is None:
            found = self.__dict__["_index"] = secret_index(self)
        return found

    def holds(self, values: Iterable[str]) -> bool:
        """Whether every value of ``values`` that counts as a secret (:func:`secret_list`) is one of these."""
        counted = self.__dict__.get("_counted")
        if counted is None:
            counted = self.__dict__["_counted"] = frozenset(self)
        return all(v in counted for v in values if free_text_secret(v))

    def __reduce__(self) -> tuple[Any, ...]:  # a copy leaves the index behind (it is rebuilt on use)
        return (SecretValues, (tuple(self),))


#: A base64 piece of a secret inside a longer base64 text is masked only from this many characters.
_BASE64_PIECE_MIN_CHARS = 8


def encoded_forms(value: str) -> set[str]:
    """``value`` and the obvious encodings of it a server might print instead (see
    :func:`_encoded_forms`, which this copies from its cache).

    Returns:
        a set of strings (``value`` itself included).
    """
    return set(_encoded_forms(value))


@functools.lru_cache(maxsize=1024)
def _encoded_forms(value: str) -> frozenset[str]:
    """``value`` and the obvious encodings of it a server might print instead.

    * percent-encoding (``quote`` and ``quote_plus`` with nothing safe), escapes upper and lower case;
    * hex of the UTF-8 bytes, lower and upper case;
    * base64 of the UTF-8 bytes, standard and URL-safe alphabets, with and without ``=`` padding;
    * the part of that base64 text that stays the same when the value sits inside a longer
      base64-encoded text (e.g. ``Authorization: Bearer <value>`` encoded as a whole) at any of
      the three byte alignments (kept only from :data:`_BASE64_PIECE_MIN_CHARS` characters);
    * the value as it stands inside a JSON string (:func:`_json_forms`: a server that returns its
      settings or environment as JSON text) and HTML-escaped (an error page);
    * the value as a harness registers it inside a tool name (every character other than a
      letter, digit or ``_`` as ``_``: ``sk-proj-…`` as ``sk_proj_…``);
    * for a value that holds percent escapes (a URL's ``p%40ss``, ``?api_key=abc%2Fdef``), all of
      the above for the decoded text too (``p@ss``, ``abc/def``): the program that reads the URL
      decodes it, and prints what it decoded.

    Scrubbing asks for these for every string a server sends, so they are computed once per value.
    """
    out: set[str] = set()
    # A percent-encoded value (a URL's ``p%40ss``, ``?api_key=abc%2Fdef``) reaches the program
    # decoded: it prints ``p@ss``, so the decoded text and its encodings count as the value too.
    for base in {value, unquote(value), unquote_plus(value)}:
        if base == value or len(base) >= SECRET_MIN_CHARS:
            out.update(_forms_of(base))
    return frozenset(form for form in out if form)


def _forms_of(value: str) -> set[str]:
    """``value`` and its encodings for :func:`_encoded_forms` (one text, not decoded)."""
    import base64  # noqa: PLC0415
    import binascii  # noqa: PLC0415

    # As a harness registers it in a tool name (every character but letters, digits and "_" as
    # "_"): "sk-proj-…" becomes "sk_proj_…", "envValue-Heron-9924" "envValue_Heron_9924".
    out = {value}
    registered = _UNSAFE_NAME_CHARS.sub("_", value)
    if sum(ch.isalnum() for ch in registered) >= SECRET_MIN_CHARS:  # not a run of "_" that ordinary names hold
        out.add(registered)
    # a lone surrogate (a JSON config's "\ud800") has no UTF-8 form: its code is encoded as it stands
    for percent in (quote(value, safe="", errors="surrogatepass"), quote_plus(value, safe="", errors="surrogatepass")):
        out.add(percent)
        out.add(re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), percent))
    raw = value.encode("utf-8", "surrogatepass")
    hexed = binascii.hexlify(raw).decode("ascii")
    out.update({hexed, hexed.upper()})
    for shift in range(3):  # the value starts at byte 0, 1 or 2 of a 3-byte base64 group
        encoded = base64.b64encode(b"\0" * shift + raw).decode("ascii")
        total = shift + len(raw)
        # Characters fully made of the value's bits: skip those mixing in the bytes before it,
        # and those mixing in whatever follows it.
        start = (0, 2, 3)[shift]
        end = 4 * (total // 3) + (0, 1, 2)[total % 3]
        piece = encoded[start:end]
        if shift == 0:
            whole = encoded
            out.update({whole, whole.rstrip("=")})
            urlsafe = whole.translate(str.maketrans("+/", "-_"))
            out.update({urlsafe, urlsafe.rstrip("=")})
        if len(piece) >= _BASE64_PIECE_MIN_CHARS:
            out.update({piece, piece.translate(str.maketrans("+/", "-_"))})
    out.update(_json_forms(value))
    out.update(_html_forms(value))
    return out


def _json_forms(value: str) -> set[str]:
    """``value`` as JSON writers put it inside a string: quotes, backslashes and controls escaped,
    non-ASCII characters as they are or as ``\\uXXXX`` (lower or upper case hex), ``/`` as ``\\/``
    (PHP's ``json_encode``) and ``<``, ``>``, ``&`` as ``\\u003c``… (Go's ``encoding/json``)."""
    out = set()
    for ascii_only in (False, True):
        text = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
        for form in (text, text.replace("/", "\\/")):
            out.add(form)
            go = form.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            out.add(go)
            for item in (form, go):
                out.add(re.sub(r"\\u[0-9a-f]{4}", lambda m: "\\u" + m.group(0)[2:].upper(), item))
    # .NET's System.Text.Json (the C# MCP SDK): every character outside ASCII and each of
    # " ' + < > & ` as \uXXXX in upper case hex ("a+b" is written "a\u002Bb").
    ascii_text = json.dumps(value, ensure_ascii=True)[1:-1].replace('\\"', '"')
    ascii_text = re.sub(r"\\u[0-9a-f]{4}", lambda m: "\\u" + m.group(0)[2:].upper(), ascii_text)
    out.add(re.sub("[\"'+<>&`]", lambda m: f"\\u{ord(m.group(0)):04X}", ascii_text))
    return out


def _html_forms(value: str) -> set[str]:
    """``value`` HTML- or XML-escaped: ``&``, ``<``, ``>`` as entities, and ``"`` and ``'`` as
    written or as any of the entities writers use (``&quot;``/``&#34;``/``&#x22;``,
    ``&#x27;``/``&#39;``/``&apos;``: Python's ``html.escape``, Go's ``html.EscapeString``, XML)."""
    base = html.escape(value, quote=False)
    out = {base}
    for quote_form in ('"', "&quot;", "&#34;", "&#x22;"):
        for apostrophe in ("'", "&#x27;", "&#39;", "&apos;"):
            out.add(base.replace('"', quote_form).replace("'", apostrophe))
    return out


def scrub_text(text: str, secrets: Iterable[str] | SecretIndex = (), urls: Iterable[str] = ()) -> str:
    """``text`` with URLs redacted (:func:`redact_url`: userinfo and query values masked) and
    every value of ``secrets`` replaced by ``••••``: wherever it occurs from
    :data:`SECRET_ANYWHERE_MIN_CHARS` characters up, and so a shorter one that looks generated
    (``ab12`` in ``ab12xyz``); a shorter word or number only where it stands as a whole token
    (``LOG_LEVEL=info`` masks ``info`` in "level info." but not in "information"; :func:`masked_anywhere`).

    A secret split over lines (line breaks, with the spaces around them, between its
    characters) is masked too, so scrub a whole stderr buffer before cutting it into lines.

    Args:
        text: a message (a reason, a warning, a stderr buffer…).
        secrets: values to mask, e.g. :meth:`ServerSpec.secret_values` (longest first), or a
            :class:`SecretIndex` of them (:meth:`ServerSpec.secret_index`: the same result, in time
            about the length of ``text`` rather than the number of secrets).
        urls: URLs known to be in play; each is replaced by its redacted form first.
    """
    if not text:
        return text
    for url in sorted({u for u in urls if u}, key=len, reverse=True):
        text = text.replace(url, redact_url(url))
    text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    index = secrets if isinstance(secrets, SecretIndex) else None
    # Through an index, only the secrets the text holds: masking one makes no other appear (the
    # mask is not part of any, or the index names that one too), so the rest would mask nothing.
    secrets = index.occurring(text) if index is not None else [value for value in secrets if value]
    short: list[str] = []
    for value in secrets:
        if not masked_anywhere(value):
            short.append(value)  # masked as whole tokens only, below
        else:
            text = text.replace(value, C.SECRET_MASK)
    if short:
        text = _token_pattern(tuple(sorted(set(short), key=len, reverse=True))).sub(C.SECRET_MASK, text)
    if (index.secrets if index is not None else secrets) and ("\n" in text or "\r" in text):
        text = _scrub_across_lines(text, index if index is not None else secrets)
    return text


_WORD = re.compile(r"\w")


def masked_anywhere(value: str) -> bool:
    """Whether :func:`scrub_text` masks the secret ``value`` wherever it occurs, glued to other text
    too (``ab12`` in ``ab12xyz``), rather than only where it stands as a whole token (``info`` in
    "level info." but not in "information"): from :data:`SECRET_ANYWHERE_MIN_CHARS` characters up
    always, a shorter value unless it is one word of letters or a number (:data:`_TOKEN_ONLY_SHAPE`)."""
    return len(value) >= SECRET_ANYWHERE_MIN_CHARS or not _TOKEN_ONLY_SHAPE.fullmatch(value)


def _as_token(value: str, pattern: str) -> str:
    """``pattern`` (which matches ``value``) matching only where ``value`` stands as a whole
    token: not glued to a letter, digit or underscore at an end of it that is one itself (see
    :func:`masked_anywhere`)."""
    before = r"(?<!\w)" if _WORD.match(value[0]) else ""
    after = r"(?!\w)" if _WORD.match(value[-1]) else ""
    return f"{before}(?:{pattern}){after}"


@functools.lru_cache(maxsize=256)
def _token_pattern(values: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for short secrets ``values`` (longest first), each as a whole token."""
    return re.compile("|".join(_as_token(value, re.escape(value)) for value in values))


def _glued(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is glued to a letter, digit or underscore on a side where its
    own character is one (the opposite of standing as a whole token)."""
    return bool((start > 0 and _WORD.match(text[start]) and _WORD.match(text[start - 1]))
                or (end < len(text) and _WORD.match(text[end - 1]) and _WORD.match(text[end])))


#: A line break inside a secret, with the spaces and tabs around it (a stderr line cut in two).
_LINE_BREAK = r"(?:[ \t]*(?:\r\n|\r|\n)[ \t]*)?"


def _scrub_across_lines(text: str, secrets: Sequence[str] | SecretIndex) -> str:
    """``text`` with every secret that line breaks split (``abc\\ndef``) masked; the line breaks
    stay, so the text keeps its lines (the mask is on the first of them)."""
    joined = _BREAK.sub("", text)
    candidates = secrets.occurring(joined) if isinstance(secrets, SecretIndex) else set(secrets)
    split = [value for value in set(candidates) if value in joined]
    if not split:  # the common case: no secret at all, so no pattern to build
        return text
    pattern = re.compile("|".join(
        _across_lines(value) if masked_anywhere(value) else _as_token(value, _across_lines(value))
        for value in sorted(split, key=len, reverse=True)))
    return pattern.sub(_mask_keeping_breaks, text)


#: A line break with the spaces and tabs around it.
_BREAK = re.compile(r"(?<![ \t])[ \t]*(?:\r\n|\r|\n)[ \t]*")  # (see _SHAPE_BREAK: linear time)


def _across_lines(value: str) -> str:
    """A pattern matching ``value`` with line breaks (:data:`_LINE_BREAK`) between its characters."""
    return _LINE_BREAK.join(re.escape(ch) for ch in value)


def _mask_keeping_breaks(match: re.Match[str]) -> str:
    return C.SECRET_MASK + "".join(ch for ch in match.group(0) if ch in "\r\n")


@functools.lru_cache(maxsize=256)
def _starts_by_last_char(secrets: tuple[str, ...], min_chars: int) -> dict[str, tuple[tuple[str, bool], ...]]:
    """Every start of every secret (at least ``min_chars`` long) by its last character, longest
    first, each with whether it only counts as a whole token (it is the start of secrets masked
    as whole tokens only, see :func:`masked_anywhere`)."""
    found: dict[str, dict[str, bool]] = {}
    for value in secrets:
        short = not masked_anywhere(value)
        for size in range(min_chars, len(value) + 1):
            starts = found.setdefault(value[size - 1], {})
            starts[value[:size]] = starts.get(value[:size], True) and short
    return {ch: tuple(sorted(starts.items(), key=lambda item: len(item[0]), reverse=True))
            for ch, starts in found.items()}


@functools.lru_cache(maxsize=256)
def _ends_by_first_char(secrets: tuple[str, ...], min_chars: int) -> dict[str, tuple[tuple[str, bool], ...]]:
    """Every end of every secret (at least ``min_chars`` long) by its first character, longest
    first, each with whether it only counts as a whole token (as :func:`_starts_by_last_char`)."""
    found: dict[str, dict[str, bool]] = {}
    for value in secrets:
        short = not masked_anywhere(value)
        for size in range(min_chars, len(value) + 1):
            ends = found.setdefault(value[-size], {})
            ends[value[-size:]] = ends.get(value[-size:], True) and short
    return {ch: tuple(sorted(ends.items(), key=lambda item: len(item[0]), reverse=True))
            for ch, ends in found.items()}


def mask_trailing_prefix(text: str, secrets: Iterable[str], min_chars: int = SECRET_MIN_CHARS) -> str:
    """``text`` with its end masked when the end is the start of a secret: a value cut off there,
    or whose rest is on a line not read yet.

    The start may itself be cut by line breaks (like a value :func:`scrub_text` masks across
    lines); the mask goes where the start begins and the line breaks stay. Trailing white space
    is kept.

    Args:
        text: a message, usually already passed through :func:`scrub_text`.
        secrets: values to look for, e.g. :func:`secret_list` of them (every encoded form counts).
        min_chars: shorter starts are left alone (they would mask ordinary words).

    Returns:
        ``text``, or ``text`` with its longest trailing start of a secret (at least ``min_chars``
        characters, not counting line breaks) replaced by ``••••``; the start of a secret masked as
        a whole token only (:func:`masked_anywhere`) only where it begins a token.
    """
    flat = _BREAK.sub("", text).rstrip()
    if len(flat) < min_chars:
        return text
    starts = _starts_by_last_char(tuple(secrets), min_chars).get(flat[-1], ())
    # The start of a short secret counts where it begins a token (what follows it is not at hand).
    best = next((start for start, token in starts if flat.endswith(start)
                 and not (token and _glued(flat, len(flat) - len(start), len(flat)))), "")
    if not best:
        return text
    return re.sub(_across_lines(best) + r"(?=\s*\Z)", _mask_keeping_breaks, text, count=1)


def mask_leading_suffix(text: str, secrets: Iterable[str], min_chars: int = SECRET_MIN_CHARS) -> str:
    """``text`` with its start masked when the start is the end of a secret: the rest of a value
    begun on a line whose text is not at hand (the mirror of :func:`mask_trailing_prefix`).

    Returns:
        ``text``, or ``text`` with its longest leading end of a secret (at least ``min_chars``
        characters, not counting line breaks) replaced by ``••••`` (of a secret masked as a whole
        token only, :func:`masked_anywhere`, only where it ends a token); leading white space is kept.
    """
    flat = _BREAK.sub("", text).lstrip()
    if len(flat) < min_chars:
        return text
    ends = _ends_by_first_char(tuple(secrets), min_chars).get(flat[0], ())
    # The end of a short secret counts where it ends a token (what came before it is not at hand).
    best = next((end for end, token in ends if flat.startswith(end) and not (token and _glued(flat, 0, len(end)))), "")
    if not best:
        return text
    match = re.match(r"\s*", text)
    lead = match.group(0) if match else ""
    return lead + re.sub(_across_lines(best), _mask_keeping_breaks, text[len(lead):], count=1)


def scrub_data(value: Any, scrub: Any) -> tuple[Any, int]:
    """Every string in parsed JSON ``value`` (dict keys included, at any depth) passed through
    ``scrub`` (e.g. :meth:`ServerSpec.scrub`), and every number as JSON writes it: a secret of
    digits (a PIN, an account number) that a server sends back as a JSON number (``"default":
    84736251``) becomes the masked text (``"••••"``, ``"••••.5"``) instead of staying a number.

    Returns:
        ``(scrubbed copy, number of strings and numbers that changed)``.
    """
    changed = 0

    def walk(item: Any) -> Any:
        nonlocal changed
        if isinstance(item, str):
            out = scrub(item)
            if out != item:
                changed += 1
            return out
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            try:
                text = repr(item)
            except ValueError:  # an integer longer than Python writes (4,300 digits): left as it is
                return item
            out = scrub(text)
            if out != text:
                changed += 1
                return out
            return item
        if isinstance(item, Mapping):
            return {walk(k) if isinstance(k, str) else k: walk(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(v) for v in item]
        return item

    return walk(value), changed


def _mask_query(text: str) -> str:
    """``a=1&b&c=x`` → ``a=••••&b&c=••••`` (values masked, names kept; a bare item is masked
    when it is not a plain word)."""
    items = []
    for item in re.split(r"([&;])", text):
        if item in ("&", ";") or not item:
            items.append(item)
        elif "=" in item:
            items.append(item.partition("=")[0] + "=" + C.SECRET_MASK)
        else:
            items.append(item if _PLAIN_WORD.fullmatch(item) else C.SECRET_MASK)
    return "".join(items)


_USERINFO_GUESS = re.compile(r"^((?:[A-Za-z][A-Za-z0-9+.\-]*:(?=[/\\]))?[/\\]*)[^/?#]*@")
_QUERY_VALUE_GUESS = re.compile(r"([?&;#][^=&;#?]*=)[^&;#]*")


def _redact_unreadable_url(url: str) -> str:
    """A URL that :func:`urlsplit` cannot read or finds no host in, masked by its shape: whatever
    stands before an ``@`` ahead of the first ``/``, ``?`` or ``#`` (after ``scheme://``), and
    every ``name=value`` value."""
    url = _USERINFO_GUESS.sub(lambda m: f"{m.group(1)}{C.SECRET_MASK}@", url, count=1)
    return _QUERY_VALUE_GUESS.sub(lambda m: m.group(1) + C.SECRET_MASK, url)


#: A matrix parameter in a URL's path: ``;name=value`` (``/app;jsessionid=ABC123/page``), a value
#: sent with the path as a query value is sent after it.
_MATRIX_PARAM = re.compile(r"(;[^;/=]*=)([^;/]*)")


def matrix_values(path: str) -> list[str]:
    """The values of the matrix parameters in a URL's ``path`` (``/app;jsessionid=ABC;v=2`` →
    ``["ABC", "2"]``): secrets as query values are."""
    return [match.group(2) for match in _MATRIX_PARAM.finditer(path) if match.group(2)]


#: A URL's parts as they stand in its text (RFC 3986, appendix B): where :func:`redact_url` masks.
_URL_PARTS = re.compile(r"(?:[^:/?#]+:)?(?://(?P<authority>[^/?#]*))?(?P<path>[^?#]*)"
                        r"(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?", re.DOTALL)


def redact_url(url: str) -> str:
    """The URL with any ``user:password@`` replaced by ``••••@`` and query values, matrix parameter
    values in its path (:func:`matrix_values`) and ``name=value`` fragment values masked:
    ``?token=abc`` → ``?token=••••``, ``/app;jsessionid=abc`` → ``/app;jsessionid=••••``.

    Only those parts are replaced; every other character stays as written (``sqlite:///x?password=…``
    keeps its ``///``, a tab or a line break stays where it was)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://u:pw@[::1": not a URL Python reads, the credentials still there
        return _redact_unreadable_url(url)
    if not parts.netloc and "@" in url:  # "u:pw@host/mcp", "http:\\\\u:pw@host": no authority read
        return _redact_unreadable_url(url)
    match = _URL_PARTS.fullmatch(url)
    authority = match.group("authority") if match else None
    if match is None or ("@" in parts.netloc) != ("@" in (authority or "")):
        # Python read a user part the text does not show as one ("https:/<tab>/u:pw@host": it
        # drops tabs and line breaks first): the URL as Python reads it, masked
        return _redact_rebuilt(parts) or url
    spans: list[tuple[int, int, str]] = []
    if authority and "@" in authority:
        spans.append((match.start("authority"), match.start("authority") + authority.rindex("@"), C.SECRET_MASK))
    offset = match.start("path")
    spans += [(offset + m.start(2), offset + m.end(2), C.SECRET_MASK)
              for m in _MATRIX_PARAM.finditer(match.group("path")) if m.group(2)]
    for name in ("query", "fragment"):
        text = match.group(name)
        if text and (name == "query" or "=" in text):
            masked = _mask_query(text)
            if masked != text:
                spans.append((match.start(name), match.end(name), masked))
    out, done = [], 0
    for start, end, replacement in spans:
        out += [url[done:start], replacement]
        done = end
    return "".join(out) + url[done:]


def _redact_rebuilt(parts: SplitResult) -> str | None:
    """The URL of ``parts`` put together again with its user part, matrix parameter values, query
    values and fragment values masked, or ``None`` when nothing was masked."""
    changed = parts
    if "@" in parts.netloc:
        changed = changed._replace(netloc=f"{C.SECRET_MASK}@{parts.netloc.rpartition('@')[2]}")
    if ";" in parts.path:
        changed = changed._replace(path=_MATRIX_PARAM.sub(
            lambda m: m.group(1) + (C.SECRET_MASK if m.group(2) else ""), parts.path))
    if parts.query:
        changed = changed._replace(query=_mask_query(parts.query))
    if "=" in parts.fragment:
        changed = changed._replace(fragment=_mask_query(parts.fragment))
    return None if changed == parts else urlunsplit(changed)


# --- known credential shapes in free text -----------------------------------------------------------

#: Credential shapes a vendor prefix makes unmistakable: masked wherever they start, even glued to
#: the word before them (``userghp_…`` in an error text).
_DISTINCT_TOKEN = re.compile(
    r"gh[pousr]_[A-Za-z0-9]{20,}"                    # GitHub tokens (classic PAT, OAuth, user, server, refresh)
    r"|github_pat_[A-Za-z0-9_]{20,}"                 # GitHub fine-grained PAT
    r"|sk-ant-[A-Za-z0-9_\-]{16,}"                   # Anthropic
    r"|glpat[-_][A-Za-z0-9_\-]{16,}"                 # GitLab (also as registered in a name: glpat_…)
    r"|xox[abposre][-_][A-Za-z0-9_\-]{10,}"          # Slack (also xoxb_…)
    r"|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}"            # AWS access key ids
    r"|AIza[0-9A-Za-z_\-]{30,}"                      # Google API keys
    r"|hf_[A-Za-z0-9]{30,}"                          # Hugging Face
    r"|eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"  # a JWT (its header starts '{"')
    r"|eyJ[A-Za-z0-9_\-]{8,}_eyJ[A-Za-z0-9_\-]{8,}")  # a JWT registered in a name (its dots as "_")
#: Shapes whose prefix also starts ordinary words (``sk-`` as in ``risk-…``): masked at the start of a
#: word, or glued to a word only when the rest looks random (letters and digits, 20+ characters).
#: ``sk_…`` is an ``sk-…`` key as a harness registers it in a tool name (``sk-proj-…`` as
#: ``sk_proj_…``): masked only when the rest looks random, at the start of a word too
#: (``sk_learn_pipeline_fit`` is a name).
_PLAIN_TOKEN = re.compile(r"(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{12,}|sk_(?:live|test)_[A-Za-z0-9]{8,}"
                          r"|rk_(?:live|test)_[A-Za-z0-9]{8,}|sk_[A-Za-z0-9_\-]{12,})")
#: ``Bearer xyz`` / ``Basic xyz`` / ``token xyz`` (an HTTP auth scheme and its credentials).
_AUTH_SCHEME = re.compile(r"\b(Bearer|Basic|token)(\s+)([A-Za-z0-9._~+/=\-]{8,})", re.IGNORECASE)


def _looks_random(text: str) -> bool:
    """Letters and digits mixed (what a generated key has and an ordinary word has not)."""
    return bool(re.search(r"\d", text)) and bool(re.search(r"[A-Za-z]", text))


#: A glued ``sk-…`` is a key only with a run this long (between ``-`` / ``_``) mixing letters and digits:
#: a generated key has one, hyphenated words with a version number (``disk-usage-by-volume-v2``) have not.
_GLUED_KEY_RUN = 16


def _plain_token_is_secret(match: re.Match[str]) -> bool:
    """False for a :data:`_PLAIN_TOKEN` match glued to a word that does not look random (``risk-…``,
    ``disk-usage-by-volume-v2``, ``update-task-status-in-list-v2``)."""
    start, value = match.start(1), match.group(1)
    before = match.string[start - 1] if start else " "
    registered = value.startswith("sk_") and not value.startswith(("sk_live_", "sk_test_"))
    if not (before.isalnum() or before in "_-") and not registered:
        return True
    return len(value) >= 20 and any(len(run) >= _GLUED_KEY_RUN and _looks_random(run) for run in re.split(r"[-_]", value))


def credential_shapes(text: str) -> list[str]:
    """The known credential shapes in ``text`` (the vendor-prefixed tokens and ``sk-…`` keys that
    :func:`mask_credential_shapes` masks), each as it stands: the values to scrub from what a
    program prints when ``text`` came from a config."""
    if not text:
        return []
    found = [m.group(0) for m in _DISTINCT_TOKEN.finditer(text)]
    return found + [m.group(1) for m in _PLAIN_TOKEN.finditer(text) if _plain_token_is_secret(m)]


#: A line break inside a credential, with the spaces and tabs around it; also as JSON text writes
#: one (``\\n``: an error object kept as JSON). (The look-behind starts it only where a run of
#: spaces starts: without it, a long run of spaces took time in the square of its length.)
_SHAPE_BREAK = re.compile(r"(?<![ \t])[ \t]*(?:\r\n|\r|\n|\\r\\n|\\n|\\r)[ \t]*")
#: The characters credential shapes are made of (a JWT's dots included).
_SHAPE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_SHAPE_RUN_START = re.compile(r"[A-Za-z0-9_.\-]+")
#: How much of a run of shape characters cut by line breaks is kept while reading on (the longest
#: shapes, JWTs, can be longer, but a run this long is never a word).
_SHAPE_RUN_CAP = 512


#: How the known shapes start: a run of shape characters cut by a line break is joined to the next
#: line only when it holds one of these, or ends with the start of one (``gh`` / ``p_…``).
_SHAPE_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "sk_", "rk_", "glpat", "xox",
                   "AKIA", "ASIA", "AIza", "hf_", "eyJ")
_SHAPE_PREFIX = re.compile("|".join(map(re.escape, _SHAPE_PREFIXES)))
_SHAPE_PREFIX_CUT = re.compile("(?:" + "|".join(sorted(
    {re.escape(p[:n]) for p in _SHAPE_PREFIXES for n in range(1, len(p))}, key=len, reverse=True)) + r")\Z")
_SHAPE_PREFIX_MAX = max(map(len, _SHAPE_PREFIXES))


def _shape_spans(text: str) -> list[tuple[int, int]]:
    """Where :func:`mask_credential_shapes` masks a known shape in ``text`` (one line's rules)."""
    spans = [m.span() for m in _DISTINCT_TOKEN.finditer(text)]
    return spans + [m.span(1) for m in _PLAIN_TOKEN.finditer(text) if _plain_token_is_secret(m)]


def _continues_shape(run: str, prefix_at: int, head: str) -> bool:
    """Whether ``head``, the shape characters that start the line after a break, carry on a
    credential that ``run`` (the shape characters before the break, its last shape prefix at
    ``prefix_at``, -1 for none) started: ``run`` ends with the start of a prefix, or is not a whole
    shape yet from its last prefix on, or ``head`` looks generated (a digit, or a capital letter past
    its first character: a word that starts the next line, such as ``Please``, is not taken into a
    key already whole)."""
    if not run or not head:
        return False
    if _SHAPE_PREFIX_CUT.search(run[-_SHAPE_PREFIX_MAX:]):
        return True
    if prefix_at < 0:
        return False
    tail = run[prefix_at:]
    if not any(end == len(tail) for _, end in _shape_spans(tail)):
        return True
    return bool(re.search(r"\d|.[A-Z]", head))


def _mask_split_shapes(text: str) -> str:
    """``text`` with every known credential shape that line breaks cut (``ghp_abc`` / ``def…``)
    masked: the mask where it starts, its line breaks kept. Time linear in the text."""
    if "\n" not in text and "\r" not in text and "\\" not in text:
        return text
    pieces: list[tuple[int, int]] = [(0, 0)]  # (start in joined, start in text) of each piece
    parts: list[str] = []
    size = line_start = piece_start = 0
    run, prefix_at, joined_last = "", -1, False
    for match in _SHAPE_BREAK.finditer(text):
        line = text[line_start:match.start()]
        own = line[len(line.rstrip(_SHAPE_CHARS)):]
        if not (joined_last and len(own) == len(line)):
            run, prefix_at = "", -1
        # the last prefix, looked for in what was added (and the few characters before it)
        since = max(0, len(run) - _SHAPE_PREFIX_MAX)
        run += own
        found = [m.start() for m in _SHAPE_PREFIX.finditer(run, since)]
        prefix_at = found[-1] if found else prefix_at
        if len(run) > _SHAPE_RUN_CAP:
            cut = len(run) - _SHAPE_RUN_CAP
            run, prefix_at = run[cut:], prefix_at - cut if prefix_at >= cut else -1
        head = _SHAPE_RUN_START.match(text, match.end())
        joined_last = _continues_shape(run, prefix_at, head.group(0)[:_SHAPE_RUN_CAP] if head else "")
        line_start = match.end()
        if joined_last:
            parts.append(text[piece_start:match.start()])
            size += match.start() - piece_start
            piece_start = match.end()
            pieces.append((size, piece_start))
    if len(pieces) == 1:
        return text
    parts.append(text[piece_start:])
    joined = "".join(parts)
    starts = [start for start, _ in pieces]

    def at(index: int) -> int:  # a position in joined as a position in text
        piece = bisect.bisect_right(starts, index) - 1
        return pieces[piece][1] + index - pieces[piece][0]

    out: list[str] = []
    done = 0
    for start, end in sorted(_shape_spans(joined)):
        first, last = at(start), at(end - 1) + 1
        if last - first == end - start or first < done:
            continue  # on one line: masked as usual
        kept = "".join(m.group(0).strip(" \t") for m in _SHAPE_BREAK.finditer(text, first, last))
        out += [text[done:first], C.SECRET_MASK, kept]
        done = last
    return "".join(out) + text[done:]


def mask_credential_shapes(text: str) -> str:
    """``text`` with URL credentials and query values (:func:`redact_url`, for every URL in it) and
    the known credential shapes of :func:`credential_shapes` masked, also one that line breaks cut
    in two (``\\n`` written in JSON text counts as one); the rest as it is."""
    if not text:
        return text
    text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    text = _mask_split_shapes(text)
    text = _DISTINCT_TOKEN.sub(C.SECRET_MASK, text)
    return _PLAIN_TOKEN.sub(lambda m: C.SECRET_MASK if _plain_token_is_secret(m) else m.group(0), text)


def mask_token_shapes(text: str) -> str:
    """``text`` with known credential shapes masked (``••••``), wherever they are.

    Masked: GitHub (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``), Anthropic
    (``sk-ant-``), OpenAI (``sk-``, ``sk-proj-``), Stripe (``sk_live_``…), GitLab (``glpat-``),
    Slack (``xoxb-``…), AWS key ids (``AKIA…``), Google API keys (``AIza…``), Hugging Face
    (``hf_``) tokens and JWTs (``eyJ….….…``), also glued to the word before them, cut in two by a
    line break and as a harness registers them in a name (``sk_proj_…``); the credentials
    after ``Bearer``, ``Basic`` or ``token`` when they look generated (a digit or a symbol in
    them, or 24+ characters: "token authentication" stays); URL credentials and query values
    (:func:`redact_url`).

    Args:
        text: free text (a recorded query, an error message).

    Returns:
        the text with those parts replaced by :data:`~toolsearch.engine.constants.SECRET_MASK`.
    """
    if not text:
        return text
    text = mask_credential_shapes(text)

    def scheme(match: re.Match[str]) -> str:
        value = match.group(3)
        if value == C.SECRET_MASK or not (_looks_random(value) or re.search(r"[._~+/=\-]", value) or len(value) >= 24):
            return match.group(0)
        if option_shaped(value):  # `--token --verbose`: the next option, not credentials
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}{C.SECRET_MASK}"

    return _AUTH_SCHEME.sub(scheme, text)
