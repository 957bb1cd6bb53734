"""The command line (run as a real subprocess) and the two-system comparison."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from mapteach.analysis.compare import compare_runs
from mapteach.analysis.paired_tests import paired_randomization_test
from mapteach.analysis.plots import plot_deltas
from mapteach.cli import main
from mapteach.metrics import REGISTRY

QRELS = "q1 0 a 1\nq1 0 c 1\nq1 0 m 1\nq2 0 x 2\n"
RUN = "q1 Q0 a 1 3 s\nq1 Q0 b 2 2 s\nq1 Q0 c 3 1 s\nq2 Q0 x 1 1 s\nq9 Q0 x 1 1 s\n"


def mapteach(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mapteach", *args], capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN)
    return str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt")


def test_evaluate_table_per_query(files):
    done = mapteach("evaluate", *files, "-m", "AP", "-m", "P@2", "--per-query")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["AP", "P@2", "R", "retrieved"]
    assert lines[2].split() == ["q1", "0.5556", "0.5000", "3", "3"]
    assert lines[-1].split() == ["all", "0.7778", "0.5000", "4", "4"]
    assert "1 query of the run has no judgments" in done.stderr


def test_evaluate_json_and_csv(files):
    payload = json.loads(mapteach("evaluate", *files, "-m", "AP", "--format", "json").stdout)
    assert payload["mean"]["AP"] == pytest.approx((5 / 9 + 1) / 2)
    assert payload["queries"] == 2
    csv = mapteach("evaluate", *files, "-m", "RR", "--format", "csv", "--per-query").stdout
    assert csv.splitlines()[0] == "query_id,RR,R,retrieved"


def test_evaluate_options_reach_evaluate(files):
    strict = mapteach("evaluate", *files, "-m", "AP", "-l", "2", "--format", "json")
    assert json.loads(strict.stdout)["mean"]["AP"] == 0.5  # q1 has no grade-2 document


def test_trace_prints_the_arithmetic():
    done = mapteach("trace", "1,0,1,1", "--relevant", "3")
    assert done.returncode == 0
    assert done.stdout.strip().endswith("AP = (1/1 + 2/3 + 3/4) / 3 = 0.8056")
    assert "3/4" in done.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("trace", "1,0,2"), "error: labels[2] (rank 3) is 2"),
        (("trace", "1,x"), "error: labels must be comma-separated 0/1 values"),
        (
            ("evaluate", "/nonexistent/q", "/nonexistent/r"),
            "mapteach evaluate: error: /nonexistent/q: no such qrels",
        ),
        (
            ("evaluate", "/nonexistent/q", "/"),
            "mapteach evaluate: error: /nonexistent/q: no such qrels file",
        ),
        (
            ("evaluate", "/", "/nonexistent/r"),
            "mapteach evaluate: error: /: is a directory, not a qrels file.",
        ),
        (
            ("evaluate", "-", "-"),
            "mapteach evaluate: error: only one of the qrels and the run can be read from",
        ),
    ],
)
def test_errors_exit_2_with_one_line_and_no_traceback(args, fragment):
    done = mapteach(*args)
    assert done.returncode == 2
    assert done.stderr.startswith(fragment)
    assert len(done.stderr.splitlines()) == 1


def test_a_piped_run_is_read_whole_through_dev_stdin_and_dash(files):
    qrels, run = files
    with open(run, "rb") as text:
        piped = text.read()
    for name in ("/dev/stdin", "-"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mapteach",
                "evaluate",
                qrels,
                name,
                "-m",
                "AP",
                "--format",
                "json",
            ],
            input=piped,
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["mean"]["AP"] == pytest.approx((5 / 9 + 1) / 2)


def test_help_explains_each_measure():
    text = mapteach("evaluate", "--help").stdout
    for family in ("AP", "P", "R", "RR", "nDCG", "Success"):
        assert f"  {family} " in text


def test_help_lists_one_line_per_declared_measure_generated_from_its_declaration(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "en", "evaluate", "--help"])
    text = capsys.readouterr().out
    lines = text[text.index("measures (add @k") :].splitlines()[1:]  # the epilog, after its heading
    first_words = [line.split()[0] for line in lines]
    for name, declaration in REGISTRY.items():
        assert first_words.count(name) == 1, name
        line = lines[first_words.index(name)]
        assert declaration.description in line
        assert all(alias in line for alias in declaration.aliases)
        assert all(form in line for form in declaration.trec_eval_forms())
    assert "  map_cut.k" not in "\n".join(lines)  # trec_eval's names are not measures of their own


def test_randomization_test_exact_and_sampled():
    assert paired_randomization_test(np.array([0.1, 0.2, 0.3])) == 0.25
    assert paired_randomization_test(np.zeros(5)) == 1.0
    rng = np.random.default_rng(0)
    big = rng.normal(0.05, 0.1, 200)
    p = paired_randomization_test(big, n_permutations=20_000, seed=1)
    assert p == paired_randomization_test(big, n_permutations=20_000, seed=1)  # repeatable
    assert p == pytest.approx(stats.ttest_1samp(big, 0).pvalue, abs=0.01)
    with pytest.raises(ValueError, match="non-empty 1-D array of finite"):
        paired_randomization_test(np.array([np.nan]))


def test_compare_runs_per_query_and_summary():
    qrels = {f"q{i}": {"a": 1, "b": 1} for i in range(6)}
    run_a = {f"q{i}": {"a": 1.0, "x": 2.0, "b": 0.5} for i in range(6)}
    run_b = {f"q{i}": {"a": 3.0, "x": 2.0, "b": 0.5} for i in range(5)}  # q5 unanswered
    result = compare_runs(qrels, run_a, run_b)
    assert result.per_query.loc["q0", "delta"] == pytest.approx(
        (1 + 2 / 3) / 2 - (1 / 2 + 2 / 3) / 2
    )
    assert result.per_query.loc["q5", "B"] == 0.0
    summary = result.summary
    assert summary["b_better"] == 5 and summary["b_worse"] == 1 and summary["queries"] == 6
    assert result.improved(2).index.tolist() == ["q0", "q1"]
    assert result.declined().index.tolist() == ["q5"]
    assert result.p_ttest == pytest.approx(
        stats.ttest_rel(result.per_query["B"], result.per_query["A"]).pvalue
    )
    assert len(plot_deltas(result).patches) == 6


def test_compare_runs_missing_zero_or_ignore():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run_a = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    run_b = {"q1": {"a": 1.0}}  # lacks q2
    zero = compare_runs(qrels, run_a, run_b)
    assert zero.per_query["delta"].to_dict() == {"q1": 0.0, "q2": -1.0}
    ignored = compare_runs(qrels, run_a, run_b, missing="ignore")
    assert ignored.per_query.index.tolist() == ["q1"]
    with pytest.raises(ValueError, match="missing"):
        compare_runs(qrels, run_a, run_b, missing="skip")


def test_a_t_test_without_spread_is_nan_with_a_reason():
    qrels = {f"q{i}": {"a": 1, "b": 1} for i in range(4)}
    run_a = {q: {"x": 3.0, "a": 2.0, "b": 1.0} for q in qrels}  # AP (1/2 + 2/3) / 2
    run_b = {q: {"a": 3.0, "b": 2.0, "x": 1.0} for q in qrels}  # AP 1.0 everywhere
    result = compare_runs(qrels, run_a, run_b)
    assert np.ptp(result.per_query["delta"]) == 0 and result.per_query["delta"].iloc[0] > 0
    assert np.isnan(result.p_ttest)
    assert "no spread" in result.notes[0]
    assert "no spread" in str(result)


def test_a_query_named_all_keeps_its_own_line(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("all 0 d1 1\nq2 0 d2 1\n")
    run.write_text("all Q0 d1 1 1.0 t\nq2 Q0 x 1 2.0 t\nq2 Q0 d2 2 1.0 t\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mapteach",
            "evaluate",
            str(qrels),
            str(run),
            "-m",
            "AP",
            "-q",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out[1:] == ["all,1.0,1,1", "q2,0.5,1,2", "all,0.75,2,3"]


def test_json_output_is_strict_json_when_a_mean_is_undefined(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 1.0 t\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mapteach",
            "evaluate",
            str(qrels),
            str(run),
            "-m",
            "AP",
            "-l",
            "2",
            "--no-relevant",
            "skip",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out, parse_constant=lambda name: pytest.fail(name))["mean"] == {"AP": None}


def test_csv_and_json_keep_every_digit_and_counts_are_integers(files):
    csv = mapteach("evaluate", *files, "-m", "AP", "-m", "num_ret", "--format", "csv", "-q")
    rows = [text.split(",") for text in csv.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == ["q1", "q2", "all"]
    assert [row[2:] for row in rows] == [["3", "3", "3"], ["1", "1", "1"], ["4", "4", "4"]]
    q1, _, mean = (float(row[1]) for row in rows)
    assert rows[0][1].startswith("0.555555555555555")  # AP (1/1 + 2/3) / 3, every digit
    assert q1 == pytest.approx(5 / 9, abs=1e-15) and rows[1][1] == "1.0"
    assert mean == pytest.approx((5 / 9 + 1) / 2, abs=1e-15)
    payload = json.loads(mapteach("evaluate", *files, "-m", "num_ret", "--format", "json").stdout)
    assert payload["mean"] == {"num_ret": 4} and isinstance(payload["mean"]["num_ret"], int)


def test_a_geometric_mean_names_its_column(files):
    csv = mapteach("evaluate", *files, "-m", "map", "--aggregate", "gm", "--format", "csv")
    header, row = csv.stdout.splitlines()
    assert header == "query_id,gm_map,R,retrieved"
    assert row.startswith("all,") and row.endswith(",4,4")
    assert float(row.split(",")[1]) == pytest.approx((5 / 9) ** 0.5, abs=1e-15)
    payload = json.loads(
        mapteach("evaluate", *files, "-m", "map", "--aggregate", "gm", "--format", "json").stdout
    )
    assert payload["mean"] == {"gm_map": pytest.approx((5 / 9) ** 0.5)}


def test_a_judged_query_missing_from_the_run_stops_unless_c(files, tmp_path):
    qrels = tmp_path / "more-qrels.txt"
    qrels.write_text(QRELS + "q3 0 z 1\n")
    _, run = files
    stopped = mapteach("evaluate", str(qrels), run, "-m", "AP", "--format", "trec")
    assert stopped.returncode == 2 and stopped.stdout == ""
    assert len(stopped.stderr.splitlines()) == 1 and "q3" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    zero = mapteach("evaluate", str(qrels), run, "-m", "AP", "-c", "--format", "json")
    assert json.loads(zero.stdout)["mean"]["AP"] == pytest.approx((5 / 9 + 1 + 0) / 3)
    same = mapteach(
        "evaluate", str(qrels), run, "-m", "AP", "--missing", "zero", "--format", "json"
    )
    assert same.stdout == zero.stdout
    ignored = mapteach("evaluate", str(qrels), run, "-m", "AP", "--missing", "ignore")
    assert ignored.returncode == 0 and "q3" in ignored.stderr


def test_trec_evals_flags_glued_as_it_writes_them(files):
    glued = mapteach("evaluate", *files, "-m", "P.1,2", "-M1", "-l2", "-q", "--format", "trec")
    spaced = mapteach(
        "evaluate", *files, "-m", "P.1,2", "-M", "1", "-l", "2", "-q", "--format", "trec"
    )
    assert glued.returncode == 0, glued.stderr
    assert glued.stdout == spaced.stdout
    # -l 2: only q2's x is relevant; -M 1 keeps each query's first result; P.1,2 is two lines
    assert [text.split("\t") for text in glued.stdout.splitlines()] == [
        ["P_1                   ", "q1", "0.0000"],
        ["P_2                   ", "q1", "0.0000"],
        ["P_1                   ", "q2", "1.0000"],
        ["P_2                   ", "q2", "0.5000"],
        ["P_1                   ", "all", "0.5000"],
        ["P_2                   ", "all", "0.2500"],
    ]


def test_trec_format_defaults_to_trec_evals_measures(files):
    done = mapteach("evaluate", *files, "--format", "trec")
    assert done.returncode == 0, done.stderr
    names = [text.split()[0] for text in done.stdout.splitlines()]
    assert names[:10] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank",
    ]  # fmt: skip
    assert names[10:] == [f"iprec_at_recall_{level / 10:.2f}" for level in range(11)] + [
        f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    ]
    assert done.stdout.splitlines()[0] == "runid                 \tall\ts"
    assert mapteach("evaluate", *files, "--format", "trec", "-m", "official").stdout == done.stdout


def test_trec_format_imports_no_pandas(files):
    script = (
        "import sys; from mapteach.cli import main; code = main(sys.argv[1:]); "
        "sys.stderr.write(repr(sorted({'pandas', 'scipy', 'matplotlib'} & set(sys.modules))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "evaluate", *files, "--format", "trec", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "\nrunid  " in done.stdout
    assert done.stderr.endswith("[]"), done.stderr


def test_help_says_what_the_trec_eval_options_do():
    text = " ".join(mapteach("evaluate", "--help").stdout.split())
    assert "-c the same as --missing zero (trec_eval -c)" in text
    assert "(default: error)" in text and "as trec_eval 10 does" in text
    assert "--format {table,csv,json,trec}" in text


def test_a_trec_eval_measure_given_twice_keeps_the_first_cutoffs_as_trec_eval(files):
    def names(*measures: str) -> list[str]:
        done = mapteach("evaluate", *files, *measures, "--format", "csv")
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[0].split(",")[1:-2]

    assert names("-m", "P.5", "-m", "P.10") == ["P.5"]  # trec_eval prints P_5 alone
    assert names("-m", "P", "-m", "P.5", "-m", "map", "-m", "map") == ["P.5", "map"]
    official = names("-m", "official", "-m", "P.10")
    assert official[-1] == "P.10" and "P_5" not in official and official.count("map") == 1
    repeated = mapteach("evaluate", *files, "-m", "P@10", "-m", "P@10")
    assert repeated.returncode == 2 and "give each measure once" in repeated.stderr


def test_two_measures_under_one_column_stop_with_one_line(files):
    for output in ("csv", "json", "table"):
        done = mapteach(
            "evaluate", *files, "--aggregate", "gm", "-m", "map", "-m", "gm_map", "--format", output
        )
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(
            "mapteach evaluate: error: two measures print as the column gm_map"
        )
        assert len(done.stderr.splitlines()) == 1


def test_help_says_how_m_picks_the_first_n_results():
    text = " ".join(mapteach("evaluate", "--help").stdout.split())
    assert "first N results in trec_eval's order (by score, ties by document id" in text
    assert "the rank column is ignored" in text


def test_evaluate_names_itself_in_its_error_line_the_other_commands_do_not(files):
    qrels, _ = files
    done = mapteach("evaluate", qrels, "/nonexistent/r")
    assert done.returncode == 2 and done.stderr.startswith("mapteach evaluate: error: ")
    done = mapteach("--lang", "zh", "evaluate", qrels, "/nonexistent/r")
    assert done.returncode == 2 and done.stderr.startswith("mapteach evaluate：错误：")
    assert mapteach("trace", "1,x").stderr.startswith("error: labels")


#: argparse's English, which a Chinese command line never shows.
ARGPARSE_ENGLISH = (
    "usage:",
    "positional arguments",
    "options:",
    "show this help message and exit",
    "error:",
    "the following arguments are required",
    "invalid choice",
    "choose from",
    "unrecognized arguments",
    "invalid int value",
)
#: Two English words in a row, outside names (no ``_``, digit or capital inside a word).
ENGLISH_RUN = re.compile(r"(?<![\w'@-])[a-z]{2,} [a-z]{2,}(?![\w'@(])")
#: The TREC formats' column names, which the help quotes as the files spell them.
TREC_COLUMNS = re.compile(r"\b(qid|docid|relevance|rank|score|tag)\b")


def in_chinese(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mapteach", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MAPTEACH_LANG": "zh", "COLUMNS": "100"},
    )


@pytest.mark.parametrize(
    ("args", "rest"),
    [
        (("evaluate",), "python -m mapteach evaluate：错误：缺少以下必需参数：qrels, run"),
        (
            ("evaluate", "q", "r", "--format", "xml"),
            "python -m mapteach evaluate：错误：参数 --format：无效的选项：'xml'"
            "（可选：'table', 'csv', 'json', 'trec'）",
        ),
        (
            ("trace", "1,0", "-k", "x"),
            "python -m mapteach trace：错误：参数 -k/--cutoff：无效的 int 值：'x'",
        ),
        (
            ("trace", "1,0", "--cut"),
            "python -m mapteach trace：错误：参数 -k/--cutoff：需要给出一个值",
        ),
        (("trace", "1,0", "--bogus"), "python -m mapteach：错误：无法识别的参数：--bogus"),
        (
            ("--lang", "fr"),
            "python -m mapteach：错误：参数 --lang：无效的选项：'fr'（可选：'en', 'zh'）",
        ),
    ],
)
def test_argparse_speaks_chinese_in_a_chinese_command_line(args, rest):
    done = in_chinese(*args)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].startswith("用法：python -m mapteach")
    assert done.stderr.splitlines()[-1] == rest
    assert [words for words in ARGPARSE_ENGLISH if words in done.stderr] == []


@pytest.mark.parametrize("command", [(), ("evaluate",), ("trace",), ("progress",)])
def test_a_chinese_help_has_chinese_headings_and_no_english_prose(command):
    done = in_chinese(*command, "-h")
    assert done.returncode == 0
    assert done.stdout.startswith("用法：python -m mapteach")
    assert "选项：" in done.stdout and "显示本帮助信息并退出" in done.stdout
    assert [words for words in ARGPARSE_ENGLISH if words in done.stdout] == []
    _usage, _, rest = done.stdout.partition("\n\n")
    assert ENGLISH_RUN.findall(TREC_COLUMNS.sub("", rest)) == []


def test_an_english_help_is_argparse_s_own(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("MAPTEACH_LANG", raising=False)
    from mapteach.cli import _parser

    for command in ((), ("trace",)):
        done = mapteach(*command, "-h")
        parser = _parser()
        shown = parser if not command else parser._subparsers._group_actions[0].choices["trace"]
        assert done.stdout == shown.format_help()
        assert done.stdout.startswith("usage: python -m mapteach")
    missing = mapteach("evaluate").stderr.splitlines()[-1]
    assert (
        missing
        == "python -m mapteach evaluate: error: the following arguments are required: qrels, run"
    )
