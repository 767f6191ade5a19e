"""Every Python example in the README runs against the service."""
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, base_url: str, token: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"README.md example {index + 1}", "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip()


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 4
