"""The guideline and the judging set: their JSON format (the schemas and the loader agree),
the README's examples, and the guideline's tables shown whole in both languages."""

from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from mapteach.i18n import language
from mapteach.judging import guideline_reader as reader
from mapteach.judging.guideline import HARD_CASES, load_guideline, load_judging_set

ROOT = Path(__file__).parents[2]
DATA = ROOT / "mapteach" / "judging" / "data"
SCHEMAS = {"guideline": "guideline.schema.json", "set": "judging_set.schema.json"}
SHIPPED = {"guideline": "guideline.json", "set": "legal_set.json"}


def _json(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _validator(kind: str):
    jsonschema = pytest.importorskip(
        "jsonschema", reason="jsonschema is not installed: the schema itself is not run"
    )
    schema = _json(SCHEMAS[kind])
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _schema_paths(kind: str, document) -> list[str]:
    """The JSON path of every error the schema finds, written as the loader writes paths."""
    paths = []
    for error in _validator(kind).iter_errors(document):
        path = ""
        for key in error.absolute_path:
            path = f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)
        paths.append(path)
    return sorted(paths)


def _load(kind: str, document, tmp_path: Path) -> None:
    path = tmp_path / f"mine-{kind}.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    if kind == "guideline":
        load_guideline(path)
    else:
        load_judging_set(path)


# --- the shipped files and the schemas --------------------------------------------------


@pytest.mark.parametrize("kind", ["guideline", "set"])
def test_the_shipped_files_follow_their_schema(kind):
    assert _schema_paths(kind, _json(SHIPPED[kind])) == []


def _objects(schema):
    """Every closed object schema in ``schema``: its required fields and its properties."""
    if isinstance(schema, dict):
        if schema.get("type") == "object" and schema.get("additionalProperties") is False:
            yield tuple(schema["required"]), tuple(schema["properties"])
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


def _descriptions_missing(schema, where="(top)") -> list[str]:
    """Where the schema, a definition of it or a field of either has no description."""
    missing = [] if "description" in schema else [where]
    for key, value in schema.get("properties", {}).items():
        if "description" not in value:
            missing.append(f"{where}.{key}")
    for name, definition in schema.get("$defs", {}).items():
        missing += _descriptions_missing(definition, f"$defs.{name}")
    return missing


def test_the_schemas_name_the_fields_the_loader_reads():
    guideline, judging_set = _json(SCHEMAS["guideline"]), _json(SCHEMAS["set"])
    assert (
        guideline["$schema"]
        == judging_set["$schema"]
        == ("https://json-schema.org/draft/2020-12/schema")
    )
    top = (reader.OPTIONAL_FIELDS[0],)
    assert sorted(_objects(guideline)) == sorted(
        [
            (reader.GUIDELINE_FIELDS, top + reader.GUIDELINE_FIELDS),
            (reader.GRADE_FIELDS, reader.GRADE_FIELDS),
            (reader.RULE_FIELDS, reader.RULE_FIELDS),
        ]
    )
    assert sorted(_objects(judging_set)) == sorted(
        [
            (reader.SET_FIELDS, top + reader.SET_FIELDS),
            (reader.QUERY_FIELDS, reader.QUERY_FIELDS),
            (reader.RESULT_FIELDS, reader.RESULT_FIELDS),
        ]
    )
    cases = [
        part["contains"]["properties"]["case"]["const"]
        for part in guideline["properties"]["rules"]["allOf"]
    ]
    assert cases == list(HARD_CASES)
    rule = guideline["$defs"]["rule"]["properties"]
    assert tuple(rule["effect"]["enum"]) == reader.EFFECTS
    assert rule["id"]["pattern"] == f"^{reader.RULE_ID.pattern}$"
    assert judging_set["$defs"]["result"]["properties"]["rule"]["pattern"] == rule["id"]["pattern"]
    assert _descriptions_missing(guideline) == [] and _descriptions_missing(judging_set) == []


def test_the_guideline_covers_every_hard_case():
    guideline = load_guideline()
    assert [g.grade for g in guideline.scale] == [0, 1, 2, 3]
    assert all(len(g.anchors) >= 2 for g in guideline.scale)
    assert {rule.case for rule in guideline.rules} >= set(HARD_CASES)
    assert list(guideline.rules_table().index) == [rule.id for rule in guideline.rules]


def test_the_set_cites_existing_rules_and_uses_every_rule():
    guideline = load_guideline()
    judging_set = load_judging_set()
    ids = {rule.id for rule in guideline.rules}
    assert len(judging_set.queries) >= 5
    assert all(len(q.results) >= 10 for q in judging_set.queries)
    cited = set()
    for query in judging_set.queries:
        for result in query.results:
            named = {rule_id for rule_id in ids if rule_id in result.reason}
            assert named == {result.rule}, (query.query, result.doc)
            assert guideline.rule(result.rule).allows(result.grade)
            cited.add(result.rule)
    assert cited == ids


# --- broken documents: one per rule ------------------------------------------------------


def _set(path: str, value):
    """An edit that sets the value at the JSON path ``path`` (``None``-free paths only)."""

    def edit(document):
        keys = re.findall(r"[^.\[\]]+", path)
        node = document
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        last = keys[-1]
        node[int(last) if last.isdigit() else last] = value

    return edit


#: (file, edit, JSON path of the error, message, whether the schema states the rule too:
#: False for a rule only the loader can check, which the schema then lets through).
BROKEN = [
    ("guideline", lambda d: [d], "", r"^expected an object, got array\.$", True),
    ("guideline", _set("name", "  "), "name", "is empty", True),
    ("guideline", _set("version", 2), "version", "expected string, got integer", True),
    ("guideline", _set("$schema", 2), "$schema", "expected string, got integer", True),
    ("guideline", _set("scale", {}), "scale", "expected array, got object", True),
    (
        "guideline",
        lambda d: d.update(scale=d["scale"][:1]),
        "scale",
        "needs at least two grades",
        True,
    ),
    ("guideline", _set("scale.1", "one"), "scale[1]", "expected an object, got string", True),
    ("guideline", _set("scale.1.grade", 2), "scale[1].grade", r"expected 1 \(grades run", False),
    (
        "guideline",
        _set("scale.0.grade", True),
        "scale[0].grade",
        "expected integer, got boolean",
        True,
    ),
    (
        "guideline",
        _set("scale.0.grade", 0.5),
        "scale[0].grade",
        "expected integer, got number",
        True,
    ),
    ("guideline", _set("scale.2.label", None), "scale[2].label", "expected string, got null", True),
    (
        "guideline",
        _set("scale.2.anchors", ["only one"]),
        "scale[2].anchors",
        "needs at least two non-empty anchor examples",
        True,
    ),
    ("guideline", _set("scale.2.anchors.1", ""), "scale[2].anchors[1]", "is empty", True),
    (
        "guideline",
        _set("scale.2.anchors.0", 3),
        "scale[2].anchors[0]",
        "expected string, got integer",
        True,
    ),
    ("guideline", _set("rules", "R-DUP"), "rules", "expected array, got string", True),
    (
        "guideline",
        _set("rules.0.id", "dup"),
        "rules[0].id",
        "'dup' is not an id like 'R-DUP'",
        True,
    ),
    (
        "guideline",
        _set("rules.1.id", "R-AUTH"),
        "rules[1].id",
        r"'R-AUTH' is used twice \(first at rules\[0\]\.id\)",
        False,
    ),
    (
        "guideline",
        _set("rules.0.effect", "maybe"),
        "rules[0].effect",
        "'maybe' is not 'implies'",
        True,
    ),
    (
        "guideline",
        _set("rules.0.grade", 4),
        "rules[0].grade",
        "expected an integer from 0 to 3, got 4",
        False,
    ),
    (
        "guideline",
        _set("rules.0.grade", -1),
        "rules[0].grade",
        "expected an integer from 0 to 3, got -1",
        True,
    ),
    (
        "guideline",
        _set("rules.3.case", "copies"),
        "rules",
        r"no rule for the hard case\(s\): duplicate or near-duplicate\.",
        True,
    ),
    ("set", lambda d: "劳动仲裁赔偿标准", "", r"^expected an object, got string\.$", True),
    (
        "set",
        _set("guideline", "1.0"),
        "guideline",
        "made under guideline '1.0', not '2026.1'",
        False,
    ),
    ("set", _set("queries", []), "queries", "no queries", True),
    ("set", _set("queries.0.query", "劳动 仲裁"), "queries[0].query", "holds white space", True),
    (
        "set",
        _set("queries.1.query", "劳动仲裁赔偿标准"),
        "queries[1].query",
        r"is used twice \(first at queries\[0\]\.query\)",
        False,
    ),
    ("set", _set("queries.0.gloss", " "), "queries[0].gloss", "is empty", True),
    (
        "set",
        _set("queries.0.results", []),
        "queries[0].results",
        "query '劳动仲裁赔偿标准' has no results",
        True,
    ),
    (
        "set",
        _set("queries.0.results.0.doc", "r 1"),
        "queries[0].results[0].doc",
        "'r 1' holds white space",
        True,
    ),
    (
        "set",
        _set("queries.2.results.1.doc", "r1"),
        "queries[2].results[1].doc",
        r"'r1' is used twice \(first at queries\[0\]\.results\[0\]\.doc\)",
        False,
    ),
    (
        "set",
        _set("queries.2.results.4.grade", 5),
        "queries[2].results[4].grade",
        r"expected an integer from 0 to 3, got 5\.$",
        False,
    ),
    (
        "set",
        _set("queries.2.results.4.grade", -1),
        "queries[2].results[4].grade",
        "expected an integer from 0 to 3, got -1",
        True,
    ),
    (
        "set",
        _set("queries.0.results.0.grade", "3"),
        "queries[0].results[0].grade",
        "expected integer, got string",
        True,
    ),
    (
        "set",
        _set("queries.0.results.0.text", None),
        "queries[0].results[0].text",
        "expected string, got null",
        True,
    ),
    (
        "set",
        _set("queries.1.results.0.rule", "R-NONE"),
        "queries[1].results[0].rule",
        "query '竞业限制补偿金标准', document 'j1': guideline '2026.1' has no rule 'R-NONE'",
        False,
    ),
    (
        "set",
        _set("queries.1.results.0.rule", "auth"),
        "queries[1].results[0].rule",
        "has no rule 'auth'",
        True,
    ),
    (
        "set",
        _set("queries.0.results.2.reason", "old"),
        "queries[0].results[2].reason",
        "query '劳动仲裁赔偿标准', document 'r3': does not cite its rule 'R-OLD'",
        False,
    ),
    (
        "set",
        _set("queries.0.results.2.grade", 3),
        "queries[0].results[2].grade",
        r"document 'r3': grade 3 breaks R-OLD \(caps 1\)",
        False,
    ),
]


def _broken_id(case) -> str:
    kind, _edit, path, message, _schema = case
    return f"{kind}:{path or '(top)'}:{message[:24]}"


def _broken(kind, edit):
    """The shipped file of ``kind``, edited in place (or replaced by what ``edit`` returns)."""
    document = _json(SHIPPED[kind])
    replaced = edit(document)
    return document if replaced is None else replaced


def _raises_at(kind, document, tmp_path, path, message):
    with pytest.raises(ValueError) as error:
        _load(kind, document, tmp_path)
    name = str(tmp_path / f"mine-{kind}.json")
    start = f"{name}: {path}: " if path else f"{name}: "
    text = str(error.value)
    assert text.startswith(start), text
    assert re.search(message, text.removeprefix(start)), text


@pytest.mark.parametrize("case", BROKEN, ids=_broken_id)
def test_the_loader_names_the_json_path_of_each_broken_rule(tmp_path, case):
    kind, edit, path, message, _schema = case
    _raises_at(kind, _broken(kind, edit), tmp_path, path, message)


@pytest.mark.parametrize("case", BROKEN, ids=_broken_id)
def test_the_schema_states_the_same_rules_at_the_same_paths(case):
    kind, edit, path, _message, stated = case
    assert _schema_paths(kind, _broken(kind, edit)) == ([path] if stated else [])


#: Each object of the two files: its JSON path in the shipped file and its fields.
OBJECTS = [
    ("guideline", "", reader.GUIDELINE_FIELDS),
    ("guideline", "scale[1]", reader.GRADE_FIELDS),
    ("guideline", "rules[2]", reader.RULE_FIELDS),
    ("set", "", reader.SET_FIELDS),
    ("set", "queries[1]", reader.QUERY_FIELDS),
    ("set", "queries[1].results[3]", reader.RESULT_FIELDS),
]
FIELDS = [(kind, where, field) for kind, where, fields in OBJECTS for field in fields]


def _node(document, where):
    for key in re.findall(r"[^.\[\]]+", where):
        document = document[int(key)] if key.isdigit() else document[key]
    return document


@pytest.mark.parametrize(("kind", "where", "field"), FIELDS, ids=lambda v: str(v) or "(top)")
@pytest.mark.parametrize("by", ["loader", "schema"])
def test_every_field_is_required(tmp_path, by, kind, where, field):
    document = _json(SHIPPED[kind])
    del _node(document, where)[field]
    if by == "loader":
        _raises_at(kind, document, tmp_path, where, f"missing field '{re.escape(field)}'")
    else:
        assert _schema_paths(kind, document) == [where]


@pytest.mark.parametrize(("kind", "where", "_fields"), OBJECTS, ids=lambda v: str(v)[:20])
@pytest.mark.parametrize("by", ["loader", "schema"])
def test_no_unknown_field_is_allowed(tmp_path, by, kind, where, _fields):
    document = _json(SHIPPED[kind])
    _node(document, where)["comment"] = "a note"
    if by == "loader":
        _raises_at(kind, document, tmp_path, where, "unknown field 'comment'; the fields are: ")
    else:
        assert _schema_paths(kind, document) == [where]


def _with_schema_field_and_a_decimal_grade():
    document = _json(SHIPPED["guideline"])
    document["$schema"] = "guideline.schema.json"
    document["rules"][0]["grade"] = 3.0
    return document


def test_a_schema_field_and_whole_numbers_written_as_decimals_are_accepted(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(_with_schema_field_and_a_decimal_grade()), encoding="utf-8")
    rule = load_guideline(path).rules[0]
    assert rule.grade == 3 and type(rule.grade) is int


def test_the_schema_accepts_them_too():
    assert _schema_paths("guideline", _with_schema_field_and_a_decimal_grade()) == []


def test_a_file_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{\n  "name": "x",\n  oops\n}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"mine\.json, line 3: not JSON"):
        load_guideline(path)


def test_errors_speak_the_current_language_and_keep_the_path(tmp_path):
    document = _broken("set", _set("queries.2.results.4.grade", 5))
    with language("zh"), pytest.raises(ValueError) as error:
        _load("set", document, tmp_path)
    assert str(error.value).endswith(
        "queries[2].results[4].grade: 应为 0 到 3 之间的整数，实际是 5。"
    )


# --- the README's examples ------------------------------------------------------------------


def _readme_examples() -> list:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Your own guideline and judging set\n", 1)[1].split("\n## ", 1)[0]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def test_the_readme_examples_load(tmp_path):
    guideline_document, set_document = _readme_examples()
    guideline_path = tmp_path / "recipes_guideline.json"
    set_path = tmp_path / "recipes_set.json"
    guideline_path.write_text(json.dumps(guideline_document, ensure_ascii=False), "utf-8")
    set_path.write_text(json.dumps(set_document, ensure_ascii=False), "utf-8")
    guideline = load_guideline(guideline_path)
    judging_set = load_judging_set(set_path, guideline=guideline)
    assert guideline.max_grade == len(guideline_document["scale"]) - 1
    assert judging_set.gold() == {
        q["query"]: {r["doc"]: r["grade"] for r in q["results"]} for q in set_document["queries"]
    }


def test_the_readme_examples_follow_the_schemas():
    guideline_document, set_document = _readme_examples()
    assert _schema_paths("guideline", guideline_document) == []
    assert _schema_paths("set", set_document) == []


# --- the tables, shown whole ----------------------------------------------------------------


class _Cells(HTMLParser):
    """The text of every cell (``th``, ``td``) of an HTML table, and each cell's style."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.styles: list[str] = []
        self._open = False

    def handle_starttag(self, tag, attrs):
        if tag in {"td", "th"}:
            self.cells.append("")
            self.styles.append(dict(attrs).get("style") or "")
            self._open = True

    def handle_endtag(self, tag):
        if tag in {"td", "th"}:
            self._open = False

    def handle_data(self, data):
        if self._open:
            self.cells[-1] += data


def _html_cells(table) -> _Cells:
    parser = _Cells()
    parser.feed(table._repr_html_())
    return parser


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def _guideline_texts(guideline):
    rules = [text for rule in guideline.rules for text in (rule.statement, rule.case)]
    grades = [text for g in guideline.scale for text in (g.label, g.definition, *g.anchors)]
    return rules, grades


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_statement_and_anchor_is_shown_whole_in_html(lang):
    guideline = load_guideline(lang=lang)
    rules, grades = _guideline_texts(guideline)
    with language(lang):
        rules_html, scale_html = (
            _html_cells(guideline.rules_table()),
            _html_cells(guideline.scale_table()),
        )
    assert all(text in rules_html.cells for text in rules)
    for grade in guideline.scale:
        assert {grade.label, grade.definition, " / ".join(grade.anchors)} <= set(scale_html.cells)
    assert all(any(text in cell for cell in scale_html.cells) for text in grades)
    assert len(max(rules, key=len)) > 50 and "..." not in "".join(rules_html.cells)
    for style in rules_html.styles + scale_html.styles:
        assert "white-space: normal" in style and "text-align: left" in style


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [80, 44])
def test_every_statement_and_anchor_is_printed_whole_and_wrapped(lang, width):
    guideline = load_guideline(lang=lang)
    rules, grades = _guideline_texts(guideline)
    with language(lang), pd.option_context("display.width", width):
        printed = {"rules": repr(guideline.rules_table()), "scale": repr(guideline.scale_table())}
    for kind, texts in (("rules", rules), ("scale", grades)):
        assert all(_squeezed(text) in _squeezed(printed[kind]) for text in texts), kind
        assert max(_width(line) for line in printed[kind].splitlines()) <= width
        assert "..." not in printed[kind]
    wrapped = [text for text in rules if _width(text) > width]
    assert wrapped and all(text not in printed["rules"] for text in wrapped)  # it wraps


def test_the_tables_keep_their_machine_form():
    guideline = load_guideline()
    table = guideline.rules_table()
    assert table.loc["R-DUP", "statement"] == guideline.rule("R-DUP").statement
    assert list(table.columns) == ["case", "grade", "statement"]
    assert list(guideline.scale_table().index) == [g.grade for g in guideline.scale]
