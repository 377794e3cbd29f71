"""Stage A and stage B schema normalization (docs/reference.md §23, §30).

Every comparison is on compact JSON text, so key order is checked as well as content.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolsearch.engine.schema import (
    PROPERTY_NAME_PATTERN,
    normalize_mcp_input_schema,
    property_renames,
    sanitize_parameters,
    sanitize_tool_definition,
)


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def stage_a(schema_json: str) -> str:
    return dumps(normalize_mcp_input_schema(json.loads(schema_json)))


def stage_b(parameters_json: str) -> str:
    return dumps(sanitize_parameters(json.loads(parameters_json)))


def wire(schema_json: str) -> str:
    """Server ``inputSchema`` → what the model sees (stage A, then stage B)."""
    return dumps(sanitize_parameters(normalize_mcp_input_schema(json.loads(schema_json))))


# --- docs/reference.md §23.1 stage A examples ------------------------------------------------------------

STAGE_A_EXAMPLES = [
    # A1
    ('{"type":"object","properties":{"addr":{"$ref":"#/definitions/Address"}},'
     '"definitions":{"Address":{"type":"object","properties":{"zip":{"type":"string"}}}}}',
     '{"type":"object","properties":{"addr":{"$ref":"#/$defs/Address"}},'
     '"$defs":{"Address":{"type":"object","properties":{"zip":{"type":"string"}},"required":[]}},'
     '"required":[]}'),
    # A2
    ('{"anyOf":[{"type":"integer"},{"type":"null"}],"default":null,"title":"Limit"}',
     '{"type":"integer","nullable":true,"title":"Limit","default":null}'),
    ('{"anyOf":[{"$ref":"#/$defs/User"},{"type":"null"}],"default":null}',
     '{"$ref":"#/$defs/User","nullable":true}'),
    ('{"anyOf":[{"type":"integer","minimum":0},{"type":"null"}],"maximum":9,"description":"n"}',
     '{"type":"integer","minimum":0,"nullable":true,"description":"n"}'),
    # A3
    ('{"anyOf":[{"const":"C"},{"const":"F"}],"description":"Scale"}',
     '{"type":"string","enum":["C","F"],"description":"Scale"}'),
    ('{"oneOf":[{"const":1},{"const":2},{"const":3},{"type":"null"}]}',
     '{"type":"integer","enum":[1,2,3],"nullable":true}'),
    ('{"anyOf":[{"const":1},{"const":"one"}]}',
     '{"anyOf":[{"const":1},{"const":"one"}]}'),
    ('{"anyOf":[{"const":true},{"const":0}]}',
     '{"anyOf":[{"const":true},{"const":0}]}'),
    ('{"anyOf":[{"const":"a","type":"integer"},{"const":"b"}]}',
     '{"anyOf":[{"const":"a","type":"integer"},{"const":"b"}]}'),
    # A4
    ('{"properties":{"city":{"type":"string"}},"required":["city"]}',
     '{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}'),
    ('{"type":"object","properties":{"q":{"type":"string"}},"required":["q","page",7]}',
     '{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}'),
    ('{"type":"object","required":["a"]}',
     '{"type":"object","required":[],"properties":{}}'),
    ('{"type":"object","properties":{"id":{"type":"string"},"slug":{"type":"string"}},'
     '"oneOf":[{"required":["id"]},{"required":["slug"]}]}',
     '{"type":"object","properties":{"id":{"type":"string"},"slug":{"type":"string"}},'
     '"oneOf":[{"required":["id"]},{"required":["slug"]}],"required":[]}'),
]


@pytest.mark.parametrize("given_json, expected", STAGE_A_EXAMPLES)
def test_stage_a_spec_examples(given_json: str, expected: str) -> None:
    assert stage_a(given_json) == expected


# --- docs/reference.md §23.2 stage B examples (server schema → wire) -------------------------------------

WIRE_EXAMPLES = [
    ('{"type":"object","properties":{"note":{"type":["string","null"]}}}',
     '{"type":"object","properties":{"note":{"type":"string","nullable":true}},"required":[]}'),
    ('{"type":"object","properties":{"x":{"type":["string","integer","null"]}}}',
     '{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}],'
     '"nullable":true}},"required":[]}'),
    ('{"type":"object","properties":{"first name":{"type":"string"}},"required":["first name"]}',
     '{"type":"object","properties":{"first_name":{"type":"string"}},"required":["first_name"]}'),
    ('{"type":"object","properties":{"a b":{},"a_b":{},"a-b?":{}},"required":["a b","a-b?"]}',
     '{"type":"object","properties":{"a_b_2":{},"a_b":{},"a-b_":{}},"required":["a_b_2","a-b_"]}'),
    ('{"type":"string"}',
     '{"type":"object","properties":{},"required":[]}'),
]


# docs/reference.md §23.2: the branches a multi-type ``type`` array creates are new bare ``{"type": X}`` nodes
# that the node pass does not visit again, so an ``object`` branch made that way has no
# ``properties``/``required``; an ``anyOf`` branch already in the input is visited as usual.
WIRE_EXAMPLES += [
    ('{"type":"object","properties":{"v":{"type":["string","object"]}}}',
     '{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"object"}]}},"required":[]}'),
    ('{"type":"object","properties":{"v":{"description":"x","type":["string","number","integer","boolean",'
     '"object","array","null"]}}}',
     '{"type":"object","properties":{"v":{"description":"x","anyOf":[{"type":"string"},{"type":"number"},'
     '{"type":"integer"},{"type":"boolean"},{"type":"object"},{"type":"array"}],"nullable":true}},"required":[]}'),
    ('{"type":"object","properties":{"ops":{"type":"array","items":{"type":"object","properties":'
     '{"v":{"type":["string","object","null"]}}}}}}',
     '{"type":"object","properties":{"ops":{"type":"array","items":{"type":"object","properties":'
     '{"v":{"anyOf":[{"type":"string"},{"type":"object"}],"nullable":true}},"required":[]}}},"required":[]}'),
    ('{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"object"}]}}}',
     '{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"object","properties":{},'
     '"required":[]}]}},"required":[]}'),
    ('{"type":"object","properties":{"v":{"type":["object","null"]}}}',
     '{"type":"object","properties":{"v":{"type":"object","nullable":true,"properties":{},"required":[]}},'
     '"required":[]}'),
]


@pytest.mark.parametrize("given_json, expected", WIRE_EXAMPLES)
def test_stage_b_spec_examples(given_json: str, expected: str) -> None:
    assert wire(given_json) == expected
    # Stage B alone gives the same for these (stage A does not touch what they exercise).
    assert stage_b(given_json) == expected


# --- §10 conformance cases 16–32 (stage A result, then wire) ------------------------------

CONFORMANCE = [
    (16, '{}',
     '{"type":"object","properties":{}}',
     '{"type":"object","properties":{},"required":[]}'),
    (17, '{"properties":{"city":{"type":"string"}},"required":["city"]}',
     '{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}',
     '{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}'),
    (18, '{"type":"object","properties":{"addr":{"$ref":"#/definitions/Address"}},'
         '"definitions":{"Address":{"type":"object","properties":{"zip":{"type":"string"}}}}}',
     '{"type":"object","properties":{"addr":{"$ref":"#/$defs/Address"}},"$defs":{"Address":'
     '{"type":"object","properties":{"zip":{"type":"string"}},"required":[]}},"required":[]}',
     '{"type":"object","properties":{"addr":{"$ref":"#/$defs/Address"}},"$defs":{"Address":'
     '{"type":"object","properties":{"zip":{"type":"string"}},"required":[]}},"required":[]}'),
    (19, '{"type":"object","properties":{"definitions":{"type":"string"}}}',
     '{"type":"object","properties":{"definitions":{"type":"string"}},"required":[]}',
     '{"type":"object","properties":{"definitions":{"type":"string"}},"required":[]}'),
    (20, '{"type":"object","properties":{"limit":{"anyOf":[{"type":"integer"},{"type":"null"}],'
         '"default":null,"title":"Limit"}}}',
     '{"type":"object","properties":{"limit":{"type":"integer","nullable":true,"title":"Limit",'
     '"default":null}},"required":[]}',
     '{"type":"object","properties":{"limit":{"type":"integer","nullable":true,"title":"Limit",'
     '"default":null}},"required":[]}'),
    (21, '{"type":"object","properties":{"owner":{"anyOf":[{"$ref":"#/$defs/User"},'
         '{"type":"null"}],"default":null}},"$defs":{"User":{"type":"string"}}}',
     '{"type":"object","properties":{"owner":{"$ref":"#/$defs/User","nullable":true}},'
     '"$defs":{"User":{"type":"string"}},"required":[]}',
     '{"type":"object","properties":{"owner":{"$ref":"#/$defs/User","nullable":true}},'
     '"$defs":{"User":{"type":"string"}},"required":[]}'),
    (22, '{"type":"object","properties":{"unit":{"anyOf":[{"const":"C"},{"const":"F"}],'
         '"description":"Scale"}}}',
     '{"type":"object","properties":{"unit":{"type":"string","enum":["C","F"],'
     '"description":"Scale"}},"required":[]}',
     '{"type":"object","properties":{"unit":{"type":"string","enum":["C","F"],'
     '"description":"Scale"}},"required":[]}'),
    (23, '{"type":"object","properties":{"level":{"oneOf":[{"const":1},{"const":2},{"const":3},'
         '{"type":"null"}]}}}',
     '{"type":"object","properties":{"level":{"type":"integer","enum":[1,2,3],"nullable":true}},'
     '"required":[]}',
     '{"type":"object","properties":{"level":{"type":"integer","enum":[1,2,3],"nullable":true}},'
     '"required":[]}'),
    (24, '{"type":"object","properties":{"mode":{"anyOf":[{"const":"fast"},{"type":"null"}]}}}',
     '{"type":"object","properties":{"mode":{"const":"fast","nullable":true}},"required":[]}',
     '{"type":"object","properties":{"mode":{"const":"fast","nullable":true}},"required":[]}'),
    (25, '{"type":"object","properties":{"v":{"anyOf":[{"const":1},{"const":"one"}]}}}',
     '{"type":"object","properties":{"v":{"anyOf":[{"const":1},{"const":"one"}]}},"required":[]}',
     '{"type":"object","properties":{"v":{"anyOf":[{"const":1},{"const":"one"}]}},"required":[]}'),
    (25, '{"type":"object","properties":{"flag":{"anyOf":[{"const":true},{"const":0}]}}}',
     '{"type":"object","properties":{"flag":{"anyOf":[{"const":true},{"const":0}]}},"required":[]}',
     '{"type":"object","properties":{"flag":{"anyOf":[{"const":true},{"const":0}]}},'
     '"required":[]}'),
    (26, '{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"string"},'
         '{"type":"null"}]}}}',
     '{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"string"},'
     '{"type":"null"}]}},"required":[]}',
     '{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"string"},'
     '{"type":"null"}]}},"required":[]}'),
    (27, '{"type":"object","properties":{"q":{"type":"string"}},"required":["q","page",7]}',
     '{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}',
     '{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}'),
    (28, '{"type":"object","properties":{"filter":{"properties":{"tag":{"type":"string"}},'
         '"required":["tag","color"]}}}',
     '{"type":"object","properties":{"filter":{"properties":{"tag":{"type":"string"}},'
     '"required":["tag"],"type":"object"}},"required":[]}',
     '{"type":"object","properties":{"filter":{"properties":{"tag":{"type":"string"}},'
     '"required":["tag"],"type":"object"}},"required":[]}'),
    (29, '{"type":"object","properties":{"id":{"type":"string"},"slug":{"type":"string"}},'
         '"oneOf":[{"required":["id"]},{"required":["slug"]}]}',
     '{"type":"object","properties":{"id":{"type":"string"},"slug":{"type":"string"}},'
     '"oneOf":[{"required":["id"]},{"required":["slug"]}],"required":[]}',
     '{"type":"object","properties":{"id":{"type":"string"},"slug":{"type":"string"}},'
     '"required":[]}'),
    (30, '{"type":"object","properties":{"note":{"type":["string","null"]}}}',
     '{"type":"object","properties":{"note":{"type":["string","null"]}},"required":[]}',
     '{"type":"object","properties":{"note":{"type":"string","nullable":true}},"required":[]}'),
    (31, '{"type":"object","properties":{"first name":{"type":"string"}},'
         '"required":["first name"]}',
     '{"type":"object","properties":{"first name":{"type":"string"}},"required":["first name"]}',
     '{"type":"object","properties":{"first_name":{"type":"string"}},"required":["first_name"]}'),
    (32, '{"type":"string"}',
     '{"type":"string"}',
     '{"type":"object","properties":{},"required":[]}'),
]


@pytest.mark.parametrize("case, given_json, expected_a, expected_wire", CONFORMANCE,
                         ids=[f"case{c[0]}-{i}" for i, c in enumerate(CONFORMANCE)])
def test_conformance_16_to_32(case: int, given_json: str, expected_a: str,
                              expected_wire: str) -> None:
    assert stage_a(given_json) == expected_a
    assert wire(given_json) == expected_wire


# --- Stage A: own cases -------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, {}, [], "", 0, False])
def test_stage_a_falsy_input_is_empty_object(value: object) -> None:
    assert dumps(normalize_mcp_input_schema(value)) == '{"type":"object","properties":{}}'


@pytest.mark.parametrize("value", [[{"type": "object"}], "object", 5, 1.5, True, ["x"]])
def test_stage_a_non_dict_input_is_empty_object(value: object) -> None:
    assert dumps(normalize_mcp_input_schema(value)) == '{"type":"object","properties":{}}'


def test_stage_a_empty_result_is_a_fresh_dict_each_time() -> None:
    first = normalize_mcp_input_schema(None)
    first["properties"]["x"] = {}
    assert dumps(normalize_mcp_input_schema(None)) == '{"type":"object","properties":{}}'


def test_a1_ref_paths_and_untouched_refs() -> None:
    given = ('{"type":"object","properties":{'
             '"a":{"$ref":"#/definitions/X/properties/y"},'
             '"b":{"$ref":"#/$defs/X"},'
             '"c":{"$ref":"https://example.test/definitions/X"},'
             '"d":{"$ref":"#/definitionsX"}},'
             '"definitions":{"X":{"properties":{"y":{"type":"string"}}}}}')
    assert stage_a(given) == (
        '{"type":"object","properties":{'
        '"a":{"$ref":"#/$defs/X/properties/y"},'
        '"b":{"$ref":"#/$defs/X"},'
        '"c":{"$ref":"https://example.test/definitions/X"},'
        '"d":{"$ref":"#/definitionsX"}},'
        '"$defs":{"X":{"properties":{"y":{"type":"string"}},"type":"object","required":[]}},'
        '"required":[]}')


def test_a1_property_names_kept_but_keywords_inside_them_renamed() -> None:
    # ``definitions`` as a name in properties / patternProperties stays; a ``definitions``
    # keyword inside such a property's schema (here nested under a property named
    # ``properties``) is renamed.
    given = ('{"type":"object","properties":{"properties":{"definitions":{"A":{"type":"string"}},'
             '"$ref":"#/definitions/A"}},"patternProperties":{"definitions":{"type":"integer"}}}')
    assert stage_a(given) == (
        '{"type":"object","properties":{"properties":{"$defs":{"A":{"type":"string"}},'
        '"$ref":"#/$defs/A"}},"patternProperties":{"definitions":{"type":"integer"}},'
        '"required":[]}')


@pytest.mark.parametrize("given_json, expected", [
    ('{"$defs":{"Old":{"type":"string"}},"definitions":{"New":{"type":"integer"}}}',
     '{"$defs":{"New":{"type":"integer"}}}'),
    ('{"definitions":{"New":{"type":"integer"}},"$defs":{"Old":{"type":"string"}}}',
     '{"$defs":{"New":{"type":"integer"}}}'),
])
def test_a1_both_defs_keys_definitions_wins_first_slot(given_json: str, expected: str) -> None:
    assert stage_a(given_json) == expected


def test_a2_nested_unions_collapse_fully_with_inner_metadata_first() -> None:
    given = ('{"anyOf":[{"anyOf":[{"type":"string"},{"type":"null"}],"description":"inner"},'
             '{"type":"null"}],"description":"outer","title":"T","examples":["x"]}')
    assert stage_a(given) == (
        '{"type":"string","nullable":true,"description":"inner","title":"T","examples":["x"]}')


def test_a2_metadata_carried_in_fixed_order() -> None:
    given = ('{"examples":[1],"default":1,"description":"d","title":"t",'
             '"anyOf":[{"type":"null"},{"type":"integer"}]}')
    assert stage_a(given) == (
        '{"type":"integer","nullable":true,"title":"t","description":"d","default":1,'
        '"examples":[1]}')


def test_a3_metadata_in_fixed_order() -> None:
    given = '{"examples":["a"],"description":"d","title":"t","anyOf":[{"const":"a"},{"const":"b"}]}'
    assert stage_a(given) == (
        '{"type":"string","enum":["a","b"],"title":"t","description":"d","examples":["a"]}')


def test_a2_explicit_nullable_false_is_kept() -> None:
    given = '{"anyOf":[{"type":"string","nullable":false},{"type":"null"}],"title":"t"}'
    assert stage_a(given) == '{"type":"string","nullable":false,"title":"t"}'


def test_a2_oneof_used_when_anyof_does_not_qualify() -> None:
    given = ('{"anyOf":[{"type":"string"},{"type":"integer"}],'
             '"oneOf":[{"type":"boolean"},{"type":"null"}],"description":"d"}')
    assert stage_a(given) == '{"type":"boolean","nullable":true,"description":"d"}'


def test_a2_null_branch_ignores_its_other_keys_and_several_nulls_are_fine() -> None:
    given = '{"anyOf":[{"type":"null","title":"none"},{"const":"x"},{"type":"null"}]}'
    assert stage_a(given) == '{"const":"x","nullable":true}'


def test_a2_boolean_survivor_becomes_empty_schema() -> None:
    given = '{"type":"object","properties":{"any":{"anyOf":[true,{"type":"null"}],"title":"A"}}}'
    assert stage_a(given) == (
        '{"type":"object","properties":{"any":{"nullable":true,"title":"A"}},"required":[]}')


@pytest.mark.parametrize("given_json", [
    '{"anyOf":[{"type":"string"},{"type":"integer"}]}',           # no null branch
    '{"anyOf":[{"type":"null"},{"type":"null"}]}',                  # only null branches
    '{"anyOf":[]}',
    '{"anyOf":{"type":"null"}}',                                    # not a list
    '{"anyOf":[{"type":["null"]},{"type":"string"}]}',              # type list is not "null"
])
def test_a2_unions_left_alone(given_json: str) -> None:
    assert stage_a(given_json) == given_json


def test_a2_at_root_gives_root_nullable_object() -> None:
    given = '{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]}'
    assert stage_a(given) == (
        '{"type":"object","properties":{"a":{"type":"string"}},"nullable":true,"required":[]}')


def test_a3_keeps_outer_metadata_drops_branch_metadata_and_other_keys() -> None:
    given = ('{"oneOf":[{"const":"a","type":"string","title":"A"},{"const":"b","description":"B"}],'
             '"minLength":1,"examples":["a"],"default":"a","title":"Pick"}')
    assert stage_a(given) == (
        '{"type":"string","enum":["a","b"],"title":"Pick","default":"a","examples":["a"]}')


@pytest.mark.parametrize("given_json", [
    '{"anyOf":[{"const":1,"type":"number"},{"const":2}]}',      # declared type ≠ const's type
    '{"anyOf":[{"const":1},{"const":1.5}]}',                      # int and float never merge
    '{"anyOf":[{"const":"a","enum":["a"]},{"const":"b"}]}',       # not a pure const branch
    '{"anyOf":[{"const":null},{"const":null}]}',                  # null consts never qualify
    '{"anyOf":[{"const":[1]},{"const":[2]}]}',                    # list consts never qualify
    '{"anyOf":[{"const":"a"},{"const":"b"},{"type":"null"},{"type":"null"}]}',  # two nulls
    '{"anyOf":[{"const":"a"},true]}',                             # boolean branch
])
def test_a3_unions_left_alone(given_json: str) -> None:
    assert stage_a(given_json) == given_json


def test_a3_single_const_without_null_becomes_one_value_enum() -> None:
    assert stage_a('{"anyOf":[{"const":true}]}') == '{"type":"boolean","enum":[true]}'


def test_a3_float_consts() -> None:
    assert stage_a('{"anyOf":[{"const":0.5},{"const":1.0}]}') == (
        '{"type":"number","enum":[0.5,1.0]}')


def test_a4_nested_fragments_schema_maps_and_falsy_types() -> None:
    given = ('{"properties":{"properties":{"type":"string"},"required":{"type":"boolean"},'
             '"type":{"properties":{"x":{}},"required":"x"}},'
             '"if":{"properties":{"kind":{"const":"a"}}},"then":{"required":["a"]},'
             '"allOf":[{"type":null,"required":["k"]}],'
             '"items":{"type":"","description":"no repair: no properties or required"}}')
    assert stage_a(given) == (
        '{"properties":{"properties":{"type":"string"},"required":{"type":"boolean"},'
        '"type":{"properties":{"x":{}},"required":[],"type":"object"}},'
        '"if":{"properties":{"kind":{"const":"a"}},"type":"object","required":[]},'
        '"then":{"required":["a"]},'
        '"allOf":[{"type":"object","required":[],"properties":{}}],'
        '"items":{"type":"","description":"no repair: no properties or required"},'
        '"type":"object","required":[]}')


def test_a4_non_dict_properties_replaced_in_slot() -> None:
    assert stage_a('{"type":"object","properties":["a"],"required":["a"],"title":"t"}') == (
        '{"type":"object","properties":{},"required":[],"title":"t"}')


def test_a5_root_without_type_or_properties_is_left_as_is() -> None:
    assert stage_a('{"description":"free form"}') == '{"description":"free form"}'


def test_stage_a_is_not_idempotent_in_general() -> None:
    # A3 can turn a null-typed node into an enum after A2 has run, so a second pass finds a
    # nullable union the first pass could not see. The spec does not promise idempotence.
    given = '{"anyOf":[{"type":"null"},{"type":"null","anyOf":[{"const":1},{"const":2}]}]}'
    once = normalize_mcp_input_schema(json.loads(given))
    assert dumps(once) == '{"anyOf":[{"type":"null"},{"type":"integer","enum":[1,2]}]}'
    assert dumps(normalize_mcp_input_schema(once)) == (
        '{"type":"integer","enum":[1,2],"nullable":true}')


# --- Stage B: own cases -------------------------------------------------------------------

EMPTY_PARAMETERS = '{"type":"object","properties":{},"required":[]}'


@pytest.mark.parametrize("value", [None, [], ["x"], "object", "", 0, 7, 2.5, True, False])
def test_b0_non_dict_parameters(value: object) -> None:
    assert dumps(sanitize_parameters(value)) == EMPTY_PARAMETERS


def test_b0_empty_dict_gets_forced_root() -> None:
    assert stage_b('{}') == EMPTY_PARAMETERS


def test_b1_bare_string_schemas() -> None:
    given = ('{"type":"object","properties":{"a":"string","b":"object","c":"bogus","d":"null",'
             '"e":{"type":"array","items":"integer"},"f":{"additionalProperties":"boolean"}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"a":{"type":"string"},'
        '"b":{"type":"object","properties":{},"required":[]},'
        '"c":{"type":"object","properties":{},"required":[]},"d":{"type":"null"},'
        '"e":{"type":"array","items":{"type":"integer"}},'
        '"f":{"additionalProperties":{"type":"boolean"}}},"required":[]}')


def test_b1_boolean_schemas_kept() -> None:
    given = ('{"type":"object","properties":{"any":true,"none":false,'
             '"list":{"type":"array","items":true},'
             '"map":{"type":"object","additionalProperties":false}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"any":true,"none":false,'
        '"list":{"type":"array","items":true},'
        '"map":{"type":"object","additionalProperties":false,"properties":{},"required":[]}},'
        '"required":[]}')


@pytest.mark.parametrize("type_json, expected", [
    ('["integer"]', '{"type":"integer","description":"d"}'),
    ('["null","integer"]', '{"type":"integer","description":"d","nullable":true}'),
    ('["null"]', '{"type":"null","description":"d"}'),
    ('["null","null"]', '{"type":"null","description":"d"}'),
    ('[]', '{"type":"object","description":"d","properties":{},"required":[]}'),
    # the object branch made from a type list is a bare node: no properties/required (docs/reference.md §23.2)
    ('["string","object","null"]',
     '{"description":"d","anyOf":[{"type":"string"},{"type":"object"}],"nullable":true}'),
])
def test_b1_type_lists(type_json: str, expected: str) -> None:
    given = '{"type":"object","properties":{"p":{"type":' + type_json + ',"description":"d"}}}'
    assert stage_b(given) == (
        '{"type":"object","properties":{"p":' + expected + '},"required":[]}')


def test_b1_type_list_keeps_existing_nullable() -> None:
    given = '{"type":"object","properties":{"p":{"nullable":false,"type":["string","null"]}}}'
    assert stage_b(given) == (
        '{"type":"object","properties":{"p":{"nullable":false,"type":"string"}},"required":[]}')


def test_b1_rename_long_empty_and_non_ascii_names() -> None:
    long_valid = "x" * 64
    long_invalid = "x" * 70
    given = {"type": "object",
             "properties": {long_invalid: {}, long_valid: {}, "": {}, "param": {},
                            "café": {}, "caf_": {}, "ok.name-1": {}},
             "required": [long_invalid, "", "café", "missing"]}
    result = sanitize_parameters(given)
    renamed_long = "x" * 62 + "_2"
    assert list(result["properties"]) == [
        renamed_long, long_valid, "param_2", "param", "caf__2", "caf_", "ok.name-1"]
    assert result["required"] == [renamed_long, "param_2", "caf__2"]
    assert all(len(name) <= 64 for name in result["properties"])
    assert property_renames(given) == {
        renamed_long: long_invalid, "param_2": "", "caf__2": "café"}


def test_b1_rename_suffix_counts_past_two() -> None:
    given = '{"type":"object","properties":{"a_2":{},"a_b":{},"a b":{},"a?b":{},"a!b":{}}}'
    assert stage_b(given) == (
        '{"type":"object","properties":{"a_2":{},"a_b":{},"a_b_2":{},"a_b_3":{},"a_b_4":{}},'
        '"required":[]}')


def test_b1_trailing_newline_is_not_a_valid_name() -> None:
    result = sanitize_parameters({"type": "object", "properties": {"abc\n": {}}})
    assert list(result["properties"]) == ["abc_"]


def test_b1_only_properties_names_are_renamed() -> None:
    given = ('{"type":"object","properties":{"o":{"type":"object","properties":{"x y":{}},'
             '"required":["x y"]}},"patternProperties":{"^a b$":{}},"$defs":{"My Def":{}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"o":{"type":"object","properties":{"x_y":{}},'
        '"required":["x_y"]}},"patternProperties":{"^a b$":{}},"$defs":{"My Def":{}},'
        '"required":[]}')


def test_b1_draft3_boolean_required() -> None:
    given = ('{"type":"object","properties":{"a b":{"type":"string","required":true},'
             '"c":{"type":"integer","required":false},'
             '"d":{"type":"object","required":true}},"required":["c"]}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"a_b":{"type":"string"},"c":{"type":"integer"},'
        '"d":{"type":"object","properties":{},"required":[]}},"required":["c","a_b","d"]}')


def test_b1_draft3_required_creates_parent_list() -> None:
    given = '{"type":"object","properties":{"a":{"type":"string","required":true}}}'
    assert stage_b(given) == (
        '{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}')


def test_b1_data_keys_are_not_treated_as_schemas() -> None:
    given = ('{"type":"object","properties":{"p":{"type":"object","default":{"type":["a","b"]},'
             '"enum":["string"],"examples":[{"type":"object"}],"const":"object"}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"p":{"type":"object","default":{"type":["a","b"]},'
        '"enum":["string"],"examples":[{"type":"object"}],"const":"object",'
        '"properties":{},"required":[]}},"required":[]}')


def test_b2_root_type_overwritten_in_slot() -> None:
    assert stage_b('{"description":"d","type":"array","properties":[1],"required":"x"}') == (
        '{"description":"d","type":"object","properties":{},"required":[]}')


def test_b3_collapses_union_created_by_stage_b_input() -> None:
    given = ('{"type":"object","properties":{"u":{"oneOf":[{"type":"null"},'
             '{"type":"object","properties":{"k":"integer"}}],"title":"U"}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"u":{"type":"object","properties":{"k":{"type":"integer"}},'
        '"required":[],"nullable":true,"title":"U"}},"required":[]}')


def test_b3_root_union_collapses_to_its_branch() -> None:
    # B2 forces the root to an object, then B3 (same rules as A2, which applies at the root)
    # replaces the root by the surviving branch, and B4 removes root combinators.
    given = '{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]}'
    assert stage_b(given) == (
        '{"type":"object","properties":{"a":{"type":"string"}},"required":[],"nullable":true}')
    assert stage_b('{"anyOf":[{"type":"string"},{"type":"null"}]}') == (
        '{"type":"string","nullable":true}')


def test_b4_root_combinators_removed_nested_kept() -> None:
    given = ('{"type":"object","allOf":[{}],"anyOf":[{}],"oneOf":[{}],"enum":[1],"not":{},'
             '"properties":{"p":{"anyOf":[{"type":"string"},{"type":"integer"}],"enum":["a",1],'
             '"not":{"const":"b"}}}}')
    assert stage_b(given) == (
        '{"type":"object","properties":{"p":{"anyOf":[{"type":"string"},{"type":"integer"}],'
        '"enum":["a",1],"not":{"const":"b"}}},"required":[]}')


def test_b5_default_removed_beside_ref_anywhere() -> None:
    given = ('{"type":"object","$ref":"#/$defs/R","default":{},'
             '"properties":{"a":{"$ref":"#/$defs/A","default":1,"title":"A"},"b":{"default":2},'
             '"c":{"type":"array","items":{"$ref":"#/$defs/C","default":[]}}}}')
    assert stage_b(given) == (
        '{"type":"object","$ref":"#/$defs/R","properties":{"a":{"$ref":"#/$defs/A","title":"A"},'
        '"b":{"default":2},"c":{"type":"array","items":{"$ref":"#/$defs/C"}}},"required":[]}')


def test_property_renames_without_properties() -> None:
    assert property_renames(None) == {}
    assert property_renames({"type": "object"}) == {}
    assert property_renames({"properties": ["a b"]}) == {}
    assert property_renames({"properties": {"a": {}, "b.c": {}}}) == {}


def test_property_renames_top_level_only() -> None:
    given = {"type": "object",
             "properties": {"first name": {"type": "object", "properties": {"x y": {}}}}}
    assert property_renames(given) == {"first_name": "first name"}


# --- sanitize_tool_definition -------------------------------------------------------------


def test_tool_definition_parameters_sanitized_in_slot() -> None:
    defn = {"type": "function",
            "function": {"name": "t", "parameters": {"type": "object",
                                                      "properties": {"a b": "string"}},
                         "description": "d"}}
    assert dumps(sanitize_tool_definition(defn)) == (
        '{"type":"function","function":{"name":"t","parameters":{"type":"object",'
        '"properties":{"a_b":{"type":"string"}},"required":[]},"description":"d"}}')


@pytest.mark.parametrize("function_json, expected", [
    ('{"name":"t","description":"d"}',
     '{"name":"t","description":"d","parameters":' + EMPTY_PARAMETERS + '}'),
    ('{"name":"t","parameters":null,"description":"d"}',
     '{"name":"t","parameters":' + EMPTY_PARAMETERS + ',"description":"d"}'),
    ('{"name":"t","parameters":["x"]}',
     '{"name":"t","parameters":' + EMPTY_PARAMETERS + '}'),
])
def test_tool_definition_b0(function_json: str, expected: str) -> None:
    defn = {"type": "function", "function": json.loads(function_json)}
    assert dumps(sanitize_tool_definition(defn)) == (
        '{"type":"function","function":' + expected + '}')


@pytest.mark.parametrize("defn", [None, [], "x", 3, {}, {"type": "function"},
                                  {"type": "function", "function": "f"}])
def test_tool_definition_without_function_dict_returned_unchanged(defn: object) -> None:
    result = sanitize_tool_definition(defn)  # type: ignore[arg-type]
    assert result == defn


def test_tool_definition_not_mutated_and_not_shared() -> None:
    defn = {"type": "function",
            "function": {"name": "t", "parameters": {"type": "object",
                                                      "properties": {"a": {"type": "string"}},
                                                      "x-extra": {"k": [1]}}}}
    before = copy.deepcopy(defn)
    result = sanitize_tool_definition(defn)
    assert defn == before
    result["function"]["parameters"]["x-extra"]["k"].append(2)
    result["function"]["name"] = "changed"
    assert defn == before


# --- Purity and deep nesting --------------------------------------------------------------

COMPLEX_SCHEMA = {
    "type": "object",
    "properties": {
        "first name": {"type": ["string", "null"], "required": True},
        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        "unit": {"oneOf": [{"const": "C"}, {"const": "F"}, {"type": "null"}]},
        "owner": {"anyOf": [{"$ref": "#/definitions/User"}, {"type": "null"}], "default": None},
        "filter": {"properties": {"tag": "string"}, "required": ["tag", "x"]},
    },
    "definitions": {"User": {"type": "object", "properties": {"id": {"type": "string"}}}},
    "oneOf": [{"required": ["limit"]}],
    "required": ["first name", 3],
}


def test_inputs_are_not_mutated() -> None:
    given = copy.deepcopy(COMPLEX_SCHEMA)
    stage_a_result = normalize_mcp_input_schema(given)
    assert given == COMPLEX_SCHEMA
    frozen_a = copy.deepcopy(stage_a_result)
    wire_result = sanitize_parameters(stage_a_result)
    assert stage_a_result == frozen_a
    # Outputs share no containers with inputs.
    wire_result["properties"]["limit"]["type"] = "changed"
    stage_a_result["properties"]["filter"]["required"].append("y")
    assert given == COMPLEX_SCHEMA
    assert stage_a_result["properties"]["limit"]["type"] == "integer"


def test_complex_schema_wire() -> None:
    assert dumps(sanitize_parameters(normalize_mcp_input_schema(COMPLEX_SCHEMA))) == (
        '{"type":"object","properties":{'
        '"first_name":{"type":"string","nullable":true},'
        '"limit":{"type":"integer","nullable":true,"default":null},'
        '"unit":{"type":"string","enum":["C","F"],"nullable":true},'
        '"owner":{"$ref":"#/$defs/User","nullable":true},'
        '"filter":{"properties":{"tag":{"type":"string"}},"required":["tag"],"type":"object"}},'
        '"$defs":{"User":{"type":"object","properties":{"id":{"type":"string"}},"required":[]}},'
        '"required":["first_name"]}')


def test_deep_nesting() -> None:
    depth = 150
    schema: dict = {"type": "string", "anyOf": [{"type": "string"}, {"type": "null"}]}
    for level in range(depth):
        schema = {"properties": {f"level {level}": schema}}
    stage_a_result = normalize_mcp_input_schema(schema)
    wire_result = sanitize_parameters(stage_a_result)
    node = wire_result
    for level in reversed(range(depth)):
        assert node["type"] == "object"
        assert list(node["properties"]) == [f"level_{level}"]
        node = node["properties"][f"level_{level}"]
    assert dumps(node) == '{"type":"string","nullable":true}'


# --- Property tests -----------------------------------------------------------------------

_KEYWORDS = ["type", "properties", "patternProperties", "required", "anyOf", "oneOf", "allOf",
             "not", "items", "additionalProperties", "const", "enum", "default", "title",
             "description", "examples", "nullable", "$ref", "$defs", "definitions", "if",
             "then", "else", "dependentSchemas", "prefixItems", "a b", "x"]
_STRINGS = ["null", "object", "string", "integer", "number", "boolean", "array",
            "#/definitions/A", "#/$defs/A", "a b", ""]

_leaves = (st.none() | st.booleans() | st.integers(-3, 3)
           | st.floats(allow_nan=False, allow_infinity=False, width=16)
           | st.sampled_from(_STRINGS) | st.text(max_size=4))
_keys = st.sampled_from(_KEYWORDS) | st.text(max_size=6)
json_like = st.recursive(
    _leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_keys, children, max_size=5),
    max_leaves=40,
)


def _walk(value: object):
    yield value
    if isinstance(value, dict):
        for child in value.values():
            yield from _walk(child)
    elif isinstance(value, list):
        for child in value:
            yield from _walk(child)


@settings(max_examples=400, deadline=None)
@given(json_like)
def test_stage_a_total_pure_deterministic(value: object) -> None:
    before = copy.deepcopy(value)
    first = normalize_mcp_input_schema(value)
    second = normalize_mcp_input_schema(value)
    assert value == before
    assert isinstance(first, dict)
    assert dumps(first) == dumps(second)
    if first.get("type") == "object":
        assert isinstance(first["properties"], dict)
        if "required" in first:
            assert all(isinstance(n, str) and n in first["properties"]
                       for n in first["required"])


@settings(max_examples=400, deadline=None)
@given(json_like)
def test_stage_b_total_pure_deterministic(value: object) -> None:
    before = copy.deepcopy(value)
    first = sanitize_parameters(value)
    second = sanitize_parameters(value)
    assert value == before
    assert isinstance(first, dict)
    assert dumps(first) == dumps(second)
    assert not any(key in first for key in ("allOf", "anyOf", "oneOf", "enum", "not"))
    assert not any(isinstance(node, dict) and "$ref" in node and "default" in node
                   for node in _walk(first))
    if first.get("type") == "object":
        assert isinstance(first["properties"], dict)
        assert isinstance(first["required"], list)


@settings(max_examples=200, deadline=None)
@given(json_like)
def test_both_stages_and_tool_definition_total(value: object) -> None:
    before = copy.deepcopy(value)
    wire_result = sanitize_parameters(normalize_mcp_input_schema(value))
    assert isinstance(wire_result, dict)
    defn = {"type": "function", "function": {"name": "t", "parameters": value}}
    result = sanitize_tool_definition(defn)
    assert dumps(result["function"]["parameters"]) == dumps(sanitize_parameters(value))
    assert value == before


# Well-formed schemas: every ``properties`` value is a schema (dict, bool or type name).
_schema = st.recursive(
    st.sampled_from([{}, {"type": "string"}, {"type": ["integer", "null"]}, True, "number"]),
    lambda children: st.fixed_dictionaries(
        {"properties": st.dictionaries(st.text(max_size=70), children, max_size=4)},
        optional={"type": st.just("object"),
                  "required": st.lists(st.text(max_size=5), max_size=3),
                  "anyOf": st.lists(children, max_size=3)}),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_schema)
def test_wire_property_names_match_pattern(schema: object) -> None:
    pattern = re.compile(PROPERTY_NAME_PATTERN)
    result = sanitize_parameters(normalize_mcp_input_schema(schema))
    properties = result.get("properties")
    if isinstance(properties, dict):
        assert all(pattern.fullmatch(name) for name in properties)
        renames = property_renames(normalize_mcp_input_schema(schema))
        assert set(renames) <= set(properties)
