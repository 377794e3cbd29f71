"""Expand the template data files under ``scripts/catalog_data/templates/`` into server tools.

Two sample servers are too large to write tool by tool: the Unreal editor server (about 830
tools) and the Cloudflare flat API (3,300 tools). Their data files hold only the vocabulary
(entities, verbs, phrasings, resource specs, products, settings, datasets...), and the
functions here combine it into tools the way those servers grow: entities × verbs, resource
paths × verb codes. Each template then keeps a seeded random sample of its tools, so the output
is the same on every run (``random.Random`` seeded from the file's ``seed``; never the global
generator, the clock or the network).

``expand(doc, where)`` is what the generator calls: ``doc`` is a template file as loaded from
YAML, with ``template`` naming the expansion (``unreal`` or ``cloudflare``) and ``server`` the
server name; it returns ``{"servers": {server: [tool, ...]}}``, the shape of a server data file.
Each tool is a dict as an MCP server lists it (``name``, ``description``, ``inputSchema``,
optional ``annotations``). The vocabulary keys each template reads are described in the comments
at the top of its data file.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Iterable

Schema = dict[str, Any]
Param = tuple[str, Schema, bool]  # (property name, schema, required)


class TemplateError(ValueError):
    """A template data file lacks a vocabulary entry or has one of the wrong shape. The message
    names the file and the entry."""


# =============================================================================================
# Schema helpers
# =============================================================================================

def _typed(kind: str, desc: str | None, extra: dict[str, Any], **before: Any) -> Schema:
    """``{"type": kind, **before, "description": desc, **extra}``, without an empty
    description (the key order real servers emit)."""
    out: Schema = {"type": kind, **before}
    if desc:
        out["description"] = desc
    out.update(extra)
    return out


def S(desc: str | None = None, **extra: Any) -> Schema:
    """A string property."""
    return _typed("string", desc, extra)


def I(desc: str | None = None, **extra: Any) -> Schema:
    """An integer property."""
    return _typed("integer", desc, extra)


def N(desc: str | None = None, **extra: Any) -> Schema:
    """A number property."""
    return _typed("number", desc, extra)


def B(desc: str | None = None, **extra: Any) -> Schema:
    """A boolean property."""
    return _typed("boolean", desc, extra)


def E(values: Iterable[str], desc: str | None = None, **extra: Any) -> Schema:
    """A string enum property."""
    return _typed("string", desc, extra, enum=list(values))


def A(items: Schema, desc: str | None = None, **extra: Any) -> Schema:
    """An array property."""
    return _typed("array", desc, extra, items=items)


def O(props: dict[str, Schema], required: Iterable[str] = (), desc: str | None = None,
      **extra: Any) -> Schema:
    """A nested object property (Go/zod style key order)."""
    out: Schema = {"type": "object"}
    if desc:
        out["description"] = desc
    out["properties"] = props
    req = list(required)
    if req:
        out["required"] = req
    out.update(extra)
    return out


def root_go(params: list[Param]) -> Schema:
    """``{"type":"object","properties":…,"required":[…]}`` as Go servers emit it."""
    out: Schema = {"type": "object", "properties": {n: s for n, s, _ in params}}
    req = [n for n, _, r in params if r]
    if req:
        out["required"] = req
    return out


def tool(name: str, description: str, schema: Schema,
         annotations: dict[str, Any] | None = None) -> dict[str, Any]:
    """One catalog tool entry."""
    out: dict[str, Any] = {"name": name, "description": description, "inputSchema": schema}
    if annotations:
        out["annotations"] = annotations
    return out


def params_of(block: dict[str, Any] | None) -> list[Param]:
    """``{"properties": {...}, "required": [...]}`` from a data file as parameter triples, in
    the order of ``properties`` (both keys optional)."""
    block = block or {}
    required = block.get("required") or []
    return [(n, s, n in required) for n, s in (block.get("properties") or {}).items()]


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")


def _article(noun: str) -> str:
    first = noun.split(" ")[0]
    if first.isupper() and len(first) > 1:  # an acronym is read letter by letter: "an SSL ..."
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if noun[:1].lower() in "aeiou" else "a"


# =============================================================================================
# unreal — an editor-automation server: actors × verbs and assets × verbs, thinned
# =============================================================================================

class Unreal:
    """The Unreal editor template; ``vocab`` is the loaded ``templates/unreal.yaml``."""

    def __init__(self, vocab: dict[str, Any]) -> None:
        self.v = vocab
        self.vector: Schema = vocab["shared"]["vector"]
        self.rotation: Schema = vocab["shared"]["rotation"]

    @staticmethod
    def prop(spec: str) -> tuple[str, Schema]:
        """``"name:type"`` (number, int, bool, string, color, vector, path, enum(A|B)) as the
        property a tool reads or sets."""
        name, _, kind = spec.partition(":")
        label = name.replace("_", " ")
        if kind.startswith("enum("):
            return name, E(kind[5:-1].split("|"), f"New {label}.")
        schemas = {
            "number": N(f"New {label}."), "int": I(f"New {label}."), "bool": B(f"New {label}."),
            "string": S(f"New {label}."),
            "path": S(f"Content path for {label}, e.g. `/Game/...`."),
            "color": O({"r": N(), "g": N(), "b": N(), "a": N()}, ["r", "g", "b"],
                       f"New {label} as linear RGBA between 0 and 1."),
            "vector": O({"x": N(), "y": N(), "z": N()}, ["x", "y", "z"], f"New {label}."),
        }
        if kind not in schemas:
            raise ValueError(f"property spec {spec!r}: expected name:type with a type of "
                             f"{', '.join(schemas)} or enum(A|B)")
        return name, schemas[kind]

    @staticmethod
    def actor_param(noun: str, label: str) -> Schema:
        return S(f"The {noun} to act on: its label as shown in the Outliner, e.g. `{label}`, or "
                 "its full object path. Labels are not unique; when several actors match, the "
                 "call fails and lists them.")

    @staticmethod
    def asset_param(noun: str, path: str) -> Schema:
        return S(f"Content path of the {noun}, e.g. `{path}`. Paths start with `/Game/` for "
                 "project content or `/<Plugin>/` for plugin content; the `.AssetName` suffix "
                 "is optional.")

    @staticmethod
    def _describe(rng: random.Random, verb: dict[str, Any], entity: dict[str, Any]) -> str:
        """Phrasing of the verb + detail of the entity + note of the verb, each picked at
        random (the order of the picks is part of the seeded output)."""
        noun = entity["noun"]
        first = rng.choice(verb["phrasings"]).format(n=noun, ns=_plural(noun))
        return " ".join([first, rng.choice(entity["details"]), rng.choice(verb["notes"])])

    def actor_tool(self, rng: random.Random, verb: dict[str, Any],
                   actor: dict[str, Any]) -> dict[str, Any]:
        key, noun, label = actor["key"], actor["noun"], actor["example"]
        name = verb["name"].format(k=key, ks=_plural(key))
        desc = self._describe(rng, verb, actor)
        target: Param = ("actor", self.actor_param(noun, label), True)
        props = dict(self.prop(p) for p in actor["properties"])
        vec, rot = self.vector, self.rotation
        v = verb["verb"]
        params: list[Param]
        if v == "spawn":
            params = [("label", S(f"Outliner label for the new {noun}, e.g. `{label}`."), False),
                      ("location", vec, True), ("rotation", rot, False), ("scale", vec, False),
                      *[(p, s, False) for p, s in list(props.items())[:3]]]
        elif v in ("list", "find_by_tag"):
            params = [("tag", S("Actor tag to match."), v == "find_by_tag"),
                      ("name_filter", S("Only labels containing this text."), False),
                      ("limit", I("Maximum number of results.", default=100), False)]
        elif v == "get_properties":
            params = [target, ("properties", A(E(list(props)), f"Properties of the {noun} to "
                                               "read; all of them when omitted."), False)]
        elif v == "set_property":
            params = [target, ("property", E(list(props), "Property to change."), True),
                      ("value", {"description": "New value, typed as the property: "
                                 + ", ".join(f"`{p}` {s.get('type', 'string')}"
                                             for p, s in props.items()) + "."}, True)]
        elif v == "set_transform":
            params = [target, ("location", vec, False), ("rotation", rot, False),
                      ("scale", vec, False)]
        elif v == "get_transform":
            params = [target, ("relative", B("Return the transform relative to the parent."),
                               False)]
        elif v == "duplicate":
            params = [target, ("offset", vec, False)]
        elif v == "rename":
            params = [target, ("new_label", S("New Outliner label."), True)]
        elif v == "attach":
            params = [target, ("parent", S("Label or path of the parent actor."), True),
                      ("socket", S("Socket or bone name on the parent."), False),
                      ("keep_world_transform", B("Keep the world transform.", default=True),
                       False)]
        elif v == "select":
            params = [target, ("add", B("Add to the current selection."), False)]
        elif v == "visibility":
            params = [target, ("hidden_in_game", B("Hide in game."), False),
                      ("hidden_in_editor", B("Hide in the editor viewport."), False)]
        elif v == "mobility":
            params = [target, ("mobility", E(["Static", "Stationary", "Movable"],
                                             "New mobility."), True)]
        elif v in ("add_tag", "remove_tag"):
            params = [target, ("tag", S("Actor tag."), True)]
        elif v == "folder":
            params = [target, ("folder", S("Outliner folder path, e.g. `Lighting/Interior`."),
                               True)]
        elif v == "move_level":
            params = [target, ("level", S("Name of the destination sublevel."), True)]
        elif v == "snap":
            params = [target, ("max_distance", N("Trace distance in centimeters.",
                                                 default=10000), False)]
        elif v == "to_blueprint":
            params = [target, ("blueprint_path", S("Content path for the new blueprint class."),
                               True)]
        else:
            params = [target]
        return tool(name, desc, root_go(params))

    def asset_tool(self, rng: random.Random, verb: dict[str, Any],
                   asset: dict[str, Any]) -> dict[str, Any] | None:
        """One asset tool, or None for import/export of an asset without file formats (no
        random pick is made then)."""
        key, noun, path = asset["key"], asset["noun"], asset["example"]
        imports, exports = asset["import_formats"], asset["export_formats"]
        v = verb["verb"]
        if v == "import" and not imports or v == "export" and not exports:
            return None
        name = verb["name"].format(k=key, ks=_plural(key))
        desc = self._describe(rng, verb, asset)
        target: Param = ("asset_path", self.asset_param(noun, path), True)
        props = dict(self.prop(p) for p in asset["properties"])
        folder = path.rsplit("/", 1)[0]
        params: list[Param]
        if v == "create":
            params = [("asset_path", S(f"Content path for the new {noun}, e.g. `{path}`."), True),
                      *[(p, s, False) for p, s in list(props.items())[:3]]]
        elif v == "delete":
            params = [target, ("force", B("Delete even when other assets still reference it."),
                               False)]
        elif v in ("duplicate", "rename"):
            params = [target, ("new_name", S("New asset name without folder."), True)]
        elif v == "move":
            params = [target, ("destination_folder",
                               S("Destination folder, e.g. `/Game/Archive`."), True)]
        elif v == "list":
            params = [("folder", S(f"Content folder to list, e.g. `{folder}`."), False),
                      ("recursive", B("Include subfolders.", default=True), False),
                      ("name_filter", S("Only names containing this text."), False)]
        elif v == "find":
            params = [("query", S(f"Text to match against {noun} names, tags and metadata."),
                       True),
                      ("limit", I("Maximum number of results.", default=50), False)]
        elif v == "get_properties":
            params = [target, ("properties", A(E(list(props)), "Properties to read; all of "
                                               "them when omitted."), False)]
        elif v == "set_property":
            params = [target, ("property", E(list(props), "Property to change."), True),
                      ("value", {"description": "New value, typed as the property."}, True)]
        elif v == "metadata":
            params = [target, ("tag", S("Metadata tag name."), True),
                      ("value", S("Tag value."), True)]
        elif v == "thumbnail":
            params = [target, ("size", I("Edge length in pixels.", default=256), False)]
        elif v == "import":
            params = [("file_path", S(f"Absolute path of the source file "
                                      f"({', '.join(imports)})."), True),
                      ("destination_folder", S(f"Content folder to import into, e.g. "
                                               f"`{folder}`."), True),
                      ("replace_existing", B("Re-import over an existing asset of the same "
                                             "name."), False)]
        elif v == "export":
            params = [target, ("file_path", S("Absolute path of the file to write."), True),
                      ("format", E(exports, "File format."), False)]
        else:
            params = [target]
        return tool(name, desc, root_go(params))

    def tools(self) -> list[dict[str, Any]]:
        """Actors × actor verbs and assets × asset verbs, thinned by a seeded sample so that
        with every asset extra and editor tool the server has ``tool_count`` tools.

        Thinning drops generated entity tools only (never extras or editor tools), the way real
        servers grow unevenly: not every verb exists for every entity."""
        v = self.v
        rng = random.Random(v["seed"])
        generated: list[dict[str, Any]] = []
        for actor in v["actors"]:
            for verb in v["actor_verbs"]:
                generated.append(self.actor_tool(rng, verb, actor))
        for asset in v["assets"]:
            for verb in v["asset_verbs"]:
                t = self.asset_tool(rng, verb, asset)
                if t is not None:
                    generated.append(t)
        fixed: list[dict[str, Any]] = []
        assets = {a["key"]: a for a in v["assets"]}
        for extra in v["asset_extras"]:
            if extra["asset"] not in assets:
                raise ValueError(f"asset extra {extra['name']!r}: unknown asset "
                                 f"{extra['asset']!r}")
            asset = assets[extra["asset"]]
            target = ("asset_path", self.asset_param(asset["noun"], asset["example"]), True)
            fixed.append(tool(extra["name"], extra["description"],
                              root_go([target, *params_of(extra)])))
        for editor in v["editor_tools"]:
            fixed.append(tool(editor["name"], editor["description"], root_go(params_of(editor))))
        keep = v["tool_count"] - len(fixed)
        if not 0 <= keep <= len(generated):
            raise ValueError(f"tool_count {v['tool_count']} needs {keep} generated tools, "
                             f"the vocabulary gives {len(generated)}")
        chosen = sorted(rng.sample(range(len(generated)), keep))
        return [generated[i] for i in chosen] + fixed


# =============================================================================================
# cloudflare — a flat REST API surface with endpoint-named tools
# =============================================================================================

class Cloudflare:
    """The Cloudflare flat API template; ``vocab`` is the loaded ``templates/cloudflare.yaml``."""

    def __init__(self, vocab: dict[str, Any]) -> None:
        self.v = vocab
        self.item_verbs = set(vocab["item_verbs"])
        self.singleton_codes = set(vocab["singleton_codes"])
        self.collection_parents = set(vocab["collection_parents"])

    # --- words ---------------------------------------------------------------------------------

    def words(self, segment: str) -> str:
        """A name segment in words: ``dns_records`` → ``DNS records``."""
        words = [self.v["acronyms"].get(w, w) for w in segment.split("_")]
        return " ".join(w for w in words if w)

    @staticmethod
    def singular(phrase: str) -> str:
        for plural, single in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("xes", "x")):
            if phrase.endswith(plural):
                return phrase[: -len(plural)] + single
        if phrase.endswith("s") and not phrase.endswith(
                ("ss", "us", "analytics", "settings", "status", "DNS", "is", "captures",
                 "details", "mTLS", "TLS", "news", "statistics", "stats")):
            return phrase[:-1]
        return phrase

    def note(self, product: str, scope: str) -> str:
        """The product's sentence (longest matching product key), else the scope's."""
        notes = self.v["product_notes"]
        keys = [k for k in notes if product == k or product.startswith(k + "_")]
        if keys:
            return notes[max(keys, key=len)]
        return self.v["scopes"][scope]["note"]

    def body(self, noun: str, product: str) -> Schema:
        bodies = self.v["bodies"]
        props = {name: dict(s, description=s["description"].format(noun=noun))
                 if "description" in s else s
                 for name, s in bodies.get(product, bodies["default"]).items()}
        return O(props, [], f"Configuration of the {noun}. Fields not listed here are passed to "
                 "the API unchanged.", additionalProperties=True)

    @staticmethod
    def product_path(product: str) -> str:
        """URL path of a product key; per-phase and per-dataset products expand to nested
        paths."""
        for prefix, base in (("rulesets_phases_", "rulesets/phases/"),
                             ("logpush_datasets_", "logpush/datasets/")):
            if product.startswith(prefix):
                rest = product[len(prefix):]
                if rest.endswith("_entrypoint"):
                    rest = rest[:-len("_entrypoint")] + "/entrypoint"
                return base + rest
        return product

    # --- one endpoint ----------------------------------------------------------------------

    def endpoint_tool(self, scope: str, product: str, collections: list[str], verb: str,
                      item_level: bool, singleton: bool, extra: bool = False) -> dict[str, Any]:
        """The tool ``<scope>_<product>_<collections>_<verb>`` with its path parameters, body or
        paging, and a description of what, where, the product and the HTTP call."""
        parts = [p for p in [scope, product, *collections, verb] if p]
        name = "_".join(parts)
        top_level = not product and not any(collections)  # e.g. zones_list, accounts_get
        noun_source = scope if top_level else (collections[-1] or product)
        plural = self.words(noun_source)
        noun = self.singular(plural)
        a_noun = f"{_article(noun)} {noun}"
        scope_vocab = self.v["scopes"][scope]
        params: list[Param] = []
        path = [scope] if scope else []
        if "id" in scope_vocab and not top_level:
            id_name = scope_vocab["id"]["name"]
            params.append((id_name, scope_vocab["id"]["schema"], True))
            path.append("{" + id_name + "}")
        path += [self.product_path(product)] if product else []
        of_parent = ""
        for parent in collections[:-1]:
            path.append(parent)
            if parent in self.collection_parents:
                pn = self.singular(self.words(parent))
                param = f"{self.singular(parent)}_id"
                params.append((param, S(f"Identifier of the {pn}."), True))
                path.append("{" + param + "}")
                of_parent = f" of {_article(pn)} {pn}"
        path += [collections[-1]] if collections and collections[-1] else []
        last_id = f"{self.singular(noun_source)}_id" if noun_source else "id"
        # Standard verbs address an item unless the resource is a singleton; "+verb" extras
        # say explicitly whether they act on an item ("@") or on the collection.
        wants_id = item_level if extra else (verb in self.item_verbs and not singleton)
        if wants_id:
            params.append((last_id, S(f"Identifier of the {noun}."), True))
            path.append("{" + last_id + "}")
        methods = self.v["methods"]
        if verb in methods:
            method = methods[verb]
        else:
            head, _, tail = verb.rpartition("_")
            method = "GET" if tail in ("get", "list") else "POST"
            path.append(head if tail in ("get", "list", "create", "update", "edit") and head
                        else verb)
        endpoint = f"Calls `{method} /{'/'.join(path)}`."
        scope_where = f" {scope_vocab['where']}" if scope_vocab["where"] else ""
        where = "" if top_level else of_parent or scope_where
        what = f"the {plural} setting" if product == "settings" else f"the {plural} configuration"
        form = ("singleton" if singleton else
                "collection" if extra and not item_level else "item")
        first = self.v["sentences"][form].get(verb, "").format(
            plural=plural, a_noun=a_noun, what=what, where=where)
        if verb == "list":
            params.extend(params_of(self.v["paging"]))
        elif verb in ("create", "update", "edit"):
            params.append(("body", self.body(noun, product), True))
        elif verb not in ("get", "delete"):
            target = a_noun if item_level else f"the {plural}"
            head, _, tail = verb.rpartition("_")
            if head == "bulk":
                first = f"{tail.capitalize()} several {plural} at once{where}."
            elif head and tail in ("list", "get"):
                lead = "List" if tail == "list" else "Get"
                first = f"{lead} the {self.words(head)} of {target}{where}."
            elif head and tail in ("create", "update", "edit", "add", "remove"):
                first = f"{tail.capitalize()} the {self.words(head)} of {target}{where}."
            elif "_" in verb:
                first = f"{self.words(verb).capitalize()} for {target}{where}."
            else:
                first = f"{verb.capitalize()} {target}{where}."
            params.append(("body", O({}, desc="Request body as documented for this endpoint.",
                                     additionalProperties=True), False))
        desc = f"{first} {self.note(product or (collections[0] if collections else ''), scope)}"
        if verb == "delete" and not singleton:
            desc += " This cannot be undone."
        desc += " " + endpoint
        ro = verb in ("list", "get") or verb.endswith("_get")
        return tool(name, desc, root_go(params), {"readOnlyHint": ro})

    def expand(self, scope: str, product: str, spec: str) -> list[dict[str, Any]]:
        """The tools of one resource spec ``collection/subcollection:code+extra+item_extra@``."""
        path, _, verbs = spec.partition(":")
        collections = path.split("/") if path else [""]
        code, *extras = verbs.split("+")
        if code not in self.v["verb_codes"]:
            raise ValueError(f"resource spec {spec!r}: unknown verb code {code!r}")
        singleton = code in self.singleton_codes
        out = [self.endpoint_tool(scope, product, collections, v, False, singleton)
               for v in self.v["verb_codes"][code]]
        for extra in extras:
            out.append(self.endpoint_tool(scope, product, collections, extra.rstrip("@"),
                                          extra.endswith("@"), singleton, extra=True))
        return out

    def radar_tool(self, name: str, dataset: str, detail: str, path: str) -> dict[str, Any]:
        shown = {"agg_interval": "timeseries" in name, "limit": "top" in name}
        params = [(n, s, False) for n, s in self.v["radar_params"].items() if shown.get(n, True)]
        desc = (f"Get {detail} for {self.words(dataset)} traffic from Cloudflare Radar. "
                f"{self.v['product_notes']['radar']} Calls `GET {path}`.")
        return tool(name, desc, root_go(params), {"readOnlyHint": True})

    def ai_run_tool(self, author: str, model: str) -> dict[str, Any]:
        scope = self.v["scopes"]["accounts"]["id"]
        slug = f"@cf/{author.replace('_', '-')}/{model.replace('_', '-')}"
        desc = (f"Run the {model.replace('_', '-')} model from {author.replace('_', '-')} on "
                f"Workers AI. {self.v['product_notes']['ai']} Inputs follow the model's own "
                f"schema. Calls `POST /accounts/{{account_id}}/ai/run/{slug}`.")
        return tool(f"accounts_ai_run_{author}_{model}", desc, root_go(
            [(scope["name"], scope["schema"], True), *params_of(self.v["ai_run_params"])]))

    # --- the whole surface -----------------------------------------------------------------

    def pool(self) -> list[dict[str, Any]]:
        """Every endpoint tool of the vocabulary, first occurrence of each name, before
        thinning."""
        v = self.v
        pool: list[dict[str, Any]] = []
        for product, specs in v["account_resources"].items():
            for spec in specs:
                pool += self.expand("accounts", product, spec)
        for product, specs in v["zone_resources"].items():
            for spec in specs:
                pool += self.expand("zones", product, spec)
        for setting in v["zone_settings"]:
            pool += self.expand("zones", "settings", f"{setting}:s")
        for product, specs in v["user_resources"].items():
            for spec in specs:
                pool += self.expand("user", product, spec)
        for scope, spec in v["scope_resources"].items():
            pool += self.expand(scope, "", spec)
        for dataset in v["logpush_datasets"]:
            pool += self.expand("accounts", f"logpush_datasets_{dataset}", "fields:l")
            pool += self.expand("zones", f"logpush_datasets_{dataset}", "jobs:l")
        for phase in v["ruleset_phases"]:
            for scope in ("accounts", "zones"):
                pool += self.expand(scope, f"rulesets_phases_{phase}", "entrypoint:u")
            pool += self.expand("zones", f"rulesets_phases_{phase}_entrypoint", "versions:r")
        for scope, datasets in v["analytics_datasets"].items():
            for dataset in datasets:
                pool += self.expand(scope, "analytics", f"{dataset}:+query")
        for provider, endpoints in v["ai_gateway_providers"].items():
            for endpoint in endpoints:
                pool += self.expand("accounts", "ai_gateway", f"{provider}:+{endpoint}")
        for page in v["custom_page_ids"]:
            for scope in ("accounts", "zones"):
                pool += self.expand(scope, "custom_pages", f"{page}:u")
        for spec in v["organization_resources"]:
            pool += self.expand("organizations", "", spec)
        for product, specs in v["top_level_resources"].items():
            for spec in specs:
                pool += self.expand("", product, spec)
        for author, models in v["ai_models"].items():
            for model in models:
                pool.append(self.ai_run_tool(author, model))
        pool += self.radar_tools()
        seen: set[str] = set()
        unique = []
        for t in pool:
            if t["name"] not in seen:
                seen.add(t["name"])
                unique.append(t)
        return unique

    def radar_tools(self) -> list[dict[str, Any]]:
        """Radar: a summary and a grouped time series per dataset dimension, rankings per
        dimension value, then the extra tools named as is."""
        radar = self.v["radar"]
        out: list[dict[str, Any]] = []
        for dataset, dims in radar["datasets"].items():
            url = f"/radar/{dataset.replace('attacks_layer', 'attacks/layer')}"
            for dim, values in dims.items():
                for kind in radar["kinds"]:
                    detail = {"summary": f"the share of each {self.words(dim)} value",
                              "timeseries_groups": f"a time series grouped by {self.words(dim)}"
                              }[kind]
                    out.append(self.radar_tool(f"radar_{dataset}_{kind}_{dim}_get", dataset,
                                               detail, f"{url}/{kind}/{dim}"))
                for kind in radar["rankings"]:
                    if kind == "top_ases" and dataset != "http":
                        continue  # per-value AS rankings exist for HTTP only
                    what = "locations" if kind == "top_locations" else "autonomous systems"
                    for value in values:
                        detail = (f"the top {what} for traffic where {self.words(dim)} is "
                                  f"{self.words(value)}")
                        out.append(self.radar_tool(
                            f"radar_{dataset}_{kind}_{dim}_{value}_get", dataset, detail,
                            f"{url}/{kind.replace('_', '/')}/{dim}/{value}"))
        for name in radar["extra"]:
            words = name.split("_")
            detail = self.words("_".join(words[2:-1])) or "the overview"
            out.append(self.radar_tool(name, words[1], detail, "/" + "/".join(words[:-1])))
        return out

    def tools(self) -> list[dict[str, Any]]:
        """``tool_count`` tools whose names total about ``name_tokens_target`` chars4 tokens.

        A seeded sample of the pool, then swaps between kept and dropped tools, each the swap
        whose length difference closes most of the remaining gap without overshooting, until
        the name total is within a token of the target."""
        pool = self.pool()
        count = self.v["tool_count"]
        if len(pool) < count:
            raise ValueError(f"tool_count {count} is more than the {len(pool)} tools the "
                             "vocabulary gives")
        rng = random.Random(self.v["seed"])
        order = list(range(len(pool)))
        rng.shuffle(order)
        kept, dropped = set(order[:count]), set(order[count:])
        length = [len(t["name"]) for t in pool]
        target = int(self.v["name_tokens_target"] * 4) - 2 * count  # 4 = chars per token
        gap = target - sum(length[i] for i in kept)
        while abs(gap) > 2:
            best: tuple[int, int, int] | None = None  # (delta, kept index, dropped index)
            kept_by_len = {length[i]: i for i in sorted(kept, reverse=True)}
            dropped_by_len = {length[i]: i for i in sorted(dropped, reverse=True)}
            for lk, k in sorted(kept_by_len.items()):
                for ld, d in sorted(dropped_by_len.items()):
                    delta = ld - lk
                    if delta != 0 and (delta > 0) == (gap > 0) and abs(delta) <= abs(gap):
                        if best is None or abs(delta) > abs(best[0]):
                            best = (delta, k, d)
            if best is None:
                break
            delta, k, d = best
            kept.remove(k)
            dropped.remove(d)
            kept.add(d)
            dropped.add(k)
            gap -= delta
        return [pool[i] for i in sorted(kept)]


TEMPLATES: dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {
    "unreal": lambda vocab: Unreal(vocab).tools(),
    "cloudflare": lambda vocab: Cloudflare(vocab).tools(),
}


def expand(doc: dict[str, Any], where: str) -> dict[str, Any]:
    """A template file's tools in the shape of a server data file.

    ``doc``: the loaded template file (``template``, ``server``, ``seed`` and the vocabulary);
    ``where``: its path, for messages. Returns ``{"servers": {server: [tool, ...]}}``, the same
    list on every call. Raises :class:`TemplateError` (one line naming the file) for an unknown
    template, a missing vocabulary entry or one of the wrong shape."""
    name = doc.get("template")
    if name not in TEMPLATES:
        raise TemplateError(f"{where}: template: expected one of {', '.join(TEMPLATES)}")
    server = doc.get("server")
    if not isinstance(server, str) or not server:
        raise TemplateError(f"{where}: server: expected a server name")
    try:
        tools = TEMPLATES[name](doc)
    except KeyError as exc:
        raise TemplateError(f"{where}: expected the vocabulary entry {exc.args[0]!r} "
                            f"({name} template)") from None
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise TemplateError(f"{where}: cannot expand the {name} template ({exc})") from None
    counts = Counter(t["name"] for t in tools)
    duplicates = sorted(n for n, c in counts.items() if c > 1)
    if duplicates:
        raise TemplateError(f"{where}: the {name} template gives duplicate tool names: "
                            f"{', '.join(duplicates[:5])}")
    return {"servers": {server: tools}}
