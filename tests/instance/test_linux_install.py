"""The README's Linux install, run as written against the wheel this checkout builds, with
Debian 12's own pipx (1.1.0: no ``--fetch-missing-python``, ``--python`` a program, a bare file
name read as a package's name). Slow: it installs Debian's packages with apt (as ``.ci/run``
installs its services), builds the wheel and lets pipx install it and its dependencies."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.instance.serving import ROOT, clean_environment, serve


def _can_install() -> bool:
    """Debian's apt, as root or with sudo asking no password."""
    if not Path("/etc/debian_version").exists() or shutil.which("apt-get") is None:
        return False
    if os.geteuid() == 0:
        return True
    sudo = shutil.which("sudo")
    return bool(sudo) and subprocess.run([sudo, "-n", "true"], check=False).returncode == 0


pytestmark = [
    pytest.mark.slow,
    pytest.mark.integration,
    pytest.mark.xdist_group("services"),
    pytest.mark.skipif(not _can_install(), reason="installs Debian's pipx with apt (root)"),
]

README = ROOT / "README.md"
#: A Debian user's PATH (the suite's own Python and tools are not on it).
DEBIAN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def readme_linux_lines() -> list[str]:
    """The lines of the README's code block marked ``sh linux-install``."""
    found = re.search(r"```sh linux-install\n(.*?)\n\s*```", README.read_text(), re.DOTALL)
    assert found, "README.md: the Linux install block (```sh linux-install) is missing"
    return [line.strip() for line in found[1].splitlines() if line.strip()]


def _root(*command: str) -> None:
    """A command as root: directly, or through sudo."""
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    done = subprocess.run(
        [*prefix, *command],
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]} {done.stderr[-2000:]}"


def _apt_install(packages: list[str]) -> None:
    missing = [
        package
        for package in packages
        if subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
        ).stdout
        != "install ok installed"
    ]
    if missing:
        _root("apt-get", "update", "-qq")
    # Named even when installed: brought to the version the README's own line would install,
    # so that running that line asks nothing.
    _root("apt-get", "install", "-y", "-qq", *packages)


def test_the_readme_linux_install_works_with_debians_pipx(tmp_path: Path) -> None:
    lines = readme_linux_lines()
    assert len(lines) == 3 and lines[-1] == "duplitarot serve", lines
    assert lines[0].startswith("sudo apt install ")
    packages = lines[0].removeprefix("sudo apt install ").split("&&")[0].split()
    _apt_install([*packages, "sudo"])

    # The wheel, copied where the director opens the terminal.
    folder = tmp_path / "Downloads"
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    build_env = clean_environment(UV_PYTHON=sys.executable)
    build_env.pop("VIRTUAL_ENV", None)
    built = subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(folder), str(ROOT)],
        cwd=tmp_path,
        env=build_env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = re.search(r"\./(duplitarot-\S+\.whl)", lines[1])
    assert wheel and (folder / wheel[1]).exists(), [p.name for p in folder.iterdir()]

    # A new user's account: a home of its own, the system's PATH; each line in a new login
    # terminal (``pipx ensurepath`` puts ~/.local/bin on the PATH of the next ones).
    home = tmp_path / "home"
    home.mkdir()
    env = clean_environment(HOME=str(home), PATH=DEBIAN_PATH)
    for key in [k for k in env if k.startswith(("VIRTUAL_ENV", "UV_", "PIPX_", "XDG_"))]:
        del env[key]
    for line in lines[:-1]:
        done = subprocess.run(
            ["bash", "-l", "-c", line],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        assert done.returncode == 0, f"{line}: {done.stdout[-3000:]} {done.stderr[-3000:]}"

    # The last line, as written, on a free port (not 8000: another server of this machine may
    # hold it), on the default data folder of that account.
    data = home / ".local" / "share" / "duplitarot"
    data.parent.mkdir(parents=True, exist_ok=True)
    served = serve(
        data,
        command=["bash", "-l", "-c", 'exec duplitarot "$@"', "bash"],
        cwd=folder,
        env=env,
        name_the_folder=False,
    )
    try:
        assert f"Data folder:             {data}" in served.banner and served.setup_code
        status, _headers, page = served.get("/setup/")
        assert status == 200 and "setup_code" in page
        status, _headers, _body = served.get("/static/js/htmx.min.js")
        assert status == 200
    finally:
        assert served.stop() == 0
    installed = subprocess.run(
        ["bash", "-l", "-c", "command -v duplitarot; pipx --version"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert installed[0] == str(home / ".local" / "bin" / "duplitarot")
    if Path("/etc/debian_version").read_text().startswith("12"):
        assert installed[1] == "1.1.0"  # Debian 12's own pipx
