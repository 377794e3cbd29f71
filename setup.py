"""Build step beyond pyproject.toml: the wheel carries the sample folders.

The app offers the shipped sample catalogs, sessions and skills, the docs run the example
catalogs in ``docs/examples/``, and the help and the app name the pages of ``docs/``; in a checkout they are folders of the checkout, so a non-editable build copies them into the package (``toolsearch/samples/``), where
:func:`toolsearch.analysis.samples.samples_dir` finds them once installed.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SAMPLE_FOLDERS = ("sample_catalogs", "sample_sessions", "sample_skills", "docs")


class BuildWithSamples(build_py):
    """``build_py`` that also copies the sample folders into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout
        root = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "toolsearch" / "samples"
        for name in SAMPLE_FOLDERS:
            if (root / name).is_dir():
                shutil.copytree(root / name, target / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithSamples})
