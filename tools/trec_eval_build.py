"""Build the trec_eval binary the cross-checks compare mapteach with, from its source tarball.

    python tools/trec_eval_build.py             build (once) and print the binary's path
    python tools/trec_eval_build.py --precise   the copy that prints every value as %.12f

The source is trec_eval 10's tarball, ``../shared/data/trec_eval-src.tar.gz`` beside the
checkout, or the file ``$MAPTEACH_TREC_EVAL_SRC`` names. Each build goes to
``build/trec_eval/<first 12 hex digits of the tarball's SHA-256>/{plain,precise}/trec_eval``
and is reused while the tarball is unchanged. The precise copy is trec_eval with its
``%6.4f`` formats (``meas_print_single.c``, ``meas_print_final.c``) turned into ``%.12f``,
so that a test can compare values to 1e-9 instead of 4 decimals. Building needs ``make``
and a C compiler (Debian: ``gcc``, ``make``, ``libc6-dev``); it takes a few seconds.

Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the tarball is looked for unless ``$MAPTEACH_TREC_EVAL_SRC`` names it.
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "trec_eval-src.tar.gz"
SOURCE_VARIABLE = "MAPTEACH_TREC_EVAL_SRC"
DEFAULT_INTO = ROOT / "build" / "trec_eval"
#: The files holding trec_eval's printf formats, and the format the precise copy prints.
PRINT_SOURCES = ("meas_print_single.c", "meas_print_final.c")
FOUR_DECIMALS, TWELVE_DECIMALS = b"%6.4f", b"%.12f"


def source_tarball(source: Path | None = None) -> Path:
    """The tarball to build from: ``source``, else ``$MAPTEACH_TREC_EVAL_SRC``, else the default.

    Examples
    --------
    >>> source_tarball(Path("elsewhere.tar.gz")).name
    'elsewhere.tar.gz'
    """
    if source is not None:
        return Path(source)
    named = os.environ.get(SOURCE_VARIABLE, "").strip()
    return Path(named) if named else DEFAULT_SOURCE


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _make_precise(tree: Path) -> None:
    """Turn every ``%6.4f`` of trec_eval's print functions into ``%.12f``; raise if none."""
    for name in PRINT_SOURCES:
        path = tree / name
        text = path.read_bytes()
        if FOUR_DECIMALS not in text:
            raise RuntimeError(f"{path} has no {FOUR_DECIMALS.decode()} format to make precise.")
        path.write_bytes(text.replace(FOUR_DECIMALS, TWELVE_DECIMALS))


def _source_tree(scratch: Path) -> Path:
    """The extracted folder holding trec_eval's Makefile."""
    makefiles = sorted(scratch.glob("*/Makefile")) or sorted(scratch.glob("Makefile"))
    if not makefiles:
        raise RuntimeError(f"the tarball extracted into {scratch} has no trec_eval Makefile.")
    return makefiles[0].parent


def _compile(tree: Path) -> Path:
    """Run ``make trec_eval`` in ``tree``; raise with the compiler's message if it fails."""
    if shutil.which("make") is None:
        raise RuntimeError(
            "building trec_eval needs make and a C compiler (Debian: apt-get install gcc make "
            "libc6-dev); make is not on PATH."
        )
    # a make of its own, not a sub-make of the `make test` that may be running this
    alone = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    done = subprocess.run(
        ["make", "trec_eval"], cwd=tree, env=alone, capture_output=True, text=True, check=False
    )
    binary = tree / "trec_eval"
    if done.returncode != 0 or not binary.is_file():
        raise RuntimeError(
            f"make trec_eval failed in {tree} (exit {done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return binary


def build_trec_eval(
    precise: bool = False, *, source: Path | None = None, into: Path | None = None
) -> Path | None:
    """Build trec_eval from its tarball once, and return the binary; None if there is no tarball.

    Parameters
    ----------
    precise : bool, default False
        Build the copy that prints ``%.12f`` where trec_eval prints ``%6.4f``.
    source : Path, optional
        The tarball. Default: ``$MAPTEACH_TREC_EVAL_SRC``, else
        ``../shared/data/trec_eval-src.tar.gz`` beside the checkout.
    into : Path, optional
        The cache folder. Default: ``build/trec_eval`` in the checkout.

    Returns
    -------
    Path or None
        ``into/<sha256[:12]>/{plain,precise}/trec_eval``, built now or before; None when
        the tarball is absent.

    Raises
    ------
    RuntimeError
        If make is missing or the build fails (with the compiler's output).

    Examples
    --------
    >>> build_trec_eval(source=Path("no-such-tarball.tar.gz")) is None
    True
    """
    tarball = source_tarball(source)
    if not tarball.is_file():
        return None
    target = Path(into or DEFAULT_INTO) / _digest(tarball) / ("precise" if precise else "plain")
    binary = target / "trec_eval"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target, prefix="build-") as scratch:
        with tarfile.open(tarball) as archive:
            archive.extractall(scratch, filter="data")
        tree = _source_tree(Path(scratch))
        if precise:
            _make_precise(tree)
        # another process may build the same copy at once: the last rename wins, both are equal
        os.replace(_compile(tree), binary)
    return binary


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: build, print the binary's path; exit 1 without the tarball."""
    parser = argparse.ArgumentParser(description="Build trec_eval from its source tarball.")
    parser.add_argument(
        "--precise", action="store_true", help="the copy that prints %%.12f instead of %%6.4f"
    )
    parser.add_argument(
        "--source", type=Path, help=f"the tarball (default: ${SOURCE_VARIABLE} or {DEFAULT_SOURCE})"
    )
    parser.add_argument(
        "--into",
        type=Path,
        help=f"the folder that holds the built copies (default: {DEFAULT_INTO})",
    )
    arguments = parser.parse_args(argv)
    binary = build_trec_eval(arguments.precise, source=arguments.source, into=arguments.into)
    if binary is None:
        tarball = source_tarball(arguments.source)
        print(f"trec_eval_build: error: no trec_eval tarball at {tarball}", file=sys.stderr)
        return 1
    print(binary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
