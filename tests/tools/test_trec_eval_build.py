"""tools/trec_eval_build.py: trec_eval built from its tarball, plain and precise, built once.

The real builds are the session fixtures of tests/conftest.py (skipped without the
tarball); the rest runs on small stand-in tarballs whose Makefile writes a script.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.conftest import trec_eval_build

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
#: A value line of trec_eval's output: measure, query, value.
LINE = re.compile(r"^(?P<measure>\S+)\s*\t(?P<query>\S+)\t(?P<value>\S+)$")


def values(binary: Path, *options: str) -> list[str]:
    """The printed values of every line but runid, for trec_eval's test files."""
    done = subprocess.run(
        [str(binary), *options, str(DATA / "qrels.test"), str(DATA / "results.test")],
        capture_output=True,
        text=True,
        check=True,
    )
    matches = [LINE.match(line) for line in done.stdout.splitlines()]
    return [m["value"] for m in matches if m and m["measure"] != "runid"]


def decimals(value: str) -> int | None:
    """How many decimals ``value`` prints; None for an integer count."""
    return len(value.split(".")[1]) if "." in value else None


def test_the_plain_binary_prints_trec_evals_four_decimals(trec_eval_bin):
    printed = values(trec_eval_bin, "-q")
    assert {decimals(v) for v in printed} == {None, 4}
    expected = (DATA / "out.test").read_text(encoding="utf-8")
    done = subprocess.run(
        [str(trec_eval_bin), str(DATA / "qrels.test"), str(DATA / "results.test")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == expected


def test_the_precise_binary_prints_twelve_decimals_of_the_same_values(
    trec_eval_bin, trec_eval_precise_bin
):
    plain, precise = values(trec_eval_bin, "-q"), values(trec_eval_precise_bin, "-q")
    assert {decimals(v) for v in precise} == {None, 12}
    assert len(plain) == len(precise) > 100
    for four, twelve in zip(plain, precise, strict=True):
        assert four == (twelve if decimals(twelve) is None else f"{float(twelve):6.4f}")


def test_each_copy_is_cached_under_the_tarballs_digest(trec_eval_bin, trec_eval_precise_bin):
    assert trec_eval_bin.parent.name == "plain" and trec_eval_precise_bin.parent.name == "precise"
    assert trec_eval_bin.parent.parent == trec_eval_precise_bin.parent.parent
    digest = trec_eval_build._digest(trec_eval_build.source_tarball())
    assert trec_eval_bin.parent.parent.name == digest


def stand_in(tmp_path: Path, makefile: str, name: str = "src.tar.gz") -> Path:
    """A tarball like trec_eval's: a folder with a Makefile and the two print sources."""
    tarball = tmp_path / name
    files = {
        "Makefile": makefile,
        "meas_print_single.c": 'printf("%6.4f");\n',
        "meas_print_final.c": 'printf("%s%6.4f");\n',
    }
    with tarfile.open(tarball, "w:gz") as archive:
        for file, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"trec_eval/{file}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return tarball


#: A Makefile whose trec_eval prints the print sources it was built from, and counts builds.
COPYING = (
    "trec_eval:\n\t(echo '#!/bin/sh'; echo 'cat <<EOF'; cat meas_print_*.c; echo EOF) > trec_eval"
    "\n\tchmod +x trec_eval\n\techo built >> ../../../builds.log\n"
)


def test_a_copy_is_built_once_then_reused(tmp_path):
    tarball = stand_in(tmp_path, COPYING)
    first = trec_eval_build.build_trec_eval(source=tarball, into=tmp_path / "cache")
    again = trec_eval_build.build_trec_eval(source=tarball, into=tmp_path / "cache")
    assert first == again is not None
    (log,) = (tmp_path / "cache").glob("*/builds.log")
    assert log.read_text().splitlines() == ["built"]
    assert list(first.parent.iterdir()) == [first]  # the scratch folder is gone


def test_the_precise_copy_is_built_from_twelve_decimal_formats(tmp_path):
    tarball = stand_in(tmp_path, COPYING)
    plain = trec_eval_build.build_trec_eval(source=tarball, into=tmp_path)
    precise = trec_eval_build.build_trec_eval(True, source=tarball, into=tmp_path)
    assert plain != precise and precise.parent.name == "precise"
    assert "%6.4f" in plain.read_text() and "%.12f" not in plain.read_text()
    assert "%.12f" in precise.read_text() and "%6.4f" not in precise.read_text()


def test_the_tarball_is_found_through_the_environment(tmp_path, monkeypatch):
    tarball = stand_in(tmp_path, COPYING, name="named.tar.gz")
    monkeypatch.setenv(trec_eval_build.SOURCE_VARIABLE, str(tarball))
    assert trec_eval_build.source_tarball() == tarball
    assert trec_eval_build.build_trec_eval(into=tmp_path / "cache") is not None


def test_no_tarball_gives_none_and_the_command_line_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(trec_eval_build.SOURCE_VARIABLE, str(tmp_path / "absent.tar.gz"))
    assert trec_eval_build.build_trec_eval(into=tmp_path) is None
    assert trec_eval_build.main([]) == 1
    assert "no trec_eval tarball at" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_command_line_prints_the_binary(tmp_path, capsys):
    tarball = stand_in(tmp_path, COPYING)
    cache = tmp_path / "cache"
    assert trec_eval_build.main(["--precise", "--source", str(tarball), "--into", str(cache)]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed.name == "trec_eval" and printed.parent.name == "precise"
    assert printed.parent.parent.parent == cache  # into the folder given, not the repo's build/
    assert printed.is_file()


def test_a_failing_build_raises_with_the_compilers_message(tmp_path):
    tarball = stand_in(tmp_path, "trec_eval:\n\t@echo 'cc: error: no compiler here' >&2; exit 3\n")
    with pytest.raises(RuntimeError, match=r"\(exit 2\):\ncc: error: no compiler here"):
        trec_eval_build.build_trec_eval(source=tarball, into=tmp_path / "cache")


def test_no_make_raises_naming_the_packages(tmp_path, monkeypatch):
    tarball = stand_in(tmp_path, COPYING)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(RuntimeError, match="gcc make libc6-dev"):
        trec_eval_build.build_trec_eval(source=tarball, into=tmp_path / "cache")
